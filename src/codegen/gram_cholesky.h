// The sparse Cholesky factorisation of the Gram matrix G = H H^T (H = dh/dX, k x n) that the
// generated project and consistent_initialization solve in each Gauss-Newton step, planned at
// generation time from the pattern of H: a fill-reducing order of the constraints (minimum
// degree on the graph of G), the pattern of the factor L (G permuted = L L^T) and the products
// of entries of H that make up each entry of G. The generated code then forms and factors G by
// these tables, in time and memory that follow the nonzeros of L rather than k^2; its numerics
// (factor_gram, solve_gram) are templates/gram_cholesky.cpp.in, written out with the tables by
// gram_cholesky_code.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "codegen/jacobian_structure.h"

namespace daec {

struct GramPlan {
  int size = 0;            ///< k
  std::vector<int> order;  ///< order[i]: the constraint (row of H) eliminated i-th
  ColumnPattern factor;    ///< the lower triangle of L by columns, in the new order; the
                           ///< diagonal comes first in each column
  /// (entry of L, entry of H, entry of H): G's entry at that place of L gets the product of the
  /// two entries of H (indices into H's CSC values); one per pair of entries in a column of H.
  std::vector<std::array<int, 3>> products;
  /// For each column j of L, the entries L(j, c) with c < j, as (index of L(j, c), end of column
  /// c): left-looking factorisation updates column j with column c from row j down.
  std::vector<int> row_start{0};
  std::vector<std::array<int, 2>> row_entries;
};

/// The plan for G = H H^T with H's pattern `h` (k rows, n columns, by columns).
GramPlan plan_gram_cholesky(const ColumnPattern& h);

/// The generated code of the factorisation: the plan as namespace-scope tables (kGramOrder,
/// kGramStart, kGramRow, kGramProduct, kGramRowStart, kGramRowEntry and their sizes), then
/// factor_gram and solve_gram, which read them. The generated project and invariants_condition
/// call those two.
std::string gram_cholesky_code(const GramPlan& plan);

}  // namespace daec
