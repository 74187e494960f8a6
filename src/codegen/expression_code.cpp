// The expression compiler: common subexpression elimination and C++ text for GiNaC trees.
#include "codegen/expression_code.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "model/functions.h"
#include "model/printer.h"

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

const std::string& ExpressionCompiler::sort_key(const ex& e) {
  auto it = sort_keys_.find(e);
  if (it == sort_keys_.end()) it = sort_keys_.emplace(e, to_dae(e)).first;
  return it->second;
}

std::vector<ex> ExpressionCompiler::ordered_operands(const ex& e) {
  std::vector<ex> operands(e.begin(), e.end());
  std::stable_sort(operands.begin(), operands.end(), [&](const ex& a, const ex& b) {
    bool a_number = is_a<numeric>(a), b_number = is_a<numeric>(b);
    if (a_number != b_number) return b_number;  // numbers last in sums, coefficients apart
    return sort_key(a) < sort_key(b);
  });
  return operands;
}

// Counts how often each compound subexpression is used; children are visited on the first use
// only, so that a shared subtree counts its own children once.
void ExpressionCompiler::count_uses(const ex& e) {
  if (is_leaf(e)) return;
  if (uses_[e]++ > 0) return;
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

std::string ExpressionCompiler::emit(const ex& e) {
  auto it = emitted_.find(e);
  if (it != emitted_.end()) return it->second;
  std::string code = emit_uncached(e);
  auto uses = uses_.find(e);
  if (uses != uses_.end() && uses->second > 1) code = bind(code);
  emitted_[e] = code;
  return code;
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

std::string ExpressionCompiler::emit_uncached(const ex& e) {
  if (is_a<numeric>(e)) {
    const numeric& n = ex_to<numeric>(e);
    if (!n.is_real()) throw std::invalid_argument("complex constant in generated code");
    return double_literal(n.to_double());
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

std::string ExpressionCompiler::emit_sum(const ex& e) {
  std::string code;
  std::vector<ex> terms = ordered_operands(e);
  for (size_t i = 0; i < terms.size(); ++i) {
    const ex& term = terms[i];
    bool negative = (is_a<numeric>(term) && ex_to<numeric>(term).is_negative()) ||
                    (is_a<GiNaC::mul>(term) && is_a<numeric>(term.op(term.nops() - 1)) &&
                     ex_to<numeric>(term.op(term.nops() - 1)).is_negative());
    std::string text = emit(negative ? ex(-term) : term);
    if (i > 0) ++operations_;
    if (i == 0) {
      code = negative ? "-" + parenthesize(text) : text;
    } else {
      code += (negative ? " - " : " + ") + (negative ? parenthesize(text) : text);
    }
  }
  return code;
}

std::string ExpressionCompiler::emit_product(const ex& e) {
  numeric coefficient = 1;
  std::vector<std::string> numerator, denominator;
  for (const ex& factor : ordered_operands(e)) {
    if (is_a<numeric>(factor)) {
      coefficient *= ex_to<numeric>(factor);
    } else if (is_a<GiNaC::power>(factor) && is_a<numeric>(factor.op(1)) &&
               ex_to<numeric>(factor.op(1)).is_negative()) {
      denominator.push_back(emit(GiNaC::pow(factor.op(0), -factor.op(1))));
    } else {
      numerator.push_back(emit(factor));
    }
  }
  bool negative = coefficient.is_negative();
  if (negative) coefficient = -coefficient;
  std::string code;
  if (!coefficient.is_equal(1) || numerator.empty()) code = double_literal(coefficient.to_double());
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
  return negative ? "-" + parenthesize(code) : code;
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

std::string ExpressionCompiler::emit_power(const ex& base, const ex& exponent) {
  if (is_a<numeric>(exponent) && ex_to<numeric>(exponent).is_rational()) {
    const numeric& n = ex_to<numeric>(exponent);
    numeric twice = n * 2;
    bool negative = n.is_negative();
    if (twice.is_integer() && GiNaC::abs(twice) <= 64) {
      long half_steps = std::labs(twice.to_long());
      std::string b = parenthesize(emit(base));
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
  if (name == "conjugate" && f.nops() == 1) return emit(f.op(0));
  static const std::map<std::string, std::string> kCxx = {
      {"sin", "std::sin"},   {"cos", "std::cos"},   {"tan", "std::tan"},     {"asin", "std::asin"},
      {"acos", "std::acos"}, {"atan", "std::atan"}, {"atan2", "std::atan2"}, {"sinh", "std::sinh"},
      {"cosh", "std::cosh"}, {"tanh", "std::tanh"}, {"exp", "std::exp"},     {"log", "std::log"},
      {"abs", "std::fabs"},  {"sign", "daec_sign"},
  };
  auto it = kCxx.find(name);
  if (it == kCxx.end()) throw std::invalid_argument("no C++ for function " + name);
  std::string code = it->second + "(";
  for (size_t i = 0; i < f.nops(); ++i) code += (i ? ", " : "") + emit(f.op(i));
  ++operations_;
  return code + ")";
}

}  // namespace daec
