// Sign-canonical keys for GiNaC expressions.
#include "codegen/canonical_form.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "support/work_counters.h"

namespace daec {

using GiNaC::ex;
using GiNaC::ex_to;
using GiNaC::is_a;
using GiNaC::numeric;

bool CanonicalForms::is_odd(const std::string& function) {
  return function == "sin" || function == "tan" || function == "asin" || function == "atan" ||
         function == "sinh" || function == "tanh" || function == "sign" || function == "atan2";
}

bool CanonicalForms::is_even(const std::string& function) {
  return function == "cos" || function == "cosh" || function == "abs";
}

const CanonicalForms::Form& CanonicalForms::of(const ex& e) {
  const GiNaC::basic* node = &ex_to<GiNaC::basic>(e);
  auto it = forms_.find(node);
  if (it != forms_.end()) return it->second.second;
  count_work(WorkKind::Nodes);
  Form form = compute(e);
  return forms_.emplace(node, std::make_pair(e, std::move(form))).first->second.second;
}

namespace {

using Digest = CanonicalForms::Digest;
using Form = CanonicalForms::Form;

// Polynomial hashes modulo the Mersenne prime 2^61 - 1, in two bases: the hash of a text
// followed by another is the first's times base^(length of the second) plus the second's.
constexpr uint64_t kPrime = (uint64_t{1} << 61) - 1;
constexpr uint64_t kBases[2] = {1000003, 2654435761};

uint64_t multiply(uint64_t a, uint64_t b) {
  __extension__ using Wide = unsigned __int128;
  Wide product = static_cast<Wide>(a) * b;
  uint64_t folded = static_cast<uint64_t>(product & kPrime) + static_cast<uint64_t>(product >> 61);
  return folded >= kPrime ? folded - kPrime : folded;
}

uint64_t power(uint64_t base, uint64_t exponent) {
  uint64_t result = 1;
  for (; exponent > 0; exponent >>= 1) {
    if (exponent & 1) result = multiply(result, base);
    base = multiply(base, base);
  }
  return result;
}

uint64_t add(uint64_t a, uint64_t b) {
  uint64_t sum = a + b;
  return sum >= kPrime ? sum - kPrime : sum;
}

// Appends the text whose digest is `tail` to the text whose digest is `head`.
void append(Digest& head, const Digest& tail) {
  head.first = add(multiply(head.first, power(kBases[0], tail.cycle)), tail.first);
  head.second = add(multiply(head.second, power(kBases[1], tail.cycle)), tail.second);
  constexpr size_t kSaturated = static_cast<size_t>(-1) / 2;
  head.length = head.length > kSaturated - std::min(tail.length, kSaturated)
                    ? kSaturated
                    : head.length + tail.length;
  head.cycle = (head.cycle + tail.cycle) % (kPrime - 1);
}

// Appends `text` (short) to the text whose digest is `d`.
void append_text(Digest& d, const std::string& text) {
  for (char c : text) {
    d.first = add(multiply(d.first, kBases[0]), static_cast<unsigned char>(c) + 1);
    d.second = add(multiply(d.second, kBases[1]), static_cast<unsigned char>(c) + 1);
  }
  constexpr size_t kSaturated = static_cast<size_t>(-1) / 2;
  d.length = d.length > kSaturated - text.size() ? kSaturated : d.length + text.size();
  d.cycle = (d.cycle + text.size()) % (kPrime - 1);
}

// A key made of literal text and the keys of operands: their text if short enough, else the
// digest of the text they stand for.
class KeyText {
 public:
  KeyText& text(std::string literal) {
    pieces_.push_back({std::move(literal), nullptr});
    return *this;
  }
  KeyText& key(const Form& operand) {
    pieces_.push_back({std::string(), &operand});
    return *this;
  }

