// Tests of the lowering of expressions (src/frontend/expressions.cpp): elements and indices,
// loop variables, conditions and their types, sums and products, and every diagnostic of them
// by its exact printed text. An error in a loop body is reported once, at its place in the source.
#include <gtest/gtest.h>

#include <string>

#include "model/expression_printer.h"
#include "test_util.h"

namespace daec {
namespace {

using test::run;

std::string diagnostics_of(const std::string& text) {
  return run(text)->diagnostics();
}

// The equations of a model as `label: lhs = rhs`, one per line.
std::string equations_of(const std::string& text) {
  auto result = run(text);
  EXPECT_EQ(result->diagnostics(), "");
  if (!result->model) return "<no model>";
  std::string out;
  for (const Equation& e : result->model->equations) {
    out += e.label + ": " + to_dae(e.lhs) + " = " + to_dae(e.rhs) + "\n";
  }
  return out;
}

// ---- elements and indices ----

TEST(Expressions, ElementsOfArrays) {
  EXPECT_EQ(equations_of("model m;\n"
                         "parameter N = 3, c[N] = {10, 20, 30};\n"
                         "variable x[N];\n"
                         "equation\n"
                         "  x[1] = c[2]*t;\n"
                         "  x[N - 1]' = x[1] + c[N];\n"
                         "  der(x[3]) = x[2];\n"
                         "end\n"),
            "eq1: x[1] = c[2]*t\n"
            "eq2: x[2]' = c[3] + x[1]\n"
            "eq3: x[3]' = x[2]\n");
}

TEST(Expressions, IndexOutOfRangeNamesTheValueAndTheRange) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "parameter N = 3;\n"
                           "variable x[N];\n"
                           "equation\n"
                           "  for i in 1:N loop\n"
                           "    x[i]' = x[i+1];\n"
                           "  end for;\n"
                           "  x[0] = 1;\n"
                           "end\n"),
            "test.dae:6:15: error: index 4 of 'x' is out of range 1..3 (at i = 3)\n"
            "    x[i]' = x[i+1];\n"
            "              ^\n"
            "test.dae:8:5: error: index 0 of 'x' is out of range 1..3\n"
            "  x[0] = 1;\n"
            "    ^\n");
}

TEST(Expressions, IndexOutOfRangeInTwoDimensions) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable A[2, 3];\n"
                           "equation\n"
                           "  for i in 1:2 loop\n"
                           "    for j in 1:3 loop\n"
                           "      A[j, i] = 1;\n"
                           "    end for;\n"
                           "  end for;\n"
                           "end\n"),
            "test.dae:6:9: error: index 3 of 'A' is out of range 1..2 (dimension 1) (at i = 1, "
            "j = 3)\n"
            "      A[j, i] = 1;\n"
            "        ^\n");
}

TEST(Expressions, IndexMustBeAConstantWholeNumber) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "parameter g = 9.81;\n"
                           "variable x[3], y;\n"
                           "equation\n"
                           "  x[1] = x[y];\n"
                           "  x[2] = x[3/2];\n"
                           "  x[3] = x[t];\n"
                           "  y = x[pi];\n"
                           "end\n"),
            "test.dae:5:12: error: the index of 'x' must be constant, but uses variable 'y'\n"
            "  x[1] = x[y];\n"
            "           ^\n"
            "test.dae:6:12: error: the index of 'x' must be a whole number, but is 3/2\n"
            "  x[2] = x[3/2];\n"
            "           ^\n"
            "test.dae:7:12: error: the index of 'x' must be constant, but uses time 't'\n"
            "  x[3] = x[t];\n"
            "           ^\n"
            "test.dae:8:9: error: the index of 'x' must be a whole number, but is pi\n"
            "  y = x[pi];\n"
            "        ^\n");
}

