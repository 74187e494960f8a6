// The structure of the generated Jacobians (docs/generated-code.md), worked out at generation time
// from the patterns of the reduced system: which entries of d(X')/dX, of the residual's iteration
// matrix and of dh/dX can be nonzero, in compressed sparse columns, and which blocks of A's block
// triangular form each state reaches when Z = A^-1 b is differentiated.
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "codegen/linear_solve.h"
#include "structure/sparsity.h"

namespace daec {

/// A pattern by columns (CSC, 0-based, the layout of SUNDIALS' CSC_MAT): the rows of column j are
/// rowval[colptr[j]] .. rowval[colptr[j + 1] - 1], increasing.
struct ColumnPattern {
  int rows = 0;
  std::vector<int> colptr{0};
  std::vector<int> rowval;

  int cols() const { return static_cast<int>(colptr.size()) - 1; }
  int nonzeros() const { return static_cast<int>(rowval.size()); }
  /// The index of (row, column) in rowval, or -1 if it is not an entry.
  int find(int row, int column) const;
};

/// The columns of `pattern`.
ColumnPattern column_pattern(const SparsityPattern& pattern);

/// The patterns of the reduced system's derivative blocks, rows and columns as in the system
/// (states, algebraic unknowns and constraints in their order).
struct SystemPatterns {
  SparsityPattern F_X, F_Z, g_X, A, h_X;
};

/// d r / d(X, Z) + alpha d r / dX' for r = [X' - F(X, Z, t); g(X, Z, t)]: (n + m) x (n + m), with
/// the diagonal of the first n columns always present (alpha lands there).
ColumnPattern residual_iteration_pattern(const SystemPatterns& patterns);

/// How Z = A^-1 b depends on each state, through the block lower-triangular form of A.
struct AlgebraicReach {
  /// For each state j, the blocks that a change in x[j] can change (those whose rows of dg/dX
  /// hold j, and every block that depends on one of them), as runs [begin, end) of consecutive
  /// blocks in increasing order.
  std::vector<std::vector<std::pair<int, int>>> runs;
  /// Whether `runs` holds exactly the reached blocks (false: listing them would have taken more
  /// than the limit, and each state's run is every block from the first reached one on).
  bool exact = true;
};

/// `limit` bounds the work: the total number of reached blocks over all states.
AlgebraicReach algebraic_reach(const SystemPatterns& patterns, const LinearSolvePlan& plan,
                               size_t limit);

/// The pattern of d(X')/dX = dF/dX + dF/dZ dZ/dX, or nullopt if it has more than `limit` entries
/// (it is dense when A couples every unknown, as in a pendulum chain). `plan` and `reach` may be
/// null for a model without algebraic unknowns. The columns are those of patterns.F_X and
/// patterns.g_X: with the derivatives in p in their place, the pattern of d(X')/dp.
std::optional<ColumnPattern> rhs_jacobian_pattern(const SystemPatterns& patterns,
                                                  const LinearSolvePlan* plan,
                                                  const AlgebraicReach* reach, size_t limit);

}  // namespace daec
