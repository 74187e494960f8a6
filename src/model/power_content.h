// The content of a sum taken out of its power, put back. GiNaC writes an integer power of a sum
// with fractional coefficients as the power of the sum with integer ones times a constant:
// (1 + x/1000)^200 is 10^-600*(x + 1000)^200, whose coefficient no double holds (and whose power
// overflows wherever x > -965) although the power as written is harmless. Where a product's
// constant is beyond a double, the generated code computes such a power as (k*S)^m with the
// constant divided by k^m (codegen/expression_code.cpp), and the front end's check of the
// constants an equation combines (frontend/constants.h) accepts what is computed that way.
#pragma once

#include <cstddef>
#include <optional>

#include <ginac/ginac.h>

namespace daec {

/// A product c*...*S^m computed as (c/k^m)*...*(k*S)^m.
struct ContentInPower {
  size_t factor = 0;    ///< the index in the product's operands of the power S^m
  GiNaC::ex scaled;     ///< k*S, a sum (k > 0)
  GiNaC::numeric rest;  ///< |c|/k^m, within the range of a double
};

/// For a product whose operands are `factors` and whose constant has the magnitude `coefficient`
/// (beyond the range of a double): a power S^m among them (S a sum, m an integer, |m| >= 2) and k
/// that leave every constant of the product within the range of a double: k = |c|^(1/m) where it
/// is a fraction (GiNaC's own content, as the model wrote it), else a power of ten. The powers of
/// highest |m| are tried first, in the order of `factors`; nullopt if none does.
std::optional<ContentInPower> content_into_power(const GiNaC::numeric& coefficient,
                                                 const GiNaC::exvector& factors);

}  // namespace daec
