// The left null space of the reduction's B = dg/dz (docs/method.md §5, step 2) as row
// dependencies: each dependent row of B written through the fewest earlier rows that span it. The
// structure is found numerically at random points (sparse, per connected block of B), so that the
// symbolic work is one small determinant per dependency instead of a fraction-free elimination of
// all of B, whose entries grew exponentially (oracle models of 9 constraints ran out of time).
#pragma once

#include <cstddef>
#include <vector>

#include <ginac/ginac.h>

#include "reduction/expression_matrix.h"
#include "reduction/symbolic.h"

namespace daec {

/// Row `row` of B lies in the span of rows `basis`, and B[basis, columns] is square and
/// nonsingular. The basis rows come before `row` in the order that puts the rows whose entries
/// are all numbers first (each group in row order): a weight is a minor of the basis, and
/// through rows of numbers it stays one that cannot vanish along the solution. Then the bordered determinant
///     | B[basis, columns]  g[basis] |
///     | B[row, columns]    g[row]   |
/// is a combination of the constraints g with B-part zero: it is free of the algebraic unknowns.
struct RowDependency {
  size_t row = 0;
  std::vector<size_t> basis;
  std::vector<int> columns;
};

/// One dependency per dimension of B's left null space, for the rows that are combinations of
/// earlier rows (in the order above), sorted by row; zero rows of B (dependencies by themselves) are not among them,
/// but a row whose entries only vanish at the points (rounding of a cancellation) is, with an
/// empty basis.
/// Generic (decided at random points of `symbols`, checked at a second one); an empty result if B
/// has full row rank there.
std::vector<RowDependency> row_dependencies(const ExpressionMatrix& B,
                                            const std::vector<GiNaC::ex>& symbols,
                                            RandomPoints& points);

/// The weights of the bordered determinant's rows, basis rows first and then the dependent row:
/// minors of B[basis and row, columns], each column first divided by the common factor of its
/// entries and the minors then by theirs (so no weight vanishes where only a common factor does;
/// docs/reduction.md, "Combinations").
std::vector<GiNaC::ex> dependency_weights(const ExpressionMatrix& B,
                                          const RowDependency& dependency);

/// sum_i weights[i] * residuals[basis and row, in that order][i]: the combination that
/// `dependency` gives with the weights of dependency_weights.
GiNaC::ex combination_of(const RowDependency& dependency, const std::vector<GiNaC::ex>& weights,
                         const std::vector<GiNaC::ex>& residuals);

/// The combination of `residuals` (already free of the algebraic unknowns' B-part, i.e. g at
/// z = 0) that `dependency` gives: the bordered determinant above, with the weights
/// dependency_weights.
GiNaC::ex dependency_combination(const ExpressionMatrix& B, const RowDependency& dependency,
                                 const std::vector<GiNaC::ex>& residuals);

}  // namespace daec
