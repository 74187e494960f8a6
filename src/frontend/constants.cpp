// Exact constants: literals, guarded substitution and evaluation of parameter values.
#include "frontend/constants.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include "model/conditions.h"
#include "model/evaluation.h"
#include "model/expression_printer.h"
#include "model/expression_walk.h"
#include "model/power_content.h"

namespace daec {

using GiNaC::ex;

double numeric_bits(const GiNaC::numeric& n) {
  if (!n.is_crational() || n.is_zero() || (n * n).is_equal(1) || (n * n).is_equal(-1)) return 0;
  auto bits = [](const GiNaC::numeric& r) {
    return static_cast<double>(std::max(r.numer().int_length(), r.denom().int_length()));
  };
  return std::max(bits(n.real()), bits(n.imag()));
}

namespace {

// |re| + |im| of a number, as a double (infinite if it is huge).
double magnitude(const GiNaC::numeric& n) {
  return std::fabs(n.real().to_double()) + std::fabs(n.imag().to_double());
}

// How many bits of exact numbers GiNaC computes, per unit of a numeric exponent, when it raises
// `base` to that power: it evaluates numeric bases, distributes over products ((2x)^n = 2^n x^n),
// multiplies nested exponents (sqrt(2)^n = 2^(n/2)) and takes out the integer content of sums
// ((2x+2)^n = 2^n (x+1)^n). Functions stay unevaluated.
double exact_power_bits(const ex& base) {
  if (GiNaC::is_exactly_a<GiNaC::numeric>(base)) {
    return numeric_bits(GiNaC::ex_to<GiNaC::numeric>(base));
  }
  if (GiNaC::is_exactly_a<GiNaC::power>(base) && GiNaC::is_exactly_a<GiNaC::numeric>(base.op(1))) {
    return exact_power_bits(base.op(0)) * magnitude(GiNaC::ex_to<GiNaC::numeric>(base.op(1)));
  }
  if (GiNaC::is_exactly_a<GiNaC::add>(base)) return numeric_bits(base.integer_content());
  double bits = 0;
  if (GiNaC::is_exactly_a<GiNaC::mul>(base)) {
    for (size_t i = 0; i < base.nops(); ++i) bits += exact_power_bits(base.op(i));
  }
  return bits;
}

// ex::subs with every power size-checked: substituting parameter values makes exponents numeric
// (`parameter a = 10^10, b = 10^a;`). Powers and functions are checked for the arguments GiNaC
// would throw at (`parameter a = 0, b = 1/a;`); a decided condition substitutes only the branch
// it selects (`if a > 0 then 1/a else 0` at a = 0).
class ValueSubstitution : public GiNaC::map_function {
 public:
  explicit ValueSubstitution(const GiNaC::exmap& values) : values_(values) {}
  ex operator()(const ex& e) override {
    if (GiNaC::is_a<GiNaC::symbol>(e)) {
      auto it = values_.find(e);
      return it == values_.end() ? e : it->second;
    }
    if (GiNaC::is_exactly_a<GiNaC::power>(e)) {
      ex base = (*this)(e.op(0));
      ex exponent = (*this)(e.op(1));
      check_defined("pow", {base, exponent});
      check_power_size(base, exponent);
      return GiNaC::pow(base, exponent);
    }
    if (is_if(e)) {
      ex condition = (*this)(e.op(0));
      bool value;
      if (decided_condition(condition, value)) return (*this)(e.op(value ? 1 : 2));
      return daec_if(condition, (*this)(e.op(1)), (*this)(e.op(2)));
    }
    if (GiNaC::is_exactly_a<GiNaC::function>(e)) {
      const GiNaC::function& call = GiNaC::ex_to<GiNaC::function>(e);
      GiNaC::exvector args;
      for (size_t i = 0; i < e.nops(); ++i) args.push_back((*this)(e.op(i)));
      check_defined(call.get_name(), args);
      return GiNaC::function(call.get_serial(), args);
    }
    GiNaC::exvector operands;  // first, then the node: nothing may throw inside GiNaC
    for (size_t i = 0; i < e.nops(); ++i) operands.push_back((*this)(e.op(i)));
    return with_operands(e, operands);
  }

