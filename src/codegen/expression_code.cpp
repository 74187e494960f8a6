// The expression compiler: common subexpression elimination and C++ text for GiNaC trees.
#include "codegen/expression_code.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "model/conditions.h"
#include "model/evaluation.h"
#include "model/functions.h"

namespace daec {

using GiNaC::ex;
using GiNaC::ex_to;
using GiNaC::is_a;
using GiNaC::numeric;

std::string double_literal(double value) {
  if (std::isnan(value)) return "std::numeric_limits<double>::quiet_NaN()";
  if (std::isinf(value)) return value > 0 ? "HUGE_VAL" : "(-HUGE_VAL)";
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  std::string text = buffer;
  if (text.find_first_of(".eE") == std::string::npos) text += ".0";
  return text;
}

ExpressionCompiler::ExpressionCompiler(SymbolCode symbols, std::string temporary_prefix)
    : symbols_(std::move(symbols)), prefix_(std::move(temporary_prefix)) {}

size_t ExpressionCompiler::add(const ex& e) {
  roots_.push_back(e);
  count_uses(e);
  return roots_.size() - 1;
}

static bool is_leaf(const ex& e) {
  return e.nops() == 0;
}

// -y is y with the opposite orientation (the same canonical key): for it, true and inner = y.
static bool is_negation(const ex& e, ex& inner) {
  if (!is_a<GiNaC::mul>(e) || e.nops() != 2) return false;
  for (size_t i = 0; i < 2; ++i) {
    if (e.op(i).is_equal(-1)) {
      inner = e.op(1 - i);
      return true;
    }
  }
  return false;
}

// Code that needs no temporary: a name, an array element (x[3]) or a literal (1.5e-08).
static bool is_trivial(const std::string& code) {
  for (size_t i = 0; i < code.size(); ++i) {
    char c = code[i];
    bool exponent_sign = (c == '-' || c == '+') && i > 0 &&
                         (code[i - 1] == 'e' || code[i - 1] == 'E') &&
                         std::isdigit(static_cast<unsigned char>(code[0]));
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '[' && c != ']' &&
        c != '.' && !exponent_sign) {
      return false;
    }
  }
  return true;
}

const std::string& ExpressionCompiler::sort_key(const ex& e) {
  return forms_.of(e).key;
}

std::vector<ex> ExpressionCompiler::ordered_operands(const ex& e) {
  std::vector<ex> operands(e.begin(), e.end());
  std::stable_sort(operands.begin(), operands.end(), [&](const ex& a, const ex& b) {
    bool a_number = is_a<numeric>(a), b_number = is_a<numeric>(b);
    if (a_number != b_number) return b_number;  // numbers last in sums, coefficients apart
    return CanonicalForms::compare(forms_.of(a), forms_.of(b)) < 0;
  });
  return operands;
}

// Counts how often each compound subexpression is used, e and -e alike (they share a
// temporary); children are visited on the first use only, so that a shared subtree counts its
// own children once.
void ExpressionCompiler::count_uses(const ex& e) {
  if (is_leaf(e)) return;
  if (ex inner; is_negation(e, inner)) return count_uses(inner);
  if (uses_[sort_key(e)]++ > 0) return;
  for (size_t i = 0; i < e.nops(); ++i) count_uses(e.op(i));
}

std::vector<std::string> ExpressionCompiler::statements() {
  root_code_.clear();
  for (const ex& root : roots_) root_code_.push_back(emit(root));
  return statements_;
}

std::string ExpressionCompiler::bind(const std::string& code) {
  auto it = bound_.find(code);
  if (it != bound_.end()) return it->second;
  std::string name = prefix_ + std::to_string(statements_.size());
  statements_.push_back("const double " + name + " = " + code + ";");
  bound_[code] = name;
  return name;
}

static std::string parenthesize(const std::string& code) {
  bool simple = true;
  int depth = 0;
  for (size_t i = 0; i < code.size(); ++i) {
    char c = code[i];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth == 0 && (c == '+' || c == '-' || c == '*' || c == '/' || c == ' ') &&
        !(i > 0 && (code[i - 1] == 'e' || code[i - 1] == 'E'))) {
      simple = false;
    }
  }
  return simple ? code : "(" + code + ")";
}

static std::string negated(const std::string& code) {
  return "-" + parenthesize(code);
}

std::string ExpressionCompiler::emit(const ex& e) {
  std::string code = emit_positive(e);
  return forms_.of(e).negative ? negated(code) : code;
}

std::string ExpressionCompiler::emit_positive(const ex& e) {
  if (ex inner; is_negation(e, inner)) return emit_positive(inner);
  const std::string& key = sort_key(e);
  auto it = emitted_.find(key);
  if (it != emitted_.end()) return it->second;
  std::string code = emit_uncached(e);
  auto uses = uses_.find(key);
  if (uses != uses_.end() && uses->second > 1 && !is_trivial(code)) code = bind(code);
  emitted_[key] = code;
  return code;
}