  Form form(bool negative) const {
    Form result;
    result.negative = negative;
    size_t length = 0;
    for (const auto& [literal, operand] : pieces_) {
      length += operand ? (operand->pieces.empty() ? operand->key.size() : operand->digest.length)
                        : literal.size();
    }
    if (length <= CanonicalForms::kMaxKeyText) {
      result.key.reserve(length);
      for (const auto& [literal, operand] : pieces_) result.key += operand ? operand->key : literal;
      return result;
    }
    // The digest of the whole text: short pieces character by character, long operands by
    // their digests.
    Digest& d = result.digest;
    for (const auto& [literal, operand] : pieces_) {
      if (operand && !operand->pieces.empty())
        append(d, operand->digest);
      else
        append_text(d, operand ? operand->key : literal);
    }
    result.key = fmt::format("~{:016x}{:016x}:{}", d.first, d.second, d.length);
    for (const auto& [literal, operand] : pieces_) result.pieces.push_back({literal, operand});
    return result;
  }

 private:
  std::vector<std::pair<std::string, const Form*>> pieces_;
};

// A position in a key's whole text, walking the pieces of long keys without recursion.
class KeyCursor {
 public:
  explicit KeyCursor(const Form& form) { enter(form); }

  /// Settles on a character or the end; returns the operand whose key starts here and has not
  /// been entered, if any (see compare).
  const Form* settle() {
    for (;;) {
      if (frames_.empty()) return nullptr;
      Frame& top = frames_.back();
      if (top.text) {
        if (top.offset < top.text->size()) return nullptr;
        frames_.pop_back();
        continue;
      }
      if (top.index >= top.form->pieces.size()) {
        frames_.pop_back();
        continue;
      }
      const CanonicalForms::Piece& piece = top.form->pieces[top.index];
      if (piece.operand) return piece.operand;
      ++top.index;
      if (!piece.text.empty()) frames_.push_back({nullptr, &piece.text, 0, 0});
    }
  }
  bool at_end() const { return frames_.empty(); }
  unsigned char peek() const {
    const Frame& top = frames_.back();
    return static_cast<unsigned char>((*top.text)[top.offset]);
  }
  void advance() { ++frames_.back().offset; }
  /// Passes over the operand settle() returned, or enters it.
  void skip() { ++frames_.back().index; }
  void enter_operand() {
    const Form* operand = frames_.back().form->pieces[frames_.back().index].operand;
    ++frames_.back().index;
    enter(*operand);
  }

 private:
  struct Frame {
    const Form* form;         // a long key's pieces, or
    const std::string* text;  // a text
    size_t index, offset;
  };
  void enter(const Form& form) {
    if (form.pieces.empty())
      frames_.push_back({nullptr, &form.key, 0, 0});
    else
      frames_.push_back({&form, nullptr, 0, 0});
  }
  std::vector<Frame> frames_;
};

Form text_form(std::string text, bool negative) {
  return KeyText().text(std::move(text)).form(negative);
}

}  // namespace

int CanonicalForms::compare(const Form& a, const Form& b) {
  if (a.pieces.empty() && b.pieces.empty()) return a.key.compare(b.key);
  if (&a == &b) return 0;
  KeyCursor x(a), y(b);
  for (;;) {
    const Form* p = x.settle();
    const Form* q = y.settle();
    if (p && p == q) {  // the same operand's key on both sides: equal texts
      x.skip();
      y.skip();
      continue;
    }
    if (p) {
      x.enter_operand();
      continue;
    }
    if (q) {
      y.enter_operand();
      continue;
    }
    if (x.at_end() || y.at_end()) return x.at_end() ? (y.at_end() ? 0 : -1) : 1;
    if (x.peek() != y.peek()) return x.peek() < y.peek() ? -1 : 1;
    x.advance();
    y.advance();
  }
}

static std::string number_text(const numeric& n) {
  std::ostringstream out;
  out << n;
  return out.str();
}

// A symbol's name as a key whose byte order is the natural order of names: each run of digits is
// preceded by its length (a control character, below every character a name holds), so that x2
// sorts before x10, and x[1] before x[10] as x1 before x10 -- an array model and its scalar
// twin (x1 ... x10 for x[1] ... x[10]) give the same code up to the names. Injective: the digits
// are kept, and a run ends where the digits do.
static std::string name_key(const std::string& name) {
  std::string key;
  for (size_t i = 0; i < name.size();) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) {
      key += name[i++];
      continue;
    }
    size_t end = i;
    while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end]))) ++end;
    key += static_cast<char>(std::min<size_t>(end - i, 31));
    key.append(name, i, end - i);
    i = end;
  }
  return key;
}

