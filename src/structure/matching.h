// Maximum bipartite matching between the rows and the columns of a sparsity pattern
// (Hopcroft–Karp), and the structural rank it gives (docs/method.md §5, MATLAB's sprank).
#pragma once

#include <vector>

#include "structure/sparsity.h"

namespace daec {

/// Marks a row or column that a matching leaves unmatched.
constexpr int kUnmatched = -1;

/// Entries of a pattern no two of which share a row or a column: in a matrix of equations
/// (rows) against unknowns (columns), which equation determines which unknown.
struct Matching {
  std::vector<int> row_to_col;  ///< the column matched to each row, or kUnmatched
  std::vector<int> col_to_row;  ///< the row matched to each column, or kUnmatched
  int size = 0;                 ///< the number of matched pairs
};

/// A maximum matching, by Hopcroft–Karp: O(E √V) time, O(V) extra memory, no recursion (so
/// patterns with millions of rows are fine). The same pattern always gives the same matching.
Matching maximum_matching(const SparsityPattern& pattern);

/// The size of a maximum matching (MATLAB's sprank): the rank of a matrix with this pattern and
/// generic values, and an upper bound on the rank for any values.
int structural_rank(const SparsityPattern& pattern);

/// Whether `matching` is a matching of `pattern`: sizes fit, both directions agree, every
/// matched pair is an entry and `size` counts the pairs. It need not be maximum.
bool is_valid_matching(const SparsityPattern& pattern, const Matching& matching);

}  // namespace daec
