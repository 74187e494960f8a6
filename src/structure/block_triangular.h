// Block lower-triangular form of a square, structurally nonsingular pattern (docs/method.md §7):
// the order in which a solver can take the equations, one irreducible block at a time.
#pragma once

#include <vector>

#include "structure/matching.h"
#include "structure/sparsity.h"

namespace daec {

/// Row and column orders that put a pattern in block lower-triangular form.
///
/// Position i pairs row `row_order[i]` with its matched column `col_order[i]`, so the matched
/// entries lie on the diagonal of `pattern.permuted(row_order, col_order)`. Block b covers
/// positions block_start[b] .. block_start[b + 1] - 1 of both orders. Every block is irreducible
/// (no finer ordering splits it) and every entry outside the diagonal blocks lies below them:
/// the equations of block b use only unknowns of blocks 0 .. b, so a solver solves block 0,
/// then block 1 with block 0's unknowns known, and so on. Within a block, rows are in increasing
/// original order.
struct BlockTriangularForm {
  std::vector<int> row_order;
  std::vector<int> col_order;
  std::vector<int> block_start{0};

  int block_count() const { return static_cast<int>(block_start.size()) - 1; }
  int block_size(int b) const { return block_start[b + 1] - block_start[b]; }
};

/// The block each position of `form` (an index into row_order and col_order) belongs to.
std::vector<int> block_of_positions(const BlockTriangularForm& form);

/// The block lower-triangular form of a square pattern from a perfect matching of it, by
/// Tarjan's strongly-connected-components algorithm (iterative, O(V + E)) on the graph where row
/// r points to the row matched to each column of r. Throws std::invalid_argument if the pattern
/// is not square or `perfect` is not a perfect matching of it.
BlockTriangularForm block_triangular_form(const SparsityPattern& pattern, const Matching& perfect);

/// The same, computing the matching; throws std::invalid_argument if the pattern is not square or
/// is structurally singular (use dulmage_mendelsohn() for those).
BlockTriangularForm block_triangular_form(const SparsityPattern& pattern);

}  // namespace daec
