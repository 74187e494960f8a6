// Sign-canonical keys for GiNaC expressions.
#include "codegen/canonical_form.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

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
  auto it = forms_.find(e);
  if (it != forms_.end()) return it->second;
  Form form = compute(e);
  return forms_.emplace(e, std::move(form)).first->second;
}

std::string CanonicalForms::signed_key(const ex& e) {
  const Form& f = of(e);
  return (f.negative ? "-" : "") + f.key;
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
    return {"#" + number_text(GiNaC::abs(n)), n.is_real() && n.is_negative()};
  }
  if (is_a<GiNaC::symbol>(e)) return {name_key(ex_to<GiNaC::symbol>(e).get_name()), false};
  if (is_a<GiNaC::add>(e)) {
    // Terms in key order, numbers last; the first term decides the orientation.
    std::vector<std::pair<const Form*, bool>> terms;  // form, is a number
    for (const ex& term : e) terms.push_back({&of(term), is_a<numeric>(term)});
    std::sort(terms.begin(), terms.end(), [](const auto& a, const auto& b) {
      if (a.second != b.second) return b.second;
      return a.first->key < b.first->key;
    });
    bool negative = terms.front().first->negative;
    std::string key = "(";
    for (const auto& [form, number] : terms)
      key += (form->negative != negative ? "-" : "+") + form->key;
    return {key + ")", negative};
  }
  if (is_a<GiNaC::mul>(e)) {
    // The coefficient's magnitude joins the key, its sign the orientation: -y and y share a key.
    bool negative = false;
    std::string coefficient;
    std::vector<std::string> factors;
    for (const ex& factor : e) {
      const Form& f = of(factor);
      negative = negative != f.negative;
      if (is_a<numeric>(factor)) {
        if (f.key != "#1") coefficient = f.key;
      } else {
        factors.push_back(f.key);
      }
    }
    if (coefficient.empty() && factors.size() == 1) return {factors.front(), negative};
    std::sort(factors.begin(), factors.end());
    std::string key = "*[" + coefficient;
    for (const std::string& f : factors) key += "," + f;
    return {key + "]", negative};
  }
  if (is_a<GiNaC::power>(e)) {
    const ex& exponent = e.op(1);
    if (is_a<numeric>(exponent) && ex_to<numeric>(exponent).is_integer()) {
      const Form& base = of(e.op(0));
      bool odd = ex_to<numeric>(exponent).is_odd();
      return {"^(" + base.key + "," + number_text(ex_to<numeric>(exponent)) + ")",
              base.negative && odd};
    }
    return {"^(" + signed_key(e.op(0)) + "," + signed_key(exponent) + ")", false};
  }
  if (is_a<GiNaC::function>(e)) {
    std::string name = ex_to<GiNaC::function>(e).get_name();
    if (name == "conjugate" && e.nops() == 1) return of(e.op(0));  // every quantity is real
    bool odd = is_odd(name), even = is_even(name);
    bool negative = false;
    std::string key = name + "(";
    for (size_t i = 0; i < e.nops(); ++i) {
      const Form& arg = of(e.op(i));
      if (i == 0 && (odd || even)) {
        negative = odd && arg.negative;
        key += arg.key;
      } else {
        key += (i ? "," : "") + signed_key(e.op(i));
      }
    }
    return {key + ")", negative};
  }
  std::ostringstream out;  // anything else (never produced by the front end): its own text
  out << e;
  return {"?" + out.str(), false};
}

}  // namespace daec