 private:
  const GiNaC::exmap& values_;
};

// The exponent of a number literal ("-05", "+3", "12"). The lexer checked that the value fits a
// double, so only an absurdly long mantissa can go with an exponent beyond 12 digits.
long parse_exponent(std::string written) {
  bool negative = !written.empty() && written[0] == '-';
  if (!written.empty() && (written[0] == '-' || written[0] == '+')) written.erase(0, 1);
  written.erase(0, std::min(written.find_first_not_of('0'), written.size()));
  if (written.size() > 12) throw ConstantTooLarge();
  long value = written.empty() ? 0 : std::stol(written);
  return negative ? -value : value;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

void check_power_size(const ex& base, const ex& exponent) {
  if (!GiNaC::is_exactly_a<GiNaC::numeric>(exponent)) return;
  double size = exact_power_bits(base) * magnitude(GiNaC::ex_to<GiNaC::numeric>(exponent));
  if (size > kMaxConstantBits) throw ConstantTooLarge();
}

// The sign of a constant `e` (no symbols): -1, 0 or 1; 2 when it is not a real constant or cannot
// be evaluated.
static int constant_sign(const ex& e) {
  if (e.is_zero()) return 0;
  bool symbolic = false;
  for_each_node(e, [&](const GiNaC::basic& node) {
    symbolic = symbolic || GiNaC::is_a<GiNaC::symbol>(node);
    return !symbolic;
  });
  if (symbolic) return 2;
  try {
    ex value = e.evalf();
    if (!GiNaC::is_exactly_a<GiNaC::numeric>(value)) return 2;
    const GiNaC::numeric& n = GiNaC::ex_to<GiNaC::numeric>(value);
    if (!n.is_real()) return 2;
    return n.is_zero() ? 0 : n.is_negative() ? -1 : 1;
  } catch (const std::exception&) {
    return 2;
  }
}

void check_variable_power(const ex& base, const ex& exponent) {
  if (GiNaC::is_exactly_a<GiNaC::numeric>(exponent)) return;
  int sign = constant_sign(base);
  if (sign == 0) {
    throw PowerWithoutRealValue(
        "0 raised to an exponent that is not a number is undefined where the exponent is not "
        "positive, and its derivative holds log(0) (write the value it stands for, e.g. with if)");
  }
  if (sign < 0) {
    throw PowerWithoutRealValue("a negative base (" + to_dae(base) +
                                ") raised to an exponent that is not a number is not real except "
                                "at integer exponents, and its derivative holds the logarithm of "
                                "a negative number (use abs() or write the sign apart)");
  }
}

bool is_number_literal(const std::string& text) {
  size_t i = text.empty() || (text[0] != '-' && text[0] != '+') ? 0 : 1;
  size_t digits = 0;
  while (i < text.size() && is_digit(text[i])) ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && is_digit(text[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < text.size() && is_digit(text[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  return i == text.size();
}

// Decimal literals become exact rationals, so that symbolic rank decisions are exact.
ex exact_number(const std::string& written) {
  bool negative = !written.empty() && written[0] == '-';
  std::string text =
      !written.empty() && (written[0] == '-' || written[0] == '+') ? written.substr(1) : written;
  size_t exponent_at = text.find_first_of("eE");
  std::string digits = text.substr(0, exponent_at);
  size_t point = digits.find('.');
  long fraction_digits = 0;
  if (point != std::string::npos) {
    fraction_digits = static_cast<long>(digits.size() - point - 1);
    digits.erase(point, 1);
  }
  // Zero first: 0e99999999999999999999 is a valid zero whose exponent fits no integer type.
  size_t first_nonzero = digits.find_first_not_of('0');
  if (first_nonzero == std::string::npos) return 0;
  digits.erase(0, first_nonzero);
  long exponent = -fraction_digits;
  if (exponent_at != std::string::npos) exponent += parse_exponent(text.substr(exponent_at + 1));
  GiNaC::numeric value(digits.c_str());
  GiNaC::numeric scale = GiNaC::pow(GiNaC::numeric(10), GiNaC::numeric(std::labs(exponent)));
  ex result = exponent >= 0 ? value * scale : value / scale;
  return negative ? -result : result;
}

ex substitute_values(const ex& value, const GiNaC::exmap& values) {
  ValueSubstitution substitution(values);
  return substitution(value);
}

std::string describe_failure(const std::exception& e, std::string& detail) {
  if (dynamic_cast<const ConstantTooLarge*>(&e)) return e.what();
  if (dynamic_cast<const PowerWithoutRealValue*>(&e)) return e.what();
  detail = e.what();
  if (detail.find("division by zero") != std::string::npos) return "division by zero";
  size_t prefix_end = detail.find("(): ");
  if (prefix_end != std::string::npos) detail.erase(0, prefix_end + 4);
  return {};
}

// The substitution is inside the try: it evaluates, so it can divide by zero
// (`parameter a = 0, b = 1/a;`).
std::optional<std::string> to_finite_double(const ex& value, const GiNaC::exmap& values,
                                            double& out, ex* exact) {
  try {
    ex substituted = substitute_values(value, values);
    if (exact) *exact = substituted;
    ex numeric_value = evaluate_bounded(substituted);
    if (!GiNaC::is_a<GiNaC::numeric>(numeric_value)) return "it is not a constant";
    const GiNaC::numeric& number = GiNaC::ex_to<GiNaC::numeric>(numeric_value);
    if (!number.is_real()) return "it is not a real number";
    std::string beyond = beyond_double(number);
    if (!beyond.empty()) return beyond;
    out = nearest_double(number);
    return std::nullopt;
  } catch (const ValueOutOfRange& e) {
    return e.what();
  } catch (const std::exception& e) {
    std::string detail;
    std::string problem = describe_failure(e, detail);
    return problem.empty() ? "it is undefined (" + detail + ")" : problem;
  }
}

// The constant of a product that the generated code puts into a power of a sum is not computed
// (model/power_content.h): (1 + x/1000)^200 is 10^-600*(x + 1000)^200 to GiNaC, computed as
// (0.001*x + 1)^200.
std::string number_beyond_double(const ex& e) {
  std::vector<ex> pending{e};
  while (!pending.empty()) {
    ex node = std::move(pending.back());
    pending.pop_back();
    if (GiNaC::is_a<GiNaC::numeric>(node)) {
      std::string beyond = beyond_double(GiNaC::ex_to<GiNaC::numeric>(node));
      if (!beyond.empty()) return beyond;
      continue;
    }
    GiNaC::exvector operands(node.begin(), node.end());
    if (GiNaC::is_exactly_a<GiNaC::mul>(node)) {
      GiNaC::numeric coefficient = 1;
      for (const ex& operand : operands) {
        if (GiNaC::is_a<GiNaC::numeric>(operand))
          coefficient *= GiNaC::ex_to<GiNaC::numeric>(operand);
      }
      if (!beyond_double(coefficient).empty() && content_into_power(coefficient, operands)) {
        for (const ex& operand : operands)
          if (!GiNaC::is_a<GiNaC::numeric>(operand)) pending.push_back(operand);
        continue;
      }
    }
    pending.insert(pending.end(), operands.begin(), operands.end());
  }
  return {};
}

bool has_imaginary_part(const ex& e) {
  auto imaginary = [](const ex& x) {
    return GiNaC::is_exactly_a<GiNaC::numeric>(x) && !GiNaC::ex_to<GiNaC::numeric>(x).is_real();
  };
  if (imaginary(e)) return true;
  for (size_t i = 0; i < e.nops(); ++i) {
    if (imaginary(e.op(i))) return true;
  }
  return false;
}

}  // namespace daec
