// Dulmage–Mendelsohn decomposition of a sparsity pattern (MATLAB's dmperm): which equations are
// over-determined, which unknowns under-determined, and the irreducible blocks of the rest.
#pragma once

#include <vector>

#include "structure/block_triangular.h"
#include "structure/matching.h"
#include "structure/sparsity.h"

namespace daec {

/// The coarse and fine Dulmage–Mendelsohn decomposition of a pattern of equations (rows) against
/// unknowns (columns). The coarse parts do not depend on which maximum matching is used:
///
/// - over-determined: the rows reachable by alternating paths from unmatched rows (the rows some
///   maximum matching leaves unmatched), and their columns. More rows than columns unless empty;
///   these rows have entries only in these columns.
/// - under-determined: the columns reachable by alternating paths from unmatched columns (the
///   columns some maximum matching leaves unmatched), and their rows. More columns than rows
///   unless empty; no other row has an entry in these columns.
/// - well-determined: the rest, square and perfectly matched, split further into irreducible
///   blocks in block lower-triangular order (`well_blocks`).
///
/// All lists of rows and columns are sorted by original index.
struct DulmageMendelsohn {
  Matching matching;  ///< the maximum matching the orders are built on
  int structural_rank = 0;

  std::vector<int> over_rows, over_cols;
  std::vector<int> well_rows, well_cols;
  std::vector<int> under_rows, under_cols;

  /// The fine decomposition of the well-determined part, in original row and column indices.
  BlockTriangularForm well_blocks;

  /// Row and column orders (MATLAB's p and q): pattern.permuted(row_order, col_order) is block
  /// lower triangular with the parts in the order over, well (its blocks in order), under. Rows
  /// go unmatched rows, matched over rows, well rows, under rows; columns go over columns, well
  /// columns, matched under columns, unmatched columns. So the k-th matched pair sits at
  /// (unmatched rows + k, k): on the diagonal when no row is unmatched.
  std::vector<int> row_order, col_order;

  int unmatched_rows() const { return static_cast<int>(row_order.size()) - structural_rank; }
  int unmatched_cols() const { return static_cast<int>(col_order.size()) - structural_rank; }
};

/// The decomposition, computing a maximum matching.
DulmageMendelsohn dulmage_mendelsohn(const SparsityPattern& pattern);

/// The decomposition built on a given maximum matching. Throws std::invalid_argument if it is not
/// a valid matching of the pattern or not maximum.
DulmageMendelsohn dulmage_mendelsohn(const SparsityPattern& pattern, const Matching& maximum);

}  // namespace daec
