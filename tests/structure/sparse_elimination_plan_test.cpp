// Tests of the sparse elimination planner on its own (src/structure/sparse_elimination_plan):
// pivot order, pivot candidates, fill-in and the solve operations, as plain data.
#include <gtest/gtest.h>

#include <stdexcept>

#include "structure/sparse_elimination_plan.h"

namespace daec {
namespace {

LinearSolvePlan plan_for(const char* pattern) {
  SparsityPattern a = SparsityPattern::from_text(pattern);
  return plan_linear_solve(a, block_triangular_form(a));
}

TEST(SparseEliminationPlan, FullBlockHasTwoCandidatesAndNoFill) {
  LinearSolvePlan plan = plan_for("1 1\n1 1\n");
  EXPECT_EQ(2, plan.size);
  EXPECT_EQ(1, plan.blocks.block_count());
  ASSERT_EQ(2u, plan.steps.size());
  EXPECT_EQ(0, plan.steps[0].position);
  EXPECT_EQ((std::vector<int>{0, 1}), plan.steps[0].candidates);
  EXPECT_EQ((std::vector<int>{1}), plan.steps[0].columns);
  EXPECT_FALSE(plan.steps[0].fixed_pivot);
  EXPECT_EQ((std::vector<int>{1}), plan.steps[1].candidates);
  EXPECT_TRUE(plan.steps[1].columns.empty());
  EXPECT_EQ((std::vector<std::pair<int, int>>{{0, 0}, {0, 1}, {1, 0}, {1, 1}}), plan.storage);
  EXPECT_EQ(3, plan.index(1, 1));
}

TEST(SparseEliminationPlan, PartialPivotingFillIsTheUnionOfTheCandidates) {
  // Column 0 is held by rows 0 and 2; whichever is chosen, both rows get the union of their
  // patterns right of the pivot: (0, 2) and (2, 1) are fill-in.
  LinearSolvePlan plan = plan_for("1 1 0\n0 1 1\n1 0 1\n");
  ASSERT_EQ(1, plan.blocks.block_count());
  const PivotStep& first = plan.steps.front();
  ASSERT_EQ(2u, first.candidates.size());
  int other = first.candidates[1];
  for (int j : first.columns) {
    EXPECT_NO_THROW(plan.index(first.position, j));
    EXPECT_NO_THROW(plan.index(other, j));
  }
  EXPECT_EQ(2u, first.columns.size());
  EXPECT_EQ(8u, plan.storage.size());  // six entries of A and the fill
}

TEST(SparseEliminationPlan, EarlierBlocksAreRecordedPerPosition) {
  LinearSolvePlan plan = plan_for("1 0\n1 1\n");
  ASSERT_EQ(2, plan.blocks.block_count());
  EXPECT_TRUE(plan.earlier_columns[0].empty());
  EXPECT_EQ((std::vector<int>{0}), plan.earlier_columns[1]);
  SolveOperations solve = solve_operations(plan);
  // Block 1: r[0] *= a[0]; block 2: r[1] -= a[1] * r[0], r[1] *= a[2].
  EXPECT_EQ((std::vector<int>{0, 1, 3}), solve.block_start);
  ASSERT_EQ(3u, solve.ops.size());
  EXPECT_EQ((std::array<int, 3>{0, -2 - 0, 0}), solve.ops[0]);
  EXPECT_EQ((std::array<int, 3>{1, 1, 0}), solve.ops[1]);
  EXPECT_EQ((std::array<int, 3>{1, -2 - 2, 0}), solve.ops[2]);
  // Two reciprocals to factor; 1 + 2 + 1 to solve.
  EXPECT_EQ(6u, lu_operation_count(plan));
}

TEST(SparseEliminationPlan, RowExchangeIsAnOperationOfTheSolve) {
  SolveOperations solve = solve_operations(plan_for("1 1\n1 1\n"));
  ASSERT_FALSE(solve.ops.empty());
  EXPECT_EQ((std::array<int, 3>{0, -1, 0}), solve.ops.front());
}

TEST(SparseEliminationPlan, StructurallySingularMatrixIsRefused) {
  // Rows 0 and 1 both hold only column 0: no block form, and a hand-made one is refused.
  SparsityPattern a = SparsityPattern::from_text("1 0\n1 0\n");
  BlockTriangularForm form;
  form.row_order = {0, 1};
  form.col_order = {0, 1};
  form.block_start = {0, 2};
  EXPECT_THROW(plan_linear_solve(a, form), std::logic_error);
}

TEST(SparseEliminationPlan, BandedBlockFillsInLinearly) {
  // A cyclic tridiagonal-like pattern (one irreducible block): partial pivoting may pick either
  // of two rows at each step, and the fill stays within a band.
  const int n = 200;
  std::vector<std::vector<int>> rows(n);
  for (int i = 0; i < n; ++i) {
    for (int j : {i - 1, i, i + 1}) {
      if (j >= 0 && j < n) rows[i].push_back(j);
    }
  }
  SparsityPattern a = SparsityPattern::from_rows(n, rows);
  LinearSolvePlan plan = plan_linear_solve(a, block_triangular_form(a));
  EXPECT_EQ(1, plan.blocks.block_count());
  EXPECT_LE(plan.storage.size(), static_cast<size_t>(4 * n));
  for (const PivotStep& step : plan.steps) EXPECT_LE(step.candidates.size(), 2u);
}

TEST(SparseEliminationPlan, StoredEntriesCoverTheMatrix) {
  LinearSolvePlan plan = plan_for("1 1 0\n0 1 1\n1 0 1\n");
  for (auto [row, column] : std::vector<std::pair<int, int>>{{0, 0}, {1, 1}, {2, 2}}) {
    EXPECT_NO_THROW(plan.index(row, column));
  }
  EXPECT_THROW(plan.index(5, 5), std::logic_error);
}

}  // namespace
}  // namespace daec
