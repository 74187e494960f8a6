// Tests of the left null space of B as row dependencies (reduction/left_null_space.h): each
// combination y multiplied back gives y^T B = 0, the combinations are independent and as many as
// the rows B lacks for full row rank, symbolic and of very different scales alike.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "reduction/left_null_space.h"

namespace daec {
namespace {

using GiNaC::ex;
using GiNaC::realsymbol;

struct Fixture {
  realsymbol x{"x"}, y{"y"}, p{"p"};
  std::vector<ex> symbols{x, y, p};
  RandomPoints points{{}};

  std::vector<RowDependency> dependencies(const ExpressionMatrix& B) {
    return row_dependencies(B, symbols, points);
  }
};

ExpressionMatrix matrix(size_t columns, const std::vector<std::vector<ex>>& dense) {
  ExpressionMatrix B(columns);
  for (const std::vector<ex>& row : dense) {
    std::vector<MatrixEntry> entries;
    for (size_t c = 0; c < row.size(); ++c) entries.push_back({static_cast<int>(c), row[c]});
    B.add_row(entries);
  }
  return B;
}

// The coefficients y of the combination of the rows that `d` gives (one symbol per residual).
std::vector<ex> coefficients(const ExpressionMatrix& B, const RowDependency& d) {
  std::vector<ex> residuals;
  for (size_t r = 0; r < B.rows(); ++r) residuals.push_back(realsymbol("g" + std::to_string(r)));
  ex combination = dependency_combination(B, d, residuals).expand();
  std::vector<ex> y;
  for (const ex& g : residuals) y.push_back(combination.coeff(g, 1));
  return y;
}

// y^T B = 0 identically, y is not zero at the dependent row and zero at the other dependent rows
// (so that the combinations are independent), and the basis lies before the row: in the rows'
// order, or in the order with the rows of numbers first (reduction/left_null_space.h).
void expect_null_space(const ExpressionMatrix& B, const std::vector<RowDependency>& found) {
  for (const RowDependency& d : found) {
    std::vector<ex> y = coefficients(B, d);
    for (size_t c = 0; c < B.cols(); ++c) {
      ex product = 0;
      for (size_t r = 0; r < B.rows(); ++r) product += y[r] * B.at(r, c);
      EXPECT_TRUE(product.normal().is_zero()) << "row " << d.row << ", column " << c;
    }
    EXPECT_FALSE(y[d.row].normal().is_zero()) << d.row;
    for (const RowDependency& other : found) {
      if (other.row != d.row) {
        EXPECT_TRUE(y[other.row].is_zero()) << d.row << " " << other.row;
      }
    }
    auto numbers = [&B](size_t r) {
      for (const MatrixEntry& entry : B.row(r))
        if (!GiNaC::is_exactly_a<GiNaC::numeric>(entry.value)) return false;
      return true;
    };
    auto before = [&](size_t b, bool numbers_first) {
      if (numbers_first)
        return std::make_pair(!numbers(b), b) < std::make_pair(!numbers(d.row), d.row);
      return b < d.row;
    };
    bool in_order = true, numbers_first = true;
    for (size_t b : d.basis) {
      in_order = in_order && before(b, false);
      numbers_first = numbers_first && before(b, true);
    }
    EXPECT_TRUE(in_order || numbers_first) << d.row;
    EXPECT_EQ(d.basis.size(), d.columns.size());
  }
}

TEST(LeftNullSpace, FullRowRankHasNone) {
  Fixture f;
  EXPECT_TRUE(f.dependencies(matrix(2, {{1, 2}, {3, 4}})).empty());
  EXPECT_TRUE(f.dependencies(matrix(3, {{f.x, 0, 1}, {f.y, 1, 0}})).empty());
  EXPECT_TRUE(f.dependencies(ExpressionMatrix(3)).empty());
}

TEST(LeftNullSpace, ConstantRowSumIsFound) {
  Fixture f;
  // Row 2 = row 0 + row 1: y = (1, 1, -1) up to a factor.
  ExpressionMatrix B = matrix(2, {{1, 2}, {3, 4}, {4, 6}});
  std::vector<RowDependency> found = f.dependencies(B);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].row, 2u);
  EXPECT_EQ(found[0].basis, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(found[0].columns, (std::vector<int>{0, 1}));
  std::vector<ex> y = coefficients(B, found[0]);
  EXPECT_TRUE((y[0] - y[1]).is_zero());
  EXPECT_TRUE((y[0] + y[2]).is_zero());
  expect_null_space(B, found);
}

TEST(LeftNullSpace, SymbolicPendulumRows) {
  Fixture f;
  // The rod and twice it, and a third row independent of them: rows (x, y), (2x, 2y), (y, -x).
  ExpressionMatrix B = matrix(2, {{f.x, f.y}, {2 * f.x, 2 * f.y}, {f.y, -f.x}});
  std::vector<RowDependency> found = f.dependencies(B);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].row, 1u);
  EXPECT_EQ(found[0].basis, (std::vector<size_t>{0}));
  expect_null_space(B, found);
}

