// A precedence-aware printer from GiNaC expressions to .dae syntax (see the header).
//
// Operand order. GiNaC keeps the operands of sums and products sorted by hash values, and the
// hash of a symbol mixes in the address of a type_info object inside libginac: it changes from
// run to run with address-space randomisation. Printing operands in GiNaC's order would make the
// same model print differently on every run, so the printer sorts them itself, by keys built from
// names and numbers only:
//   - factors of a product: plain names and numbers (and their powers) first, then derivatives
//     (x'), then function calls, then parenthesised sums; within a group in natural name order
//     (x2 before x10, case-insensitively), higher powers of the same base first;
//   - terms of a sum: by their sorted factor lists, compared factor by factor in natural order of
//     the bases (whatever their group), higher powers first; numbers last; then the positive
//     terms before the negative ones (`y - x`, not `-x + y`);
//   - a sum raised to an integer power (a factor like `(x2 - x1)`) is printed in canonical sign,
//     with the sign moved out: see is_canonical_sum.
#include "model/expression_printer.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <sstream>

#include "model/conditions.h"
#include "model/evaluation.h"

namespace daec {

using GiNaC::ex;
using GiNaC::ex_to;
using GiNaC::is_a;
using GiNaC::numeric;

namespace {

// Binding strength of what a printed string is, from loosest to tightest.
enum Precedence {
  kIf = 1,
  kOr,
  kAnd,
  kNot,
  kRelation,
  kSum,
  kProduct,
  kUnary,
  kPower,
  kAtom,
};

struct Printed {
  std::string text;
  Precedence precedence;
};

std::string wrap(const Printed& p, Precedence needed) {
  return p.precedence < needed ? "(" + p.text + ")" : p.text;
}

// Natural order: runs of digits compare by value, everything else case-insensitively; exact
// byte order breaks ties, so that distinct strings never compare equal.
int natural_compare(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    unsigned char ca = static_cast<unsigned char>(a[i]), cb = static_cast<unsigned char>(b[j]);
    if (std::isdigit(ca) && std::isdigit(cb)) {
      size_t ei = i, ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei]))) ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej]))) ++ej;
      size_t si = i, sj = j;  // skip leading zeros, then compare by length and digits
      while (si + 1 < ei && a[si] == '0') ++si;
      while (sj + 1 < ej && b[sj] == '0') ++sj;
      if (ei - si != ej - sj) return ei - si < ej - sj ? -1 : 1;
      int digits = a.compare(si, ei - si, b, sj, ej - sj);
      if (digits != 0) return digits < 0 ? -1 : 1;
      i = ei;
      j = ej;
      continue;
    }
    int la = std::tolower(ca), lb = std::tolower(cb);
    if (la != lb) return la < lb ? -1 : 1;
    ++i;
    ++j;
  }
  if (i < a.size() || j < b.size()) return i < a.size() ? 1 : -1;
  int exact = a.compare(b);
  return exact < 0 ? -1 : exact > 0 ? 1 : 0;
}

class Printer {
 public:
  Printed print(const ex& e);

 private:
  // Where a factor goes when sorting: grouped by what its base is, then by the base's text.
  struct FactorKey {
    int group;  // 0: names, numbers, constants; 1: derivatives; 2: function calls; 3: the rest
    std::string base;
  };
  // A factor base^exponent of a product. It is kept apart rather than rebuilt as a GiNaC power:
  // GiNaC would renormalise the sign of a sum base by hash order again (see is_canonical_sum).
  struct Factor {
    ex base, exponent;  // exponent > 0 for a denominator factor, which stands for base^-exponent
    FactorKey key;
  };
  struct Factors {
    numeric coefficient = 1;
    std::vector<Factor> numerator, denominator;  // each in printing order
  };
  struct Term {
    ex term;
    bool number;
    std::vector<Factor> factors;  // in printing order, denominator exponents negated
    Printed printed;
    bool negative() const { return printed.text[0] == '-'; }
  };

  Printed print_uncached(const ex& e);
  Printed print_numeric(const numeric& n);
  Printed print_sum(const ex& e);
  Printed print_product(const ex& e);
  Printed print_power(const ex& base, const ex& exponent);
  Printed print_factor(const Factor& factor);
  Printed print_function(const GiNaC::function& f);
  Printed print_condition(const GiNaC::function& f);
  Printed print_if(const ex& e);

  std::vector<Term> sorted_terms(const ex& sum);
  bool is_canonical_sum(const ex& sum);
  Factor make_factor(const ex& base, const ex& exponent);
  int compare_factors(const Factor& a, const Factor& b, bool by_group = true);
  int compare_factor_lists(const std::vector<Factor>& a, const std::vector<Factor>& b);
  Factors split_product(const ex& e);
  std::string join_factors(const std::vector<Factor>& factors);

