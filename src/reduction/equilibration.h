// Row and column scaling of a matrix of numbers before a rank decision. A pivot is "zero" when it
// is small relative to the matrix; without scaling, that judgement depends on the units a model
// is written in (a row of capacitances in farads, 1e-12, looks like zeros next to a row of ones).
// Scaled so that every row and column has largest magnitude about one, the decision is the same
// for every choice of units: multiplying an equation or an unknown by a constant changes nothing.
#pragma once

#include <cstddef>
#include <vector>

#include "reduction/numeric_rank.h"

namespace daec {

/// Scales rows and columns in place (Ruiz's iteration, by powers of two so that no digit is
/// lost) until each nonzero row's and column's largest magnitude lies in [1/2, 2]. Zero rows and
/// columns stay zero.
void equilibrate(std::vector<NumericRow>& rows, size_t columns);

/// The same for a dense matrix (rows of equal length).
void equilibrate(std::vector<std::vector<double>>& dense);

/// Below this fraction of the largest entry of its row or its column, a nonzero entry is either
/// a coefficient in other units (1e-12 F next to 1 ohm) or the rounding left of a cancellation
/// (1e-20 where the exact value is 0): doubles cannot tell them apart, and scaling would make the
/// rounding as large as any entry. Decisions on such a matrix are taken with many digits.
constexpr double kTinyEntry = 1e-12;

/// Whether some nonzero entry is tiny in that sense.
bool has_tiny_entries(const std::vector<NumericRow>& rows, size_t columns);
bool has_tiny_entries(const std::vector<std::vector<double>>& dense);

}  // namespace daec
