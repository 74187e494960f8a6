// Printing GiNaC expressions back in .dae syntax. Reports, --check, the generated code's comments
// and the round-trip tests use it, so its output must parse to the same expression.
#pragma once

#include <string>

#include <ginac/ginac.h>

namespace daec {

/// `e` in .dae syntax with the fewest parentheses that keep its meaning: `-x^2`, `a/(b*c)`,
/// `sqrt(x)`, `pi`. Exact rationals print as quotients (`981/100`), floating values with 17
/// significant digits.
std::string to_dae(const GiNaC::ex& e);

/// `text` as a double-quoted .dae string literal, with `"` and `\` escaped.
std::string quote_dae_string(const std::string& text);

}  // namespace daec
