// The numbers of the simulator's command line (docs/simulator.md, "Command line"): decimal, as
// daec's -D takes them, and finite in a double. Shared by the options and the --output-times list.
#pragma once

#include <cmath>
#include <cstdlib>
#include <string>

#include <daec/simulator/failure.hpp>

namespace daec::simulator {

/// Whether `text` is a decimal number as daec's -D takes it: an optional sign, digits with an
/// optional point, an optional exponent (1000, -2.5, .5, 1e-3); no hexadecimal, no inf or nan,
/// no spaces.
inline bool is_decimal_number(const std::string& text) {
  auto digit = [&](size_t i) { return i < text.size() && text[i] >= '0' && text[i] <= '9'; };
  size_t i = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0, digits = 0;
  for (; digit(i); ++i) ++digits;
  if (i < text.size() && text[i] == '.')
    for (++i; digit(i); ++i) ++digits;
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    size_t exponent_digits = 0;
    for (; digit(i); ++i) ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  return i == text.size();
}

/// Strict number, the syntax of daec's -D: a decimal number (is_decimal_number) that a double
/// holds: finite, and not a nonzero number so small that it reads as 0.
inline double parse_number(const std::string& option, const std::string& text) {
  const double value = std::strtod(text.c_str(), nullptr);
  const bool zero_digits = text.find_first_of("123456789") >= text.find_first_of("eE");
  if (!is_decimal_number(text) || !std::isfinite(value) || (value == 0 && !zero_digits))
    usage_error("invalid number '" + text + "' for " + option +
                " (a decimal number that fits a double, such as 1000, -2.5 or 1e-3)");
  return value;
}

}  // namespace daec::simulator