TEST(Expressions, ArrayWithoutIndexAndScalarWithOne) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "parameter k = 2;\n"
                           "variable x[2], A[2, 2], y;\n"
                           "equation\n"
                           "  x[1] = x;\n"
                           "  x[2] = y[1] + k[1];\n"
                           "  y = A + der(x);\n"
                           "  A[1] = 1;\n"
                           "end\n"),
            "test.dae:5:10: error: array 'x' is used without an index (write x[i] for an "
            "element)\n"
            "  x[1] = x;\n"
            "         ^\n"
            "test.dae:6:10: error: 'y' is not an array and cannot be indexed\n"
            "  x[2] = y[1] + k[1];\n"
            "         ^\n"
            "test.dae:6:17: error: 'k' is not an array and cannot be indexed\n"
            "  x[2] = y[1] + k[1];\n"
            "                ^\n"
            "test.dae:7:7: error: array 'A' is used without an index (write A[i, j] for an "
            "element)\n"
            "  y = A + der(x);\n"
            "      ^\n"
            "test.dae:7:15: error: array 'x' is used without an index (write x[i] for an "
            "element)\n"
            "  y = A + der(x);\n"
            "              ^\n"
            "test.dae:8:3: error: 'A' has 2 dimensions, but 1 index is given\n"
            "  A[1] = 1;\n"
            "  ^\n");
}

TEST(Expressions, IndexedNamesThatAreNoArrays) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable x[2];\n"
                           "equation\n"
                           "  for i in 1:2 loop\n"
                           "    x[i] = i[1] + t[1] + sin[1] + q[1];\n"
                           "  end for;\n"
                           "end\n"),
            "test.dae:5:12: error: 'i' is a loop variable, not an array\n"
            "    x[i] = i[1] + t[1] + sin[1] + q[1];\n"
            "           ^\n"
            "test.dae:5:19: error: 't' is not an array and cannot be indexed\n"
            "    x[i] = i[1] + t[1] + sin[1] + q[1];\n"
            "                  ^\n"
            "test.dae:5:26: error: 'sin' is a function; call it as sin(...)\n"
            "    x[i] = i[1] + t[1] + sin[1] + q[1];\n"
            "                         ^\n"
            "test.dae:5:35: error: use of undeclared name 'q'\n"
            "    x[i] = i[1] + t[1] + sin[1] + q[1];\n"
            "                                  ^\n");
}

// ---- loop variables ----

TEST(Expressions, LoopVariablesAreNumbers) {
  EXPECT_EQ(equations_of("model m;\n"
                         "variable x[3];\n"
                         "equation\n"
                         "  for i in 1:3 loop\n"
                         "    x[i] = i^2*t + 1/i;\n"
                         "  end for;\n"
                         "end\n"),
            "eq1[1]: x[1] = t + 1\n"
            "eq1[2]: x[2] = 4*t + 1/2\n"
            "eq1[3]: x[3] = 9*t + 1/3\n");
}

TEST(Expressions, LoopVariableMayNotShadowADeclaredName) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "parameter k = 1;\n"
                           "variable x[2];\n"
                           "equation\n"
                           "  for k in 1:2 loop\n"
                           "    x[k] = 1;\n"
                           "  end for;\n"
                           "end\n"),
            "test.dae:5:7: error: loop variable 'k' shadows the declared name 'k' (choose another "
            "name)\n"
            "  for k in 1:2 loop\n"
            "      ^\n"
            "test.dae:2:11: note: 'k' is declared here\n"
            "parameter k = 1;\n"
            "          ^\n");
}

TEST(Expressions, LoopVariableMayNotShadowAnEnclosingOne) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable x[2], y;\n"
                           "equation\n"
                           "  for i in 1:2 loop\n"
                           "    x[i] = sum(i for i in 1:3);\n"
                           "  end for;\n"
                           "  y = sum(sum(i*j for j in 1:2) for i in 1:2);\n"
                           "end\n"),
            "test.dae:5:22: error: loop variable 'i' shadows the loop variable of an enclosing "
            "loop\n"
            "    x[i] = sum(i for i in 1:3);\n"
            "                     ^\n");
}