std::string ExpressionCompiler::emit_uncached(const ex& e) {
  if (is_a<numeric>(e)) {
    const numeric& n = ex_to<numeric>(e);
    if (!n.is_real()) throw std::invalid_argument("complex constant in generated code");
    return double_literal(nearest_double(GiNaC::abs(n)));
  }
  if (is_a<GiNaC::symbol>(e)) {
    auto it = symbols_.find(e);
    if (it == symbols_.end()) {
      throw std::invalid_argument("no code for symbol " + ex_to<GiNaC::symbol>(e).get_name());
    }
    return it->second;
  }
  if (e.is_equal(GiNaC::Pi)) return double_literal(M_PI);
  if (is_a<GiNaC::add>(e)) return emit_sum(e);
  if (is_a<GiNaC::mul>(e)) return emit_product(e);
  if (is_a<GiNaC::power>(e)) return emit_power(e.op(0), e.op(1));
  if (is_a<GiNaC::function>(e)) return emit_function(e);
  throw std::invalid_argument("cannot generate code for this expression");
}

// The sum in its positive orientation: the first term (in key order) is positive.
std::string ExpressionCompiler::emit_sum(const ex& e) {
  bool flip = forms_.of(e).negative;
  std::string code;
  for (const ex& term : ordered_operands(e)) {
    bool negative = forms_.of(term).negative != flip;
    std::string text = emit_positive(term);
    if (code.empty()) {
      code = negative ? negated(text) : text;
    } else {
      ++operations_;
      code += (negative ? " - " : " + ") + (negative ? parenthesize(text) : text);
    }
  }
  return code;
}

// The product of the factors' positive orientations (its sign is the product of theirs). A
// constant beyond a double goes into a power of a sum where it can (model/power_content.h).
std::string ExpressionCompiler::emit_product(const ex& e) {
  numeric coefficient = 1;
  std::vector<std::string> numerator, denominator;
  const std::vector<ex> factors = ordered_operands(e);
  for (const ex& factor : factors) {
    if (is_a<numeric>(factor) && ex_to<numeric>(factor).is_real())
      coefficient *= GiNaC::abs(ex_to<numeric>(factor));
  }
  std::optional<ContentInPower> scaled;
  if (!beyond_double(coefficient).empty()) scaled = content_into_power(coefficient, factors);
  coefficient = scaled ? scaled->rest : numeric(1);
  for (size_t i = 0; i < factors.size(); ++i) {
    const ex& factor = factors[i];
    if (scaled && i == scaled->factor) {
      long m = ex_to<numeric>(factor.op(1)).to_long();
      (m > 0 ? numerator : denominator).push_back(emit_scaled_power(factor.op(0), *scaled, m));
      continue;
    }
    if (is_a<numeric>(factor)) {
      // abs would turn I*pi into pi: the imaginary unit must fail here as anywhere else.
      if (!ex_to<numeric>(factor).is_real())
        throw std::invalid_argument("complex constant in generated code");
      if (!scaled) coefficient *= GiNaC::abs(ex_to<numeric>(factor));
    } else if (is_a<GiNaC::power>(factor) && is_a<numeric>(factor.op(1)) &&
               ex_to<numeric>(factor.op(1)).is_negative()) {
      denominator.push_back(emit_positive(GiNaC::pow(factor.op(0), -factor.op(1))));
    } else {
      numerator.push_back(emit_positive(factor));
    }
  }
  std::string code;
  if (!coefficient.is_equal(1) || numerator.empty())
    code = double_literal(nearest_double(coefficient));
  for (const std::string& factor : numerator) {
    if (!code.empty()) ++operations_;
    code += (code.empty() ? "" : "*") + parenthesize(factor);
  }
  if (!denominator.empty()) {
    std::string below;
    for (const std::string& factor : denominator) {
      if (!below.empty()) ++operations_;
      below += (below.empty() ? "" : "*") + parenthesize(factor);
    }
    ++operations_;
    code += "/" + (denominator.size() == 1 ? parenthesize(below) : "(" + below + ")");
  }
  return code;
}

// The positive orientation of `sum`^m (its orientation to the power m) times k^|m|, as
// (k*sum)^|m|, for a product whose constant was put into the power (ContentInPower, m != 0).
std::string ExpressionCompiler::emit_scaled_power(const ex& sum, const ContentInPower& scaled,
                                                  long m) {
  // k*sum was made of the sum as GiNaC holds it; the power's positive orientation is that of the
  // sum's, so the scaled sum is taken with the sign that gives it.
  ex base = forms_.of(sum).negative ? -scaled.scaled : scaled.scaled;
  long n = std::labs(m);
  if (n <= 32) {
    std::string b = parenthesize(emit(base));
    return emit_integer_power(b.find_first_of("*/+- ") == std::string::npos ? b : bind(b), n);
  }
  ++operations_;
  return "std::pow(" + emit(base) + ", " + double_literal(static_cast<double>(n)) + ")";
}

