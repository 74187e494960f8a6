// Exact constants of the front end: number literals as exact rationals, parameter values
// substituted and evaluated without letting GiNaC run away (10^10^10) or throw from inside its
// constructors, and the checks on the results (finite, real, within a double).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include <ginac/ginac.h>

namespace daec {

/// Exact constants beyond this many bits are refused: they only arise from inputs such as
/// 10^10^10 whose exact evaluation would not finish.
constexpr long kMaxConstantBits = 1 << 16;

/// Thrown before GiNaC is asked for a power whose exact value would exceed kMaxConstantBits.
struct ConstantTooLarge : std::runtime_error {
  ConstantTooLarge() : std::runtime_error("constant too large to compute exactly") {}
};

/// Bits of one exact number; 0 for numbers whose powers stay small (0, 1, -1, i, -i) and for
/// floating-point ones.
double numeric_bits(const GiNaC::numeric& n);

/// Throws ConstantTooLarge rather than let GiNaC compute base^exponent for a very long time
/// (10^10^10, sqrt(2)^(10^10)).
void check_power_size(const GiNaC::ex& base, const GiNaC::ex& exponent);

/// Thrown for a power that has no real value or no derivative: its message is the whole
/// diagnostic.
struct PowerWithoutRealValue : std::domain_error {
  using std::domain_error::domain_error;
};

/// Throws PowerWithoutRealValue for a constant base that is not positive raised to an exponent
/// that is not a number: (-2)^x is real only at integer x and 0^x is undefined at x <= 0, and the
/// derivative of either holds the logarithm of the base (log(-2) = log 2 + i pi, log 0), which
/// no real formula in the Jacobians could carry.
void check_variable_power(const GiNaC::ex& base, const GiNaC::ex& exponent);

/// The exact value of a number literal as the lexer accepts it (`2`, `0.5`, `1e-3`), optionally
/// signed (`-2.5`, for -D). Throws ConstantTooLarge for exponents no computation could use.
GiNaC::ex exact_number(const std::string& text);

/// Whether `text` is a number literal, optionally signed: what -D accepts as a value.
bool is_number_literal(const std::string& text);

/// `value` with the exact `values` of parameters substituted, evaluated where that is safe:
/// powers are size-checked, and only the branch a decided condition selects is substituted.
GiNaC::ex substitute_values(const GiNaC::ex& value, const GiNaC::exmap& values);

/// Converts `value`, with the exact parameter `values` substituted, to a finite double in `out`,
/// or returns why it cannot be ("it is not a constant", "division by zero", ...). `exact`, if
/// given, receives the substituted exact value.
std::optional<std::string> to_finite_double(const GiNaC::ex& value, const GiNaC::exmap& values,
                                            double& out, GiNaC::ex* exact = nullptr);

/// The message for an exception thrown while building or evaluating a constant, if it has a
/// plain one; otherwise returns "" and sets `detail` to GiNaC's text without its prefix.
std::string describe_failure(const std::exception& e, std::string& detail);

/// Why `e` holds a number no double can stand for (sema computes with literals exactly, so
/// `1e308*1e308*x` is 1e616*x and `10^-400*x` is not 0), as beyond_double words it; "" if none.
std::string number_beyond_double(const GiNaC::ex& e);

/// Whether the evaluation of the node `e` produced an imaginary number: `e` itself or one of its
/// direct operands (sqrt(-4) is 2*I, log(-1) is I*pi); its operands were checked before.
bool has_imaginary_part(const GiNaC::ex& e);

}  // namespace daec
