// The elimination plan of a sparse square system A Z = b in block lower-triangular form
// (docs/generated-code.md): the order of the pivots inside each block, which rows may hold each
// pivot, and the fill-in, all decided from A's pattern alone. At each pivot step every row that may
// be chosen as the pivot gets the union of the candidates' patterns (George and Ng's static bound
// for partial pivoting), so a factorisation following the plan stays correct whichever row the
// runtime pivot search picks; its length follows the fill-in: linear for banded blocks. Plain data
// in, plain data out: codegen/linear_solve emits the code that carries the plan out.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <utility>
#include <vector>

#include "structure/block_triangular.h"
#include "structure/sparsity.h"

namespace daec {

/// Positions are indices into the block triangular order: position i is row row_order[i] of A
/// (an equation) and column col_order[i] (an unknown); the matched entries lie on the diagonal.
struct PivotStep {
  int position = 0;             ///< the diagonal position eliminated at this step
  std::vector<int> candidates;  ///< positions that may hold the pivot; candidates[0] == position
  std::vector<int> columns;     ///< pattern of the pivot row right of `position` after the step
  bool fixed_pivot = false;     ///< the pivot is a nonzero number of A: no row exchange
  bool unit_pivot = false;      ///< ... and that number is 1: nothing to divide by
};

struct LinearSolvePlan {
  int size = 0;  ///< M
  BlockTriangularForm blocks;
  /// The entries stored in `a` (structural nonzeros of A and the fill-in), as (row position,
  /// column position), in row-major order; the index into this list is the storage index.
  std::vector<std::pair<int, int>> storage;
  std::vector<PivotStep> steps;  ///< in elimination order, block after block
  /// For each position, the positions of earlier blocks its row refers to (the off-diagonal
  /// blocks, subtracted before the block is solved).
  std::vector<std::vector<int>> earlier_columns;

  /// The storage index of (row position, column position); throws if it is not stored.
  int index(int row, int column) const;

 private:
  friend LinearSolvePlan plan_linear_solve(const SparsityPattern&, const BlockTriangularForm&,
                                           const SparsityPattern&, const SparsityPattern&);
  std::map<std::pair<int, int>, int> index_;
};

/// Plans the factorisation of a square matrix with pattern `a` (rows = equations, columns =
/// unknowns) in block lower-triangular form `form`. The plan's own `blocks` reorder the
/// positions inside each block (reverse Cuthill-McKee) to keep the fill-in small. `constant`
/// marks the entries that are nonzero numbers (the 1 of a dummy variable's defining equation):
/// where one is still on the diagonal when its step comes, it is the pivot, with no search and
/// no fill beyond the pivot row's pattern. `ones` marks those of them that are 1: such a pivot
/// needs no reciprocal and its multipliers no multiplication.
LinearSolvePlan plan_linear_solve(const SparsityPattern& a, const BlockTriangularForm& form,
                                  const SparsityPattern& constant = {},
                                  const SparsityPattern& ones = {});

/// Arithmetic operations of one factorisation plus one solve (what each rhs call spends).
std::size_t lu_operation_count(const LinearSolvePlan& plan);

/// solve_A as operations on r, block by block, for code that solves only some of the blocks (the
/// rhs Jacobian, column by column). Each operation {i, e, j} is r[i] -= a[e] * r[j] when e >= 0,
/// std::swap(r[i], r[pivot[i]]) when e == -1, and r[i] *= a[-2 - e] when e <= -2; the operations
/// of block b are ops[block_start[b]] to ops[block_start[b + 1] - 1]. Applied to every block in
/// order they compute what solve_A does, in the same order.
struct SolveOperations {
  std::vector<std::array<int, 3>> ops;
  std::vector<int> block_start{0};
};
SolveOperations solve_operations(const LinearSolvePlan& plan);

}  // namespace daec