CanonicalForms::Form CanonicalForms::compute(const ex& e) {
  if (is_a<numeric>(e)) {
    const numeric& n = ex_to<numeric>(e);
    return text_form("#" + number_text(GiNaC::abs(n)), n.is_real() && n.is_negative());
  }
  if (is_a<GiNaC::symbol>(e)) return text_form(name_key(ex_to<GiNaC::symbol>(e).get_name()), false);
  // The key of `operand` with its sign, as a literal prefix.
  auto signed_key = [this](KeyText& text, const ex& operand) {
    const Form& f = of(operand);
    if (f.negative) text.text("-");
    text.key(f);
  };
  if (is_a<GiNaC::add>(e)) {
    // Terms in key order, numbers last; the first term decides the orientation.
    std::vector<std::pair<const Form*, bool>> terms;  // form, is a number
    for (const ex& term : e) terms.push_back({&of(term), is_a<numeric>(term)});
    std::sort(terms.begin(), terms.end(), [](const auto& a, const auto& b) {
      if (a.second != b.second) return b.second;
      return compare(*a.first, *b.first) < 0;
    });
    bool negative = terms.front().first->negative;
    KeyText text;
    text.text("(");
    for (const auto& [form, number] : terms)
      text.text(form->negative != negative ? "-" : "+").key(*form);
    return text.text(")").form(negative);
  }
  if (is_a<GiNaC::mul>(e)) {
    // The coefficient's magnitude joins the key, its sign the orientation: -y and y share a key.
    bool negative = false;
    const Form* coefficient = nullptr;
    std::vector<const Form*> factors;
    for (const ex& factor : e) {
      const Form& f = of(factor);
      negative = negative != f.negative;
      if (is_a<numeric>(factor)) {
        if (f.key != "#1") coefficient = &f;
      } else {
        factors.push_back(&f);
      }
    }
    if (!coefficient && factors.size() == 1) {
      Form single = *factors.front();
      single.negative = negative;
      return single;
    }
    std::sort(factors.begin(), factors.end(),
              [](const Form* a, const Form* b) { return compare(*a, *b) < 0; });
    KeyText text;
    text.text("*[");
    if (coefficient) text.key(*coefficient);
    for (const Form* f : factors) text.text(",").key(*f);
    return text.text("]").form(negative);
  }
  if (is_a<GiNaC::power>(e)) {
    const ex& exponent = e.op(1);
    KeyText text;
    text.text("^(");
    if (is_a<numeric>(exponent) && ex_to<numeric>(exponent).is_integer()) {
      const Form& base = of(e.op(0));
      bool odd = ex_to<numeric>(exponent).is_odd();
      return text.key(base)
          .text("," + number_text(ex_to<numeric>(exponent)) + ")")
          .form(base.negative && odd);
    }
    signed_key(text, e.op(0));
    text.text(",");
    signed_key(text, exponent);
    return text.text(")").form(false);
  }
  if (is_a<GiNaC::function>(e)) {
    std::string name = ex_to<GiNaC::function>(e).get_name();
    if (name == "conjugate" && e.nops() == 1) return of(e.op(0));  // every quantity is real
    bool odd = is_odd(name), even = is_even(name);
    bool negative = false;
    KeyText text;
    text.text(name + "(");
    for (size_t i = 0; i < e.nops(); ++i) {
      const Form& arg = of(e.op(i));
      if (i == 0 && (odd || even)) {
        negative = odd && arg.negative;
        text.key(arg);
      } else {
        if (i) text.text(",");
        signed_key(text, e.op(i));
      }
    }
    return text.text(")").form(negative);
  }
  std::ostringstream out;  // anything else (never produced by the front end): its own text
  out << e;
  return text_form("?" + out.str(), false);
}

}  // namespace daec