  // Every subexpression is printed (and every sum's sign judged) once per to_dae call, however
  // often sorting looks at it.
  std::map<ex, Printed, GiNaC::ex_is_less> printed_;
  std::map<ex, bool, GiNaC::ex_is_less> canonical_;
};

Printed Printer::print(const ex& e) {
  auto it = printed_.find(e);
  if (it != printed_.end()) return it->second;
  Printed result = print_uncached(e);
  printed_.emplace(e, result);
  return result;
}

Printed Printer::print_uncached(const ex& e) {
  if (is_a<numeric>(e)) return print_numeric(ex_to<numeric>(e));
  if (is_a<GiNaC::symbol>(e)) return {ex_to<GiNaC::symbol>(e).get_name(), kAtom};
  if (e.is_equal(GiNaC::Pi)) return {"pi", kAtom};
  if (is_a<GiNaC::add>(e)) return print_sum(e);
  if (is_a<GiNaC::mul>(e)) return print_product(e);
  if (is_a<GiNaC::power>(e)) {
    const ex& exponent = e.op(1);
    bool integer = is_a<numeric>(exponent) && ex_to<numeric>(exponent).is_integer();
    bool negative = is_a<numeric>(exponent) && ex_to<numeric>(exponent).is_negative();
    // 1/x, and the sign of a sum base: as products (x2 - x1)^3 prints as -(x1 - x2)^3.
    if (negative || (integer && is_a<GiNaC::add>(e.op(0)))) return print_product(e);
    return print_power(e.op(0), exponent);
  }
  if (is_a<GiNaC::function>(e)) return print_function(ex_to<GiNaC::function>(e));
  std::ostringstream out;  // not produced by the front end; printed as GiNaC does
  out << e;
  return {out.str(), kAtom};
}

Printed Printer::print_numeric(const numeric& n) {
  if (n.is_rational()) {
    std::ostringstream out;
    out << n;  // CLN prints integers and p/q exactly
    std::string text = out.str();
    if (n.is_negative()) return {text, kUnary};
    return {text, n.is_integer() ? kAtom : kProduct};
  }
  if (!n.is_real()) {  // the language has no complex numbers; printed as GiNaC does (2+3*I)
    std::ostringstream out;
    out << n;
    return {out.str(), kSum};
  }
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", nearest_double(n));
  std::string text = buffer;
  return {text, text[0] == '-' ? kUnary : kAtom};
}

Printer::Factor Printer::make_factor(const ex& base, const ex& exponent) {
  std::string text = print(base).text;
  int group = 3;
  if (is_a<GiNaC::symbol>(base)) {
    group = text.back() == '\'' ? 1 : 0;  // derivatives after the other names: m*u'
  } else if (is_a<numeric>(base) || is_a<GiNaC::constant>(base)) {
    group = 0;
  } else if (is_a<GiNaC::function>(base)) {
    group = 2;
  }
  return Factor{base, exponent, FactorKey{group, text}};
}

int Printer::compare_factors(const Factor& a, const Factor& b, bool by_group) {
  if (by_group && a.key.group != b.key.group) return a.key.group < b.key.group ? -1 : 1;
  if (int c = natural_compare(a.key.base, b.key.base)) return c;
  bool a_number = is_a<numeric>(a.exponent) && ex_to<numeric>(a.exponent).is_real();
  bool b_number = is_a<numeric>(b.exponent) && ex_to<numeric>(b.exponent).is_real();
  if (a_number && b_number) {  // higher powers first: x^2 + x
    const numeric& x = ex_to<numeric>(a.exponent);
    const numeric& y = ex_to<numeric>(b.exponent);
    return x > y ? -1 : y > x ? 1 : 0;
  }
  if (a_number != b_number) return a_number ? -1 : 1;
  return natural_compare(print(a.exponent).text, print(b.exponent).text);
}

int Printer::compare_factor_lists(const std::vector<Factor>& a, const std::vector<Factor>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (int c = compare_factors(a[i], b[i], false)) return c;
  }
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  return 0;
}

