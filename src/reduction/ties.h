// Pivot choices that do not depend on rounding: magnitudes equal up to it are ties, settled by
// position. The values the reduction decides on are evaluated from GiNaC expressions whose sums
// and products hold their terms in the order of GiNaC's hashes, and those hashes start from the
// addresses of type names, which move from run to run (address-space layout randomisation). So
// two entries equal in exact arithmetic (a symmetric circuit, a pendulum's links) differ in their
// last digits differently in each run: a pivot taken as "the largest" among them picked another
// combination of constraints, and other generated code, for the same model (docs/testing.md,
// "Determinism").
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include <ginac/ginac.h>

namespace daec {

/// Two magnitudes closer than this fraction of the larger are a tie: far above the rounding of
/// the evaluations (doubles, or kPreciseDigits digits: reduction/symbolic.h), far below any
/// difference a pivot choice should follow. With many digits an exact rational: CLN gives a
/// product of a double and a long float the double's precision, which would end the tie test
/// at 17 digits.
template <typename T>
T tie_fraction();
template <>
inline double tie_fraction<double>() {
  return 1e-8;
}
template <>
inline GiNaC::numeric tie_fraction<GiNaC::numeric>() {
  return GiNaC::numeric(1, 1000000000) * GiNaC::numeric(1, 1000000000) *
         GiNaC::numeric(1, 1000000000000);
}

/// |v|, for the two number types the reduction decides in (doubles, and many digits).
inline double magnitude(double v) {
  return std::fabs(v);
}
inline GiNaC::numeric magnitude(const GiNaC::numeric& v) {
  return GiNaC::abs(v);
}

/// Whether `size` ties with (or exceeds) `largest`, the largest magnitude among the candidates.
template <typename T>
bool ties_with_largest(const T& size, const T& largest) {
  return size >= largest - tie_fraction<T>() * largest;
}

/// The first open position (`open[i]`) of `values` whose magnitude ties with the largest among
/// the open ones; the first open position if they are all zero, `values.size()` if none is open.
template <typename T>
size_t first_of_largest(const std::vector<T>& values, const std::vector<bool>& open) {
  T largest = 0;
  size_t first_open = values.size();
  for (size_t i = 0; i < values.size(); ++i) {
    if (!open[i]) continue;
    if (first_open == values.size()) first_open = i;
    if (magnitude(values[i]) > largest) largest = magnitude(values[i]);
  }
  for (size_t i = 0; i < values.size(); ++i)
    if (open[i] && largest > 0 && ties_with_largest(magnitude(values[i]), largest)) return i;
  return first_open;
}

/// The first position of `values` whose magnitude ties with the largest (0 if `values` is all
/// zero, `values.size()` if it is empty).
template <typename T>
size_t first_of_largest(const std::vector<T>& values) {
  return first_of_largest(values, std::vector<bool>(values.size(), true));
}

}  // namespace daec
