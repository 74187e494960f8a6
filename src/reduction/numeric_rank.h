// The numerical rank of a sparse matrix of numbers, by Gaussian elimination that only touches the
// entries that are there: what the generic rank of a symbolic matrix (its rank at random points)
// and the check of the start values need, for matrices with tens of thousands of rows.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace daec {

/// One row of a sparse matrix: (column, value) pairs in any order, each column at most once.
using NumericRow = std::vector<std::pair<int, double>>;

/// The numerical rank of the matrix with these rows and `columns` columns (rows may be empty):
/// the number of pivots larger than 1e-10 * max |a_ij| * max(rows, columns) that elimination
/// finds. Pivots are chosen column by column, the column with the fewest entries left first and
/// in it, among the entries at least a tenth of the column's largest, the one whose row is
/// shortest (threshold partial pivoting with a Markowitz-like order, which keeps the fill of
/// banded and block-structured matrices linear). Deterministic: ties go to the lower index.
int numeric_rank(const std::vector<NumericRow>& rows, size_t columns);

}  // namespace daec
