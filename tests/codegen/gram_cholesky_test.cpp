// Tests of the planned sparse Cholesky factorisation of G = H H^T (codegen/gram_cholesky.h): the
// order is a permutation, the factor's pattern holds no more than the fill, and the tables,
// run the way the generated factor_gram runs them (templates/gram_cholesky.cpp.in), give the factor
// computed by hand, with a vanishing pivot marked dependent rather than taken.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "codegen/gram_cholesky.h"

namespace daec {
namespace {

using Dense = std::vector<std::vector<double>>;

// H's pattern by columns and its values in the same (CSC) order.
struct Sparse {
  ColumnPattern pattern;
  std::vector<double> values;
};

Sparse by_columns(const Dense& h) {
  Sparse s;
  s.pattern.rows = static_cast<int>(h.size());
  size_t n = h.empty() ? 0 : h[0].size();
  for (size_t j = 0; j < n; ++j) {
    for (size_t i = 0; i < h.size(); ++i) {
      if (h[i][j] == 0.0) continue;
      s.pattern.rowval.push_back(static_cast<int>(i));
      s.values.push_back(h[i][j]);
    }
    s.pattern.colptr.push_back(s.pattern.nonzeros());
  }
  return s;
}

struct Factor {
  std::vector<double> L;  // by the plan's factor pattern
  std::vector<bool> dependent;
};

// The plan's tables used as the generated factor_gram uses them: G's entries from the products,
// then left-looking columns; a pivot not above 1e-13 of G's largest diagonal entry marks the
// constraint dependent and zeroes its column.
Factor factor(const GramPlan& plan, const std::vector<double>& h) {
  Factor f{std::vector<double>(plan.factor.nonzeros(), 0.0), std::vector<bool>(plan.size)};
  for (const auto& [target, a, b] : plan.products) f.L[target] += h[a] * h[b];
  const std::vector<int>& start = plan.factor.colptr;
  const std::vector<int>& row = plan.factor.rowval;
  double largest = 0.0;
  for (int j = 0; j < plan.size; ++j) largest = std::max(largest, f.L[start[j]]);
  std::vector<double> work(plan.size, 0.0);
  for (int j = 0; j < plan.size; ++j) {
    for (int q = start[j]; q < start[j + 1]; ++q) work[row[q]] = f.L[q];
    for (int e = plan.row_start[j]; e < plan.row_start[j + 1]; ++e) {
      const auto& [first, end] = plan.row_entries[e];
      for (int q = first; q < end; ++q) work[row[q]] -= f.L[q] * f.L[first];
    }
    f.dependent[j] = !(work[j] > 1e-13 * largest);
    if (f.dependent[j]) {
      for (int q = start[j]; q < start[j + 1]; ++q) f.L[q] = 0.0;
      continue;
    }
    double root = std::sqrt(work[j]);
    f.L[start[j]] = root;
    for (int q = start[j] + 1; q < start[j + 1]; ++q) f.L[q] = work[row[q]] / root;
  }
  return f;
}

Dense dense_factor(const GramPlan& plan, const std::vector<double>& L) {
  Dense d(plan.size, std::vector<double>(plan.size, 0.0));
  for (int j = 0; j < plan.size; ++j)
    for (int q = plan.factor.colptr[j]; q < plan.factor.colptr[j + 1]; ++q)
      d[plan.factor.rowval[q]][j] = L[q];
  return d;
}

bool is_permutation(std::vector<int> order, int size) {
  std::sort(order.begin(), order.end());
  std::vector<int> expected(size);
  std::iota(expected.begin(), expected.end(), 0);
  return order == expected;
}

// Checks the plan's invariants and that L L^T = P G P^T for these values of H.
void expect_factors(const Dense& h) {
  Sparse s = by_columns(h);
  GramPlan plan = plan_gram_cholesky(s.pattern);
  int k = static_cast<int>(h.size());
  ASSERT_EQ(plan.size, k);
  ASSERT_TRUE(is_permutation(plan.order, k));
  for (int j = 0; j < k; ++j) {  // the diagonal first in each column, rows increasing below
    ASSERT_EQ(plan.factor.rowval[plan.factor.colptr[j]], j);
    for (int q = plan.factor.colptr[j] + 1; q < plan.factor.colptr[j + 1]; ++q)
      ASSERT_GT(plan.factor.rowval[q], plan.factor.rowval[q - 1]);
  }
  Dense l = dense_factor(plan, factor(plan, s.values).L);
  for (int i = 0; i < k; ++i) {
    for (int m = 0; m < k; ++m) {
      double g = 0.0, product = 0.0;
      for (size_t c = 0; c < h[0].size(); ++c) g += h[plan.order[i]][c] * h[plan.order[m]][c];
      for (int c = 0; c < k; ++c) product += l[i][c] * l[m][c];
      EXPECT_NEAR(product, g, 1e-12 * std::max(1.0, std::fabs(g))) << i << ", " << m;
    }
  }
}

TEST(GramCholesky, TwoCoupledConstraintsByHand) {
  // H = [[1, 1, 0], [0, 1, 1]]: G = [[2, 1], [1, 2]], L = [[sqrt 2, 0], [1 / sqrt 2, sqrt 3/2]].
  Sparse s = by_columns({{1, 1, 0}, {0, 1, 1}});
  GramPlan plan = plan_gram_cholesky(s.pattern);
  EXPECT_EQ(plan.order, (std::vector<int>{0, 1}));
  EXPECT_EQ(plan.factor.colptr, (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(plan.factor.rowval, (std::vector<int>{0, 1, 1}));
  EXPECT_EQ(plan.products.size(), 1u + 3u + 1u);  // one entry, then two, then one in the columns
  Factor f = factor(plan, s.values);
  EXPECT_DOUBLE_EQ(f.L[0], std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(f.L[1], 1.0 / std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(f.L[2], std::sqrt(1.5));
  EXPECT_EQ(f.dependent, (std::vector<bool>{false, false}));
}

TEST(GramCholesky, LeastDegreeFirstByHand) {
  // Constraint 0 is coupled to 1 and 2, which are not coupled: 1 (degree 1) goes first, then 0
  // and 2 tie at degree 1 and the lower goes. P G P^T = [[1, 1, 0], [1, 2, 1], [0, 1, 2]] has the
  // integer factor [[1, 0, 0], [1, 1, 0], [0, 1, 1]].
  Sparse s = by_columns({{1, 1, 0}, {1, 0, 0}, {0, 1, 1}});
  GramPlan plan = plan_gram_cholesky(s.pattern);
  EXPECT_EQ(plan.order, (std::vector<int>{1, 0, 2}));
  Factor f = factor(plan, s.values);
  EXPECT_EQ(dense_factor(plan, f.L), (Dense{{1, 0, 0}, {1, 1, 0}, {0, 1, 1}}));
  EXPECT_EQ(plan.factor.nonzeros(), 5);  // no fill
}

TEST(GramCholesky, DependentConstraintIsMarkedNotFactored) {
  // Row 1 = 2 row 0: G is singular (positive semidefinite only). The vanishing pivot of the
  // constraint eliminated second is not taken: the constraint is marked dependent and its column
  // zeroed, and the factorisation goes on with the independent ones.
  Sparse s = by_columns({{1, 2}, {2, 4}, {0, 1}});
  GramPlan plan = plan_gram_cholesky(s.pattern);
  EXPECT_EQ(plan.order, (std::vector<int>{0, 1, 2}));
  Factor f = factor(plan, s.values);
  EXPECT_EQ(f.dependent, (std::vector<bool>{false, true, false}));
  Dense l = dense_factor(plan, f.L);
  EXPECT_DOUBLE_EQ(l[0][0], std::sqrt(5.0));
  EXPECT_DOUBLE_EQ(l[1][0], 10.0 / std::sqrt(5.0));
  EXPECT_DOUBLE_EQ(l[2][0], 2.0 / std::sqrt(5.0));
  EXPECT_EQ(l[1][1], 0.0);
  EXPECT_EQ(l[2][1], 0.0);
  EXPECT_NEAR(l[2][2], std::sqrt(0.2), 1e-15);
}

TEST(GramCholesky, EmptyRowOfHIsDependent) {
  // A constraint whose gradient vanishes: G's row is zero, never a positive pivot.
  Sparse s = by_columns({{1, 0}, {0, 0}, {3, 4}});
  GramPlan plan = plan_gram_cholesky(s.pattern);
  Factor f = factor(plan, s.values);
  int place =
      static_cast<int>(std::find(plan.order.begin(), plan.order.end(), 1) - plan.order.begin());
  for (int j = 0; j < 3; ++j) EXPECT_EQ(f.dependent[j], j == place) << j;
}

TEST(GramCholesky, ChainAndArrowHaveNoFill) {
  const int k = 12;
  Dense chain(k, std::vector<double>(k + 1, 0.0)), arrow(k, std::vector<double>(k, 0.0));
  for (int i = 0; i < k; ++i) {
    chain[i][i] = 1.0 + i;  // rows i and i + 1 share column i + 1: G tridiagonal
    chain[i][i + 1] = -2.0 + 0.3 * i;
    arrow[0][i] = 0.5 + i;  // row 0 meets every other row: G an arrow
    if (i > 0) arrow[i][i] = 3.0;
  }
  for (const Dense& h : {chain, arrow}) {
    GramPlan plan = plan_gram_cholesky(by_columns(h).pattern);
    EXPECT_EQ(plan.factor.nonzeros(), 2 * k - 1);
    expect_factors(h);
  }
  // The arrow's hub is eliminated after all but one of the others.
  GramPlan plan = plan_gram_cholesky(by_columns(arrow).pattern);
  EXPECT_EQ(plan.order[k - 2], 0);
}

TEST(GramCholesky, FactorReproducesTheGramMatrix) {
  // Six constraints on eight variables with overlapping supports (fill appears).
  Dense h = {{1, 0, 2, 0, 0, 0, -1, 0}, {0, 3, 0, 0, 1, 0, 0, 0}, {1, 1, 0, 0, 0, 2, 0, 0},
             {0, 0, 0, 4, 0, 1, 0, -2}, {0, 0, 1, 1, 0, 0, 0, 0}, {2, 0, 0, 0, 1, 0, 0, 1}};
  expect_factors(h);
  GramPlan plan = plan_gram_cholesky(by_columns(h).pattern);
  size_t products = 0;
  for (size_t c = 0; c < h[0].size(); ++c) {
    size_t in_column = 0;
    for (const auto& row : h) in_column += row[c] != 0.0;
    products += in_column * (in_column + 1) / 2;
  }
  EXPECT_EQ(plan.products.size(), products);
}

TEST(GramCholesky, CodeHoldsTheTablesAndTheNumericsThatReadThem) {
  // Three constraints on a chain: L has the 5 entries of G's lower triangle, no fill.
  Dense h = {{1, 1, 0, 0}, {0, 1, 1, 0}, {0, 0, 1, 1}};
  GramPlan plan = plan_gram_cholesky(by_columns(h).pattern);
  std::string code = gram_cholesky_code(plan);
  EXPECT_NE(std::string::npos, code.find("constexpr int kGramEntries = 5;\n")) << code;
  EXPECT_NE(std::string::npos,
            code.find(fmt::format("constexpr int kGramProducts = {};\n", plan.products.size())));
  size_t tables = code.find("kGramRowEntries = "), factor = code.find("\nvoid factor_gram(");
  ASSERT_NE(std::string::npos, tables);
  ASSERT_NE(std::string::npos, factor);
  EXPECT_LT(tables, factor);  // the numerics read the tables, so they come after them
  EXPECT_NE(std::string::npos, code.find("\nvoid solve_gram("));
  EXPECT_EQ(std::string::npos, code.find("{{tables}}"));
}

}  // namespace
}  // namespace daec