TEST(Expressions, ReservedWordsAndTimeAreNoLoopVariables) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable y;\n"
                           "equation\n"
                           "  y = sum(t for t in 1:2) + sum(1 for pi in 1:2);\n"
                           "end\n"),
            "test.dae:4:17: error: 't' is reserved and cannot be a loop variable: it stands for "
            "time\n"
            "  y = sum(t for t in 1:2) + sum(1 for pi in 1:2);\n"
            "                ^\n"
            "test.dae:4:39: error: 'pi' is reserved and cannot be a loop variable: it stands for "
            "the constant 3.14159...\n"
            "  y = sum(t for t in 1:2) + sum(1 for pi in 1:2);\n"
            "                                      ^\n");
}

TEST(Expressions, DerivativeOfALoopVariable) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable x[2];\n"
                           "equation\n"
                           "  for i in 1:2 loop\n"
                           "    x[i] = i';\n"
                           "  end for;\n"
                           "end\n"),
            "test.dae:5:12: error: derivative of loop variable 'i': it is constant in each "
            "iteration\n"
            "    x[i] = i';\n"
            "           ^\n");
}

TEST(Expressions, LoopVariableOutsideItsLoop) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable x[2], y;\n"
                           "equation\n"
                           "  for i in 1:2 loop\n"
                           "    x[i] = 1;\n"
                           "  end for;\n"
                           "  y = i;\n"
                           "end\n"),
            "test.dae:7:7: error: use of undeclared name 'i'\n"
            "  y = i;\n"
            "      ^\n");
}

// ---- sums and products ----

TEST(Expressions, SumsAndProducts) {
  EXPECT_EQ(
      equations_of(
          "model m;\n"
          "parameter N = 4;\n"
          "variable x[N], s, p;\n"
          "equation\n"
          "  for i in 1:N loop\n"
          "    x[i] = i*t;\n"
          "  end for;\n"
          "  s = sum(x[i]^2 for i in 1:N);\n"
          "  p = product(i for i in 1:N) + sum(1 for i in 3:2) + product(x[i] for i in 2:1);\n"
          "end\n"),
      "eq1[1]: x[1] = t\n"
      "eq1[2]: x[2] = 2*t\n"
      "eq1[3]: x[3] = 3*t\n"
      "eq1[4]: x[4] = 4*t\n"
      "eq2: s = x[1]^2 + x[2]^2 + x[3]^2 + x[4]^2\n"
      "eq3: p = 25\n");
}

// ---- conditions ----

TEST(Expressions, ConditionsDecidedWhileFlatteningSelectTheirBranch) {
  // At i = 1 and i = 3 the branch not taken would index out of range: it is never formed.
  EXPECT_EQ(equations_of("model m;\n"
                         "variable x[3];\n"
                         "equation\n"
                         "  for i in 1:3 loop\n"
                         "    x[i] = (if i == 1 then 0 else x[i-1]) + (if i < 3 then x[i+1] else "
                         "t);\n"
                         "  end for;\n"
                         "end\n"),
            "eq1[1]: x[1] = x[2]\n"
            "eq1[2]: x[2] = x[1] + x[3]\n"
            "eq1[3]: x[3] = t + x[2]\n");
}

TEST(Expressions, AndOrStopAtADecidingOperand) {
  EXPECT_EQ(equations_of("model m;\n"
                         "variable x[2];\n"
                         "equation\n"
                         "  for i in 1:2 loop\n"
                         "    x[i] = if i > 1 and x[i-1] > 0 then 1 elseif i == 1 or x[i-1] < 0 "
                         "then 2 else 3;\n"
                         "  end for;\n"
                         "end\n"),
            "eq1[1]: x[1] = 2\n"
            "eq1[2]: x[2] = if x[1] > 0 then 1 elseif x[1] < 0 then 2 else 3\n");
}