// A product split into numeric coefficient, numerator factors and denominator factors (those
// with a negative numeric exponent, stored with the exponent made positive), each list in
// printing order. Sum bases raised to integer powers are put in canonical sign.
Printer::Factors Printer::split_product(const ex& e) {
  Factors f;
  auto add_factor = [&](const ex& factor) {
    if (is_a<numeric>(factor)) {
      f.coefficient *= ex_to<numeric>(factor);
      return;
    }
    ex base = factor, exponent = 1;
    if (is_a<GiNaC::power>(factor)) {
      base = factor.op(0);
      exponent = factor.op(1);
    }
    bool numeric_exponent = is_a<numeric>(exponent);
    if (numeric_exponent && ex_to<numeric>(exponent).is_integer() && is_a<GiNaC::add>(base) &&
        !is_canonical_sum(base)) {
      base = -base;  // a number times a sum distributes: this is the sum with negated terms
      if (ex_to<numeric>(exponent).is_odd()) f.coefficient = -f.coefficient;
    }
    if (numeric_exponent && ex_to<numeric>(exponent).is_negative()) {
      f.denominator.push_back(make_factor(base, -exponent));
    } else {
      f.numerator.push_back(make_factor(base, exponent));
    }
  };
  if (is_a<GiNaC::mul>(e)) {
    for (size_t i = 0; i < e.nops(); ++i) add_factor(e.op(i));
  } else {
    add_factor(e);
  }
  auto by_key = [this](const Factor& a, const Factor& b) { return compare_factors(a, b) < 0; };
  std::stable_sort(f.numerator.begin(), f.numerator.end(), by_key);
  std::stable_sort(f.denominator.begin(), f.denominator.end(), by_key);
  return f;
}

std::string Printer::join_factors(const std::vector<Factor>& factors) {
  std::string text;
  for (const Factor& factor : factors) {
    if (!text.empty()) text += "*";
    text += wrap(print_factor(factor), kProduct);
  }
  return text;
}

Printed Printer::print_factor(const Factor& factor) {
  if (factor.exponent.is_equal(1)) return print(factor.base);
  return print_power(factor.base, factor.exponent);
}

Printed Printer::print_product(const ex& e) {
  Factors f = split_product(e);
  bool negative = f.coefficient.is_negative();
  numeric magnitude = negative ? -f.coefficient : f.coefficient;
  numeric num = magnitude.numer(), den = magnitude.denom();
  if (f.numerator.size() == 1 && num.is_equal(1) && f.denominator.empty() && den.is_equal(1)) {
    // A lone factor keeps its own precedence: -x^2 rather than -(x^2).
    Printed single = print_factor(f.numerator[0]);
    if (!negative) return single;
    return {"-" + wrap(single, kPower), kUnary};
  }
  std::string text;
  if (!num.is_equal(1) || f.numerator.empty()) text = print_numeric(num).text;
  if (!f.numerator.empty()) text += (text.empty() ? "" : "*") + join_factors(f.numerator);
  size_t below_parts = f.denominator.size() + (den.is_equal(1) ? 0 : 1);
  if (below_parts == 1) {
    // One divisor stands bare if it binds at least as tightly as '^': a/b^2, a/sin(x), a/(b + c).
    Printed divisor = den.is_equal(1) ? print_factor(f.denominator[0]) : print_numeric(den);
    text += "/" + wrap(divisor, kPower);
  } else if (below_parts > 1) {
    std::string below = den.is_equal(1) ? "" : print_numeric(den).text;
    below += (below.empty() ? "" : "*") + join_factors(f.denominator);
    text += "/(" + below + ")";
  }
  if (negative) return {"-" + text, kUnary};
  return {text, kProduct};
}

// The terms of a sum in printing order, before the positive ones are moved to the front.
std::vector<Printer::Term> Printer::sorted_terms(const ex& sum) {
  std::vector<Term> terms;
  for (size_t i = 0; i < sum.nops(); ++i) {
    const ex& term = sum.op(i);
    bool number = is_a<numeric>(term);
    Factors f;
    if (!number) f = split_product(term);
    // Sorting looks at the factors in the order they print: numerator, then denominator (with
    // the exponent negated again, so that x comes before 1/x).
    std::vector<Factor> factors = f.numerator;
    for (const Factor& d : f.denominator) factors.push_back(Factor{d.base, -d.exponent, d.key});
    terms.push_back(Term{term, number, std::move(factors), print(term)});
  }
  std::stable_sort(terms.begin(), terms.end(), [this](const Term& a, const Term& b) {
    if (a.number != b.number) return b.number;
    if (int c = compare_factor_lists(a.factors, b.factors)) return c < 0;
    return natural_compare(a.printed.text, b.printed.text) < 0;
  });
  return terms;
}

