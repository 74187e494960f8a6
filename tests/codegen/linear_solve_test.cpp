// Tests of the code that carries out the sparse LU plan (src/codegen/linear_solve); the plan
// itself is tested in sparse_elimination_plan_test.cpp.
#include <gtest/gtest.h>

#include "codegen/linear_solve.h"

namespace daec {
namespace {

LinearSolvePlan plan_for(const char* pattern) {
  SparsityPattern a = SparsityPattern::from_text(pattern);
  return plan_linear_solve(a, block_triangular_form(a));
}

TEST(LinearSolve, TriangularMatrixNeedsNoPivoting) {
  LinearSolvePlan plan = plan_for("1 0 0\n1 1 0\n0 1 1\n");
  ASSERT_EQ(3u, plan.steps.size());
  for (const PivotStep& step : plan.steps) EXPECT_EQ(1u, step.candidates.size());
  EXPECT_EQ(5u, plan.storage.size());  // no fill-in
  std::string factor = factor_code(plan);
  EXPECT_NE(std::string::npos, factor.find("(void)pivot;"));
  EXPECT_EQ(std::string::npos, factor.find("switch"));
  EXPECT_EQ(3, plan.blocks.block_count());
}

TEST(LinearSolve, FullTwoByTwoBlock) {
  LinearSolvePlan plan = plan_for("1 1\n1 1\n");
  EXPECT_EQ(
      "  {  // position 0: pivot among 2 rows\n"
      "    int q = 0;\n"
      "    double largest = std::fabs(a[0]);\n"
      "    if (std::fabs(a[2]) > largest) {\n"
      "      q = 1;\n"
      "      largest = std::fabs(a[2]);\n"
      "    }\n"
      "    if (!(largest > 0.0)) return 1;\n"
      "    pivot[0] = q;\n"
      "    switch (q) {\n"
      "      case 1:\n"
      "        std::swap(a[0], a[2]);\n"
      "        std::swap(a[1], a[3]);\n"
      "        break;\n"
      "      default:\n"
      "        break;\n"
      "    }\n"
      "    a[0] = 1.0 / a[0];\n"
      "    {\n"
      "      const double m = a[2] * a[0];\n"
      "      a[2] = m;\n"
      "      a[3] -= m * a[1];\n"
      "    }\n"
      "  }\n"
      "  if (!(std::fabs(a[3]) > 0.0)) return 2;\n"
      "  a[3] = 1.0 / a[3];\n"
      "  return 0;\n",
      factor_code(plan));
  EXPECT_EQ(
      "  // block 1 (positions 0..1)\n"
      "  std::swap(r[0], r[pivot[0]]);\n"
      "  r[1] -= a[2] * r[0];\n"
      "  r[1] *= a[3];\n"
      "  r[0] = (r[0] - a[1] * r[1]) * a[0];\n",
      solve_code(plan));
  // Two reciprocals, a multiplier and a multiply-subtract to factor; 2 + 1 + 3 to solve.
  EXPECT_EQ(11u, lu_operation_count(plan));
}

TEST(LinearSolve, ConstantPivotNeedsNoSearch) {
  // A dummy variable's equation has a 1 on the diagonal: that pivot cannot vanish, so the step
  // takes it without a search, and the rows below take in only the pivot row's pattern.
  SparsityPattern a = SparsityPattern::from_text("1 1 0\n1 1 1\n0 1 1\n");
  SparsityPattern constant = SparsityPattern::from_text("1 0 0\n0 0 0\n0 0 0\n");
  LinearSolvePlan plan = plan_linear_solve(a, block_triangular_form(a), constant);
  ASSERT_EQ(3u, plan.steps.size());
  EXPECT_TRUE(plan.steps.front().fixed_pivot);
  EXPECT_EQ(2u, plan.steps.front().candidates.size());
  std::string factor = factor_code(plan);
  EXPECT_EQ(std::string::npos, factor.find("pivot among 2 rows\n    int q = 0;"));
  EXPECT_EQ(0u, factor.find("  a[0] = 1.0 / a[0];\n")) << factor;  // a number: no zero test
  EXPECT_EQ(std::string::npos, solve_code(plan).find("std::swap(r[0]"));
  LinearSolvePlan searched = plan_linear_solve(a, block_triangular_form(a));
  EXPECT_FALSE(searched.steps.front().fixed_pivot);
  EXPECT_LE(plan.storage.size(), searched.storage.size());
}

TEST(LinearSolve, UnitPivotsOffTheMatchingAreEliminatedFirst) {
  // The pendulum's A Z = b: rows u_dot + x*l = .., v_dot + y*l = .., x*u_dot + y*v_dot = ..
  // (columns u_dot, v_dot, l). No perfect matching puts both 1s on the diagonal together with
  // the last row; eliminating them first leaves one entry for l, as substituting u_dot and v_dot
  // would, with nothing to divide by.
  SparsityPattern a = SparsityPattern::from_text("1 0 1\n0 1 1\n1 1 0\n");
  SparsityPattern ones = SparsityPattern::from_text("1 0 0\n0 1 0\n0 0 0\n");
  LinearSolvePlan plan = plan_linear_solve(a, block_triangular_form(a), ones, ones);
  EXPECT_EQ((std::vector<int>{0, 1, 2}), plan.blocks.row_order);
  EXPECT_EQ((std::vector<int>{0, 1, 2}), plan.blocks.col_order);
  ASSERT_EQ(3u, plan.steps.size());
  EXPECT_TRUE(plan.steps[0].unit_pivot);
  EXPECT_TRUE(plan.steps[1].unit_pivot);
  EXPECT_FALSE(plan.steps[2].fixed_pivot);
  EXPECT_EQ(
      "  (void)pivot;  // every block is solved without row exchanges\n"
      "  // position 0: the pivot is 1\n"
      "  {\n"
      "    {\n"
      "      const double m = a[4];\n"
      "      a[6] -= m * a[1];\n"
      "    }\n"
      "  }\n"
      "  // position 1: the pivot is 1\n"
      "  {\n"
      "    {\n"
      "      const double m = a[5];\n"
      "      a[6] -= m * a[3];\n"
      "    }\n"
      "  }\n"
      "  if (!(std::fabs(a[6]) > 0.0)) return 3;\n"
      "  a[6] = 1.0 / a[6];\n"
      "  return 0;\n",
      factor_code(plan));
  EXPECT_EQ(
      "  (void)pivot;  // every block is solved without row exchanges\n"
      "  // block 1 (positions 0..2)\n"
      "  r[2] -= a[4] * r[0];\n"
      "  r[2] -= a[5] * r[1];\n"
      "  r[2] *= a[6];\n"
      "  r[1] = r[1] - a[3] * r[2];\n"
      "  r[0] = r[0] - a[1] * r[2];\n",
      solve_code(plan));
  // Factor: two multiply-subtracts and a reciprocal (5); solve: 4 forward, 1 + 2 + 2 back (9).
  EXPECT_EQ(14u, lu_operation_count(plan));
}

TEST(LinearSolve, OffDiagonalBlocksAreSubtractedBeforeTheBlock) {
  // x0 alone, then x1 from an equation that also holds x0.
  LinearSolvePlan plan = plan_for("1 0\n1 1\n");
  EXPECT_EQ(
      "  (void)pivot;  // every block is solved without row exchanges\n"
      "  // block 1 (positions 0..0)\n"
      "  r[0] *= a[0];\n"
      "  // block 2 (positions 1..1)\n"
      "  r[1] -= a[1] * r[0];\n"
      "  r[1] *= a[2];\n",
      solve_code(plan));
}

}  // namespace
}  // namespace daec