TEST(LeftNullSpace, IndependentBlocksEachGiveTheirDependencies) {
  Fixture f;
  // Columns {0} and {1, 2} are never shared: two blocks, three dependencies in all (rank 1 and 2
  // of 2 and 4 rows), reported in row order.
  ExpressionMatrix B(3);
  B.add_row({{0, f.x}});
  B.add_row({{1, 1}, {2, f.p}});
  B.add_row({{0, f.x * f.y}});
  B.add_row({{1, f.y}, {2, 1}});
  B.add_row({{1, f.y + 2}, {2, 2 * f.p + 1}});  // row 1 * 2 + row 3
  B.add_row({{1, 3}, {2, 3 * f.p}});            // row 1 * 3
  std::vector<RowDependency> found = f.dependencies(B);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].row, 2u);
  EXPECT_EQ(found[1].row, 4u);
  EXPECT_EQ(found[2].row, 5u);
  EXPECT_EQ(found[0].basis, (std::vector<size_t>{0}));
  EXPECT_EQ(found[2].basis, (std::vector<size_t>{1}));  // the fewest rows that span it
  expect_null_space(B, found);
}

TEST(LeftNullSpace, RowsOfVeryDifferentScales) {
  Fixture f;
  // The same constraint in nanometres and in kilometres, next to one that is independent.
  ExpressionMatrix B = matrix(2, {{1e-9 * f.x, 1e-9 * f.y}, {1, f.p}, {1e12 * f.x, 1e12 * f.y}});
  std::vector<RowDependency> found = f.dependencies(B);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].row, 2u);
  EXPECT_EQ(found[0].basis, (std::vector<size_t>{0}));
  expect_null_space(B, found);
  // Scaled the other way round they stay independent.
  EXPECT_TRUE(
      f.dependencies(matrix(2, {{1e-9 * f.x, 1e-9 * f.y}, {1e12 * f.y, -1e12 * f.x}})).empty());
}

TEST(LeftNullSpace, ZeroRowsAreLeftToTheCaller) {
  Fixture f;
  // A row of B that is zero is a dependency by itself, which the reduction handles before it asks
  // for the general ones (docs/method.md §5, step 2): none is reported here.
  ExpressionMatrix B(2);
  B.add_row({{0, f.x}, {1, f.y}});
  B.add_row({});
  B.add_row({{0, 1}, {1, 1}});
  EXPECT_TRUE(f.dependencies(B).empty());
}

TEST(LeftNullSpace, TiedPivotsGoToTheFirstColumnNotToRounding) {
  // Entries equal in exact arithmetic come out of an evaluation with last digits set by the
  // order of their terms, which follows GiNaC's hashes and so changes from run to run
  // (reduction/ties.h): 0.1 + 0.2 is one rounding above 0.3. Whichever way round they stand, the
  // combination is built on the first column, not on the one rounding made larger.
  ex above = ex(0.1) + ex(0.2), exact = ex(0.3);
  ASSERT_TRUE(GiNaC::ex_to<GiNaC::numeric>(above) > GiNaC::ex_to<GiNaC::numeric>(exact));
  for (bool swapped : {false, true}) {
    Fixture f;
    ex first = swapped ? above : exact, second = swapped ? exact : above;
    ExpressionMatrix B = matrix(2, {{first, second}, {first, second}});
    std::vector<RowDependency> found = f.dependencies(B);
    ASSERT_EQ(found.size(), 1u) << swapped;
    EXPECT_EQ(found[0].basis, (std::vector<size_t>{0})) << swapped;
    EXPECT_EQ(found[0].columns, (std::vector<int>{0})) << swapped;
  }
}

TEST(LeftNullSpace, CommonFactorsOfAColumnAreNotWeights) {
  // u1 * u1' terms give the column of u1' a factor u1 in every row; combined through that
  // column, the weights would be multiples of u1 and vanish wherever u1 does, while the rows stay
  // proportional there. The weights carry only what the dependency needs: y + 1, never x or sin.
  Fixture f;
  ex over = 1 / (1 + pow(f.p, 2));
  for (int column : {0, 1}) {
    ExpressionMatrix B(2);
    B.add_row({{column, ex(3) / 7 * f.x * f.y * sin(f.y)}});
    B.add_row({{column, f.x * f.y * sin(f.y) * (f.y + 1) * over}});
    B.add_row({{0, f.x * 3}, {1, 3 * f.x * over}});
    B.add_row({{0, 2 * f.x * f.y}, {1, 2 * f.x * f.y * over}});  // row 2 times 2y/3
    std::vector<RowDependency> found = f.dependencies(B);
    ASSERT_EQ(found.size(), 2u) << column;
    expect_null_space(B, found);
    for (const RowDependency& d : found) {
      for (const ex& weight : coefficients(B, d)) {
        EXPECT_FALSE(weight.has(f.x)) << column << ": " << weight;
        EXPECT_FALSE(weight.has(sin(f.y))) << column << ": " << weight;
      }
    }
    std::vector<ex> y = coefficients(B, found[0]);
    EXPECT_TRUE(y[0].has(f.y)) << "the weight y + 1 (or 1/(y + 1)) is the dependency's own";
  }
}