std::string ExpressionCompiler::emit_integer_power(const std::string& base, long exponent) {
  // Binary powering: x^5 = (x^2)^2 * x, with every square held in a temporary.
  std::string result, square = base;
  for (long n = exponent; n > 0; n >>= 1) {
    if (n & 1) {
      if (!result.empty()) ++operations_;
      result = result.empty() ? square : result + "*" + square;
    }
    if (n > 1) {
      ++operations_;
      square = bind(square + "*" + square);
    }
  }
  return result;
}

// Integer powers of the base's positive orientation (the sign is the power's own); square roots
// of the base as it is.
std::string ExpressionCompiler::emit_power(const ex& base, const ex& exponent) {
  if (is_a<numeric>(exponent) && ex_to<numeric>(exponent).is_rational()) {
    const numeric& n = ex_to<numeric>(exponent);
    numeric twice = n * 2;
    bool negative = n.is_negative();
    if (twice.is_integer() && GiNaC::abs(twice) <= 64) {
      long half_steps = std::labs(twice.to_long());
      std::string b = parenthesize(half_steps % 2 ? emit(base) : emit_positive(base));
      std::string simple = b.find_first_of("*/+- ") == std::string::npos ? b : bind(b);
      std::string code;
      if (half_steps >= 2) code = emit_integer_power(simple, half_steps / 2);
      if (half_steps % 2) {
        ++operations_;
        std::string root = bind("std::sqrt(" + simple + ")");
        if (!code.empty()) ++operations_;
        code = code.empty() ? root : code + "*" + root;
      }
      if (!negative) return code;
      ++operations_;
      return "1.0/" + parenthesize(code);
    }
  }
  ++operations_;
  return "std::pow(" + emit(base) + ", " + emit(exponent) + ")";
}

std::string ExpressionCompiler::emit_function(const ex& e) {
  const GiNaC::function& f = ex_to<GiNaC::function>(e);
  std::string name = f.get_name();
  // GiNaC writes abs(f)^2 as f*conjugate(f) when it cannot prove f real (log, asin, ...); every
  // model quantity is real, so conjugate is the identity here.
  if (name == "conjugate" && f.nops() == 1) return emit_positive(f.op(0));
  if (is_if(e) || is_condition_call(e)) return emit_condition(e);
  static const std::map<std::string, std::string> kCxx = {
      {"sin", "std::sin"},   {"cos", "std::cos"},   {"tan", "std::tan"},     {"asin", "std::asin"},
      {"acos", "std::acos"}, {"atan", "std::atan"}, {"atan2", "std::atan2"}, {"sinh", "std::sinh"},
      {"cosh", "std::cosh"}, {"tanh", "std::tanh"}, {"exp", "std::exp"},     {"log", "std::log"},
      {"abs", "std::fabs"},  {"sign", "daec_sign"},
  };
  auto it = kCxx.find(name);
  if (it == kCxx.end()) throw std::invalid_argument("no C++ for function " + name);
  // Odd functions take their first argument's positive orientation and pass its sign out;
  // even ones drop it (see CanonicalForms).
  bool symmetric = CanonicalForms::is_odd(name) || CanonicalForms::is_even(name);
  std::string code = it->second + "(";
  for (size_t i = 0; i < f.nops(); ++i) {
    code += (i ? ", " : "") + (i == 0 && symmetric ? emit_positive(f.op(i)) : emit(f.op(i)));
  }
  ++operations_;
  return code + ")";
}

// Conditional expressions as C++ conditional operators, relations and logical operators. Each is
// parenthesised, so that it needs no temporary to be an operand. A shared condition or branch is
// computed once into a temporary (a relation's temporary holds 1 or 0): both branches may be
// computed before the choice, but only the chosen one reaches the result.
std::string ExpressionCompiler::emit_condition(const ex& e) {
  std::string name = ex_to<GiNaC::function>(e).get_name();
  ++operations_;
  if (is_if(e)) return "(" + emit(e.op(0)) + " ? " + emit(e.op(1)) + " : " + emit(e.op(2)) + ")";
  if (name == "daec_not") return "(!" + emit(e.op(0)) + ")";
  std::string op = name == "daec_and" ? "&&" : name == "daec_or" ? "||" : "";
  RelationKind kind;
  if (relation_kind_of(name, kind)) {
    op = kind == RelationKind::Equal      ? "=="
         : kind == RelationKind::NotEqual ? "!="
                                          : relation_spelling(kind);
  }
  // A numbered condition follows its mode (the symbol code of the relation, e.g. p[3]) once the
  // mode is set: -1 follows the live value, 0 is false, 1 true (model_declaration.h.in). A
  // settled mode is never -1 where it is read (kSettledMode).
  auto mode = symbols_.find(e);
  if (mode != symbols_.end() && mode->second.rfind(kSettledMode, 0) == 0)
    return "(" + mode->second.substr(std::string(kSettledMode).size()) + " > 0.0)";
  std::string live = "(" + emit(e.op(0)) + " " + op + " " + emit(e.op(1)) + ")";
  if (mode == symbols_.end()) return live;
  return "(" + mode->second + " < 0.0 ? " + live + " : " + mode->second + " > 0.0)";
}

}  // namespace daec
