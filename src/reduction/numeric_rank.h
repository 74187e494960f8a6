// The numerical rank of a sparse matrix of numbers, by Gaussian elimination that only touches the
// entries that are there: what the generic rank of a symbolic matrix (its rank at random points)
// and the check of the start values need, for matrices with tens of thousands of rows.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include <ginac/ginac.h>

namespace daec {

/// One row of a sparse matrix: (column, value) pairs in any order, each column at most once.
using NumericRow = std::vector<std::pair<int, double>>;
/// The same with values to many digits (reduction/symbolic.h, evaluate_precisely).
using PreciseRow = std::vector<std::pair<int, GiNaC::numeric>>;

struct RankDecision {
  int rank = 0;
  /// Some pivot lay between what doubles tell apart from zero with confidence (between 1e-14 and
  /// 1e-6 of the scaled matrix), or some entry was tiny next to its row or column
  /// (reduction/equilibration.h): the rank should be settled with more digits (precise_rank).
  bool close_call = false;
};

/// The numerical rank of the matrix with these rows and `columns` columns (rows may be empty):
/// the number of pivots larger than 1e-10 * max |a_ij| * max(rows, columns) that elimination
/// finds, after scaling rows and columns (reduction/equilibration.h), so that the rank does not
/// depend on the units of the equations or the unknowns. Pivots are chosen column by column, the
/// column with the fewest entries left first and in it, among the entries at least a tenth of
/// the column's largest, the one whose row is shortest (threshold partial pivoting with a
/// Markowitz-like order, which keeps the fill of banded and block-structured matrices linear).
/// Deterministic: ties go to the lower index.
RankDecision decide_rank(const std::vector<NumericRow>& rows, size_t columns);

/// decide_rank(...).rank.
int numeric_rank(const std::vector<NumericRow>& rows, size_t columns);

/// The rank of a matrix of many-digit values, by the same elimination, with pivots below
/// 1e-40 * max |a_ij| taken for zero: far below any ratio of units, far above the rounding of
/// kPreciseDigits digits.
int precise_rank(const std::vector<PreciseRow>& rows, size_t columns);

}  // namespace daec