// Of s and -s, exactly one is canonical: the one with fewer negative terms or, as many, the one
// whose first term (in printing order) is positive. GiNaC stores c*s^n (n an integer) sometimes
// as (-1)^n*c*(-s)^n, depending on hash order, so the printer puts sum factors in canonical sign
// itself: c*(x2 - x1) always prints as -c*(x1 - x2).
bool Printer::is_canonical_sum(const ex& sum) {
  auto it = canonical_.find(sum);
  if (it != canonical_.end()) return it->second;
  std::vector<Term> terms = sorted_terms(sum);
  size_t negative = 0;
  for (const Term& term : terms) negative += term.negative();
  bool canonical =
      2 * negative != terms.size() ? 2 * negative < terms.size() : !terms.front().negative();
  canonical_.emplace(sum, canonical);
  return canonical;
}

Printed Printer::print_sum(const ex& e) {
  std::vector<Term> terms = sorted_terms(e);
  // Positive terms first: y - x, x^2 + y^2 - L^2.
  std::stable_partition(terms.begin(), terms.end(),
                        [](const Term& term) { return !term.negative(); });
  std::string text;
  for (size_t i = 0; i < terms.size(); ++i) {
    const Term& term = terms[i];
    if (i == 0) {
      text = wrap(term.printed, kSum);
    } else if (term.negative()) {
      text += " - " + wrap(print(-term.term), kProduct);
    } else {
      text += " + " + wrap(term.printed, kSum);
    }
  }
  return {text, kSum};
}

// base^exponent with a positive (or symbolic) exponent.
Printed Printer::print_power(const ex& base, const ex& exponent) {
  if (exponent.is_equal(numeric(1, 2))) return {"sqrt(" + print(base).text + ")", kAtom};
  Printed b = print(base);
  Printed x = print(exponent);
  // The base binds tighter than '^'. The grammar would take a unary or power exponent bare
  // (x^-y, 2^x^2), but anything but a name, number or call reads more clearly in parentheses.
  std::string base_text = b.precedence <= kPower ? "(" + b.text + ")" : b.text;
  return {base_text + "^" + wrap(x, kAtom), kPower};
}

Printed Printer::print_function(const GiNaC::function& f) {
  // GiNaC writes abs(log(x))^2 as log(x)*conjugate(log(x)) when it cannot tell that log(x) is
  // real, and brings in real_part and imag_part the same way. Everything in a model is real: the
  // conjugate and the real part are the value itself, the imaginary part is 0 (and the language
  // has none of these functions).
  if (f.nops() == 1 && (f.get_name() == "conjugate" || f.get_name() == "real_part")) {
    return print(f.op(0));
  }
  if (f.nops() == 1 && f.get_name() == "imag_part") return {"0", kAtom};
  if (is_if(f)) return print_if(f);
  if (is_condition_call(f)) return print_condition(f);
  std::string text = f.get_name() + "(";
  for (size_t i = 0; i < f.nops(); ++i) {
    if (i) text += ", ";
    text += print(f.op(i)).text;
  }
  return {text + ")", kAtom};
}

// min(a, b) and max(a, b) as written; other conditional expressions as `if C then A else B`, a
// conditional expression in the else branch as `elseif`.
Printed Printer::print_if(const ex& e) {
  const ex &condition = e.op(0), &a = e.op(1), &b = e.op(2);
  if (is_relation(condition) && condition.op(0).is_equal(a) && condition.op(1).is_equal(b)) {
    std::string name = ex_to<GiNaC::function>(condition).get_name();
    if (name == "daec_lt" || name == "daec_gt") {
      return {(name == "daec_lt" ? "min(" : "max(") + print(a).text + ", " + print(b).text + ")",
              kAtom};
    }
  }
  std::string text = "if " + print(condition).text + " then " + wrap(print(a), kOr);
  Printed otherwise = print(b);
  if (is_if(b) && otherwise.precedence == kIf) return {text + " else" + otherwise.text, kIf};
  return {text + " else " + otherwise.text, kIf};
}

// Relations, `and`, `or` and `not`; `and` and `or` are left-associative.
Printed Printer::print_condition(const GiNaC::function& f) {
  std::string name = f.get_name();
  RelationKind kind;
  if (relation_kind_of(name, kind)) {
    return {wrap(print(f.op(0)), kSum) + " " + relation_spelling(kind) + " " +
                wrap(print(f.op(1)), kSum),
            kRelation};
  }
  if (name == "daec_not") return {"not " + wrap(print(f.op(0)), kNot), kNot};
  Precedence level = name == "daec_and" ? kAnd : kOr;
  Precedence operand = name == "daec_and" ? kNot : kAnd;
  return {wrap(print(f.op(0)), level) + (level == kAnd ? " and " : " or ") +
              wrap(print(f.op(1)), operand),
          level};
}

}  // namespace

std::string to_dae(const ex& e) {
  return Printer().print(e).text;
}

std::string quote_dae_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace daec
