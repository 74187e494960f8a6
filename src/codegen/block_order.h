// The order of the blocks of A's block lower-triangular form in the generated code. The form
// lists blocks that do not depend on each other in the order its search met them, which follows
// the model's declarations; the generated solve lays out each block's factors and operations in
// that order, and the column loop of the rhs Jacobian, which visits the states in locality order,
// then reached blocks far apart in memory for a shuffled model (docs/generated-code.md, "Large
// models"). This order keeps the blocks that read the same states together instead.
#pragma once

#include <vector>

#include "structure/block_triangular.h"
#include "structure/sparsity.h"

namespace daec {

/// `form` with its blocks reordered, each block's rows and columns as they were: a topological
/// order of the blocks (every block after the blocks its rows of `a` refer to, as a lower-
/// triangular form needs) that takes, of the blocks free to come next, the one first in the
/// locality order (locality_order.h) of the blocks over the states their rows read
/// (`row_uses[r]`: the states row r of `a` reads; a state read by more than `hub_limit` blocks
/// links none).
BlockTriangularForm blocks_in_locality_order(const SparsityPattern& a,
                                             const BlockTriangularForm& form,
                                             const std::vector<std::vector<int>>& row_uses,
                                             size_t hub_limit);

}  // namespace daec