TEST(Expressions, ConditionsOnTheSolutionStay) {
  EXPECT_EQ(equations_of("model m;\n"
                         "parameter R1 = 0.1, R2 = 100;\n"
                         "variable v, i, u;\n"
                         "equation\n"
                         "  u = sin(t);\n"
                         "  i = if v > 0 then v/R1 else v/R2;\n"
                         "  u = v + i;\n"
                         "end\n"),
            "eq1: u = sin(t)\n"
            "eq2: i = if v > 0 then v/R1 else v/R2\n"
            "eq3: u = i + v\n");
}

TEST(Expressions, MinAndMaxAreFunctions) {
  EXPECT_EQ(equations_of("model m;\n"
                         "parameter umax = 1, k = 10;\n"
                         "variable x, u;\n"
                         "equation\n"
                         "  x' = u - x;\n"
                         "  u = max(-umax, min(umax, k*(1 - x)));\n"
                         "end\n"),
            "eq1: x' = u - x\n"
            "eq2: u = max(-umax, min(umax, -k*(x - 1)))\n");
}

TEST(Expressions, ConditionUsedAsANumber) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable x, y;\n"
                           "equation\n"
                           "  x = 2*(t > 1);\n"
                           "  y = x < 1;\n"
                           "end\n"),
            "test.dae:4:12: error: a condition cannot be used as a number (write 'if C then 1 "
            "else 0' for its value)\n"
            "  x = 2*(t > 1);\n"
            "           ^\n"
            "test.dae:5:9: error: a condition cannot be used as a number (write 'if C then 1 else "
            "0' for its value)\n"
            "  y = x < 1;\n"
            "        ^\n");
}

TEST(Expressions, NumberUsedAsACondition) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable x;\n"
                           "equation\n"
                           "  x = if t then 1 else 0;\n"
                           "end\n"),
            "test.dae:4:10: error: expected a condition here (a relation such as 'x > 0'), found "
            "a number\n"
            "  x = if t then 1 else 0;\n"
            "         ^\n");
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable x;\n"
                           "equation\n"
                           "  x = if t > 1 and 2 then 1 else 0;\n"
                           "end\n"),
            "test.dae:4:20: error: expected a condition here (a relation such as 'x > 0'), found "
            "a number\n"
            "  x = if t > 1 and 2 then 1 else 0;\n"
            "                   ^\n");
}

TEST(Expressions, ConditionsInParameterValues) {
  auto result =
      run("model m;\n"
          "parameter a = 0, b = if a > 0 then log(a) else -1, c = max(a, 2);\n"
          "variable x;\n"
          "equation\n"
          "  x = b + c;\n"
          "end\n");
  ASSERT_TRUE(result->model) << result->diagnostics();
  EXPECT_EQ(result->model->parameters[1].value, -1);  // log(0) is in the branch not taken
  EXPECT_EQ(result->model->parameters[2].value, 2);
}

TEST(Expressions, ErrorsInALoopAreReportedOncePerPlace) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "parameter N = 1000;\n"
                           "variable x[N];\n"
                           "equation\n"
                           "  for i in 1:N loop\n"
                           "    x[i] = undeclared + x[i+2];\n"
                           "  end for;\n"
                           "end\n"),
            "test.dae:6:12: error: use of undeclared name 'undeclared'\n"
            "    x[i] = undeclared + x[i+2];\n"
            "           ^\n"
            "test.dae:6:27: error: index 1001 of 'x' is out of range 1..1000 (at i = 999)\n"
            "    x[i] = undeclared + x[i+2];\n"
            "                          ^\n");
}

TEST(Expressions, DivisionByZeroInALoopNamesTheIteration) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable x[3];\n"
                           "equation\n"
                           "  for i in 1:3 loop\n"
                           "    x[i] = t/(i - 2);\n"
                           "  end for;\n"
                           "end\n"),
            "test.dae:5:13: error: division by zero (at i = 2)\n"
            "    x[i] = t/(i - 2);\n"
            "            ^\n");
}

}  // namespace
}  // namespace daec
