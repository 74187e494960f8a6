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
/// nonsingular. The basis rows come before `row` in the rows' order, or in the order that puts the
/// rows whose entries are all numbers first (see row_dependencies). Then the bordered determinant
///     | B[basis, columns]  g[basis] |
///     | B[row, columns]    g[row]   |
/// is a combination of the constraints g with B-part zero: it is free of the algebraic unknowns.
struct RowDependency {
  size_t row = 0;
  std::vector<size_t> basis;
  std::vector<int> columns;
};

/// One dependency per dimension of B's left null space, for the rows that are combinations of
/// earlier rows, sorted by row; zero rows of B (dependencies by themselves) are not among them,
/// but a row whose entries only vanish at the points (rounding of a cancellation) is, with an
/// empty basis.
/// Generic (decided at random points of `symbols`, checked at a second one); an empty result if B
/// has full row rank there.
///
/// Which rows are the basis follows the order in which the rows are reduced: the rows' own
/// order, or, with `for_combinations`, the rows whose entries are all numbers first where that
/// gives every combination a row to replace whose weight never vanishes (replaced_row) and the
/// rows' own order does not (docs/reduction.md, "Combinations").
std::vector<RowDependency> row_dependencies(const ExpressionMatrix& B,
                                            const std::vector<GiNaC::ex>& symbols,
                                            RandomPoints& points, bool for_combinations = true);

/// The row the combination of `dependency` (with `weights`, of dependency_weights) replaces in
/// the system, among the dependencies `all` of its round. It must be recoverable from the
/// combination wherever the model is regular: a row whose weight never vanishes (never_vanishes:
/// a number, 7*u2^2 + 20) and that no other combination holds. A weight that is a function (x5
/// for a row force5 giving x5' next to a row with x5*x5', cos(q1)) vanishes somewhere, and where
/// it does the system has lost the replaced row: A is singular on a solution along which the
/// model is regular. The dependent row when its weight never vanishes (or when no row's does),
/// else the last row whose weight never vanishes. `steady`, if given, is set to whether the row
/// returned has a weight that never vanishes.
size_t replaced_row(const RowDependency& dependency, const std::vector<GiNaC::ex>& weights,
                    const std::vector<RowDependency>& all, bool* steady = nullptr);

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