TEST(LeftNullSpace, AFactorOfEveryMinorIsNotAWeight) {
  // Rows (1, 0) K, (0, 1) K, (1, 1) K with K = [[x/3, 1], [1, x]]: no column has a common
  // factor, but every minor carries det K = x^2/3 - 1, zero at x = sqrt(3). Divided out, the
  // weights are the numbers of row 2 = row 0 + row 1.
  Fixture f;
  ExpressionMatrix B = matrix(2, {{f.x / 3, 1}, {1, f.x}, {f.x / 3 + 1, 1 + f.x}});
  std::vector<RowDependency> found = f.dependencies(B);
  ASSERT_EQ(found.size(), 1u);
  expect_null_space(B, found);
  for (const ex& weight : dependency_weights(B, found[0]))
    EXPECT_TRUE(GiNaC::is_exactly_a<GiNaC::numeric>(weight)) << weight;
}

TEST(LeftNullSpace, RowZeroUpToRoundingHasNoBasis) {
  // sin(x)^2 + cos(x)^2 - 1 is zero, evaluated to rounding (or to zero, by the order of its
  // terms): a dependency by itself, never one on row 0 through a weight that is rounding too.
  Fixture f;
  ExpressionMatrix B(1);
  B.add_row({{0, f.x}});
  B.add_row({{0, pow(sin(f.x), 2) + pow(cos(f.x), 2) - 1}});
  std::vector<RowDependency> found = f.dependencies(B);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].row, 1u);
  EXPECT_TRUE(found[0].basis.empty());
  EXPECT_TRUE(found[0].columns.empty());
}

TEST(LeftNullSpace, RowsOfNumbersAreTheBasisWhereTheyKeepTheWeights) {
  // Rows x*z1, z2, z1, 3*z1 + y*z2 (the oracle's seed 49100185: q1*q3', a force row, a dummy's
  // definition q3' = ..., a differentiated constraint). Written through row 0, rows 2 and 3 both
  // take row 0, each weighs itself by x, and neither may replace row 0: at x = 0 both
  // combinations reduce to row 0 alone and dh/dX loses rank where the model is regular. Through
  // the rows of numbers, each combination's own row has a number for its weight.
  Fixture f;
  ExpressionMatrix B = matrix(2, {{f.x, 0}, {0, 1}, {1, 0}, {3, f.y}});
  std::vector<RowDependency> found = f.dependencies(B);
  ASSERT_EQ(found.size(), 2u);
  expect_null_space(B, found);
  EXPECT_EQ(found[0].row, 0u);
  EXPECT_EQ(found[0].basis, (std::vector<size_t>{2}));
  EXPECT_EQ(found[1].row, 3u);
  EXPECT_EQ(found[1].basis, (std::vector<size_t>{1, 2}));
  for (const ex& weight : coefficients(B, found[1])) EXPECT_FALSE(weight.has(f.x)) << weight;
  for (const RowDependency& d : found) {
    bool steady = false;
    EXPECT_EQ(replaced_row(d, dependency_weights(B, d), found, &steady), d.row);
    EXPECT_TRUE(steady) << d.row;
  }
}

TEST(LeftNullSpace, RowsKeepTheirOrderWhereItKeepsTheWeights) {
  // Rows z1, z1 + x*z2, 2*z1, z2 (row 3 a row of numbers after a varying one). In the rows' order
  // row 2 is written through row 0 and row 3 through rows 0 and 1, row 3 weighed by x; but row 1
  // is held by no other combination and its weight is a number, so it is the row replaced, and
  // the rows keep their order.
  Fixture f;
  ExpressionMatrix B = matrix(2, {{1, 0}, {1, f.x}, {2, 0}, {0, 1}});
  std::vector<RowDependency> found = f.dependencies(B);
  ASSERT_EQ(found.size(), 2u);
  expect_null_space(B, found);
  EXPECT_EQ(found[0].row, 2u);
  EXPECT_EQ(found[0].basis, (std::vector<size_t>{0}));
  EXPECT_EQ(found[1].row, 3u);
  EXPECT_EQ(found[1].basis, (std::vector<size_t>{0, 1}));
}

}  // namespace
}  // namespace daec
