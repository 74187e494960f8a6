// Tests of when clauses in the front end (src/frontend/when_clauses.*, the when_clause and reinit
// rules of src/frontend/parser.cpp): the Model's WhenClause list, and every diagnostic by its exact
// printed text.
#include "frontend/when_clauses.h"

#include <gtest/gtest.h>

#include <string>

#include "model/expression_printer.h"
#include "test_util.h"

namespace daec {
namespace {

using test::run;

// A model with a differential h, a second-order x, an algebraic lambda, a parameter and an
// output; `statements` go into its equation section.
std::string ball(const std::string& statements) {
  return "model m;\n"
         "parameter e = 0.8;\n"
         "variable h, v, x, lambda;\n"
         "output o = v;\n"
         "equation\n"
         "  h' = v;\n"
         "  v' = -9.81 + lambda;\n"
         "  x'' = -x;\n"
         "  lambda = 0;\n" +
         statements + "end\n";
}

std::string diagnostics_of(const std::string& text) {
  return run(text)->diagnostics();
}

TEST(WhenClauses, BecomeTheModelsClausesWithTargetsAndValues) {
  auto result =
      run(ball("  when h < 0 then\n    reinit(v, -e*v);\n    reinit(x', 0);\n  end when;\n"
               "  when x >  1 and   x' < 0 then reinit(h, x'); end when;\n"));
  ASSERT_TRUE(result->model) << result->diagnostics();
  const Model& model = *result->model;
  EXPECT_EQ(4u, model.equations.size());  // a when clause adds no equation
  ASSERT_EQ(2u, model.when_clauses.size());
  const WhenClause& bounce = model.when_clauses[0];
  EXPECT_EQ("when h < 0", bounce.name);
  EXPECT_EQ("h < 0", to_dae(bounce.condition));
  ASSERT_EQ(2u, bounce.reinits.size());
  EXPECT_EQ("v", bounce.reinits[0].target);
  EXPECT_EQ(1u, bounce.reinits[0].variable);
  EXPECT_EQ(0, bounce.reinits[0].order);
  EXPECT_EQ("-e*v", to_dae(bounce.reinits[0].value));
  EXPECT_EQ("x'", bounce.reinits[1].target);
  EXPECT_EQ(2u, bounce.reinits[1].variable);
  EXPECT_EQ(1, bounce.reinits[1].order);
  // White space as one space; a condition may use the velocity x' of x'', a value any x'.
  EXPECT_EQ("when x > 1 and x' < 0", model.when_clauses[1].name);
}

TEST(WhenClauses, InALoopOneClausePerIterationNamedByIt) {
  auto result =
      run("model m;\nvariable x[2], s[2];\nequation\n"
          "  for i in 1:2 loop\n"
          "    x[i]' = s[i];\n    s[i]' = 0;\n"
          "    when x[i] > 1 then reinit(s[i], -1); end when;\n"
          "  end for;\nend\n");
  ASSERT_TRUE(result->model) << result->diagnostics();
  ASSERT_EQ(2u, result->model->when_clauses.size());
  EXPECT_EQ("when x[i] > 1 (at i = 2)", result->model->when_clauses[1].name);
  EXPECT_EQ("s[2]", result->model->when_clauses[1].reinits[0].target);
}

TEST(WhenClauses, ReinitOfAnAlgebraicVariable) {
  EXPECT_EQ(
      "test.dae:10:19: error: reinit(lambda, ...): 'lambda' is algebraic (no equation has its "
      "derivative); reinit sets a differential variable, or the velocity x' of a variable whose "
      "x'' appears\n"
      "  when h < 0 then reinit(lambda, 1); end when;\n"
      "                  ^\n",
      diagnostics_of(ball("  when h < 0 then reinit(lambda, 1); end when;\n")));
}

TEST(WhenClauses, ReinitOfAParameterOrAnOutput) {
  EXPECT_EQ(
      "test.dae:10:26: error: reinit(e, ...): 'e' is a parameter; reinit sets a differential "
      "variable, or the velocity x' of a variable whose x'' appears\n"
      "  when h < 0 then reinit(e, 1); end when;\n"
      "                         ^\n",
      diagnostics_of(ball("  when h < 0 then reinit(e, 1); end when;\n")));
  EXPECT_EQ(
      "test.dae:10:26: error: reinit(o, ...): 'o' is not a variable; reinit sets a differential "
      "variable, or the velocity x' of a variable whose x'' appears\n"
      "  when h < 0 then reinit(o, 1); end when;\n"
      "                         ^\n",
      diagnostics_of(ball("  when h < 0 then reinit(o, 1); end when;\n")));
}

TEST(WhenClauses, ReinitOfAnUnknownName) {
  EXPECT_EQ(
      "test.dae:10:26: error: use of undeclared name 'q'\n"
      "  when h < 0 then reinit(q, 1); end when;\n"
      "                         ^\n",
      diagnostics_of(ball("  when h < 0 then reinit(q, 1); end when;\n")));
}

TEST(WhenClauses, ReinitOfTheDerivativeOfAFirstOrderVariable) {
  EXPECT_EQ(
      "test.dae:10:19: error: reinit(h', ...): h' is not a state (the equations use 'h' only up "
      "to h'); reinit sets a differential variable, or the velocity x' of a variable whose x'' "
      "appears\n"
      "  when h < 0 then reinit(h', 1); end when;\n"
      "                  ^\n",
      diagnostics_of(ball("  when h < 0 then reinit(h', 1); end when;\n")));
}

TEST(WhenClauses, ReinitOutsideWhen) {
  EXPECT_EQ(
      "test.dae:10:3: error: 'reinit' is allowed only inside a 'when' clause: when C then "
      "reinit(x, value); end when;\n"
      "  reinit(v, 1);\n"
      "  ^\n",
      diagnostics_of(ball("  reinit(v, 1);\n")));
  EXPECT_EQ(
      "test.dae:10:7: error: 'reinit' is allowed only inside a 'when' clause: when C then "
      "reinit(x, value); end when;\n"
      "  h = reinit(v, 1);\n"
      "      ^\n",
      diagnostics_of(ball("  h = reinit(v, 1);\n")));
}

TEST(WhenClauses, ConditionThatIsNotACondition) {
  EXPECT_EQ(
      "test.dae:10:8: error: expected a condition here (a relation such as 'x > 0'), found a "
      "number\n"
      "  when h then reinit(v, 1); end when;\n"
      "       ^\n",
      diagnostics_of(ball("  when h then reinit(v, 1); end when;\n")));
  EXPECT_EQ(
      "test.dae:10:3: error: the condition of 'when 1 < 0' is constant (it compares no variable "
      "and not t), so it never becomes true at an instant\n"
      "  when 1 < 0 then reinit(v, -v); end when;\n"
      "  ^\n",
      diagnostics_of(ball("  when 1 < 0 then reinit(v, -v); end when;\n")));
}

TEST(WhenClauses, ConditionOnAnAlgebraicVariable) {
  EXPECT_EQ(
      "test.dae:10:3: error: the condition of 'when lambda < 0' uses lambda, which is not a "
      "state; a when condition may use t, parameters, differential variables and the "
      "velocities x' of variables whose x'' appears\n"
      "  when lambda < 0 then reinit(v, -v); end when;\n"
      "  ^\n",
      diagnostics_of(ball("  when lambda < 0 then reinit(v, -v); end when;\n")));
}

TEST(WhenClauses, WhenWithoutReinit) {
  EXPECT_EQ(
      "test.dae:10:3: error: 'when h < 0' has no 'reinit': a when clause acts only through "
      "reinit(x, value);\n"
      "  when h < 0 then end when;\n"
      "  ^\n",
      diagnostics_of(ball("  when h < 0 then end when;\n")));
}

TEST(WhenClauses, SyntaxErrorInsideIsReportedOnceAndTheModelGoesOn) {
  EXPECT_EQ(
      "test.dae:10:33: error: expected ';' after 'reinit(...)', found 'end'\n"
      "  when h < 0 then reinit(v, -v) end when;\n"
      "                                ^\n"
      "test.dae:11:7: error: use of undeclared name 'zz'\n"
      "  h = zz;\n"
      "      ^\n",
      diagnostics_of(ball("  when h < 0 then reinit(v, -v) end when;\n  h = zz;\n")));
}

TEST(WhenClauses, NotInTheInitialEquationSection) {
  EXPECT_EQ(
      "test.dae:6:3: error: 'when' is not allowed in the initial equation section (it acts "
      "during the simulation; write it in the equation section)\n"
      "  when x > 1 then reinit(x, 0); end when;\n"
      "  ^\n",
      diagnostics_of("model m;\nvariable x;\nequation\n  x' = 1;\ninitial equation\n"
                     "  when x > 1 then reinit(x, 0); end when;\nend\n"));
}

// One clause giving a state two values at one instant: an error at the second, a note at the
// first. A variable and its velocity are two states.
TEST(WhenClauses, TwoReinitsOfOneStateInOneClause) {
  auto result =
      run(ball("  when h < 0 then\n    reinit(v, -e*v);\n    reinit(x', 0);\n    reinit(v, 0);\n"
               "    reinit(x, 1);\n  end when;\n"));
  EXPECT_FALSE(result->model);
  EXPECT_EQ(
      "test.dae:13:5: error: 'when h < 0' sets v twice; a when clause may reinit each state once\n"
      "    reinit(v, 0);\n"
      "    ^\n"
      "test.dae:11:5: note: the first reinit(v, ...) is here\n"
      "    reinit(v, -e*v);\n"
      "    ^\n",
      result->diagnostics());
}

// Two clauses may fire at one instant, where the later one's value is kept: a warning at the
// later reinit naming both clauses, a note at the earlier; the model is still compiled.
TEST(WhenClauses, OneStateReinitInTwoClauses) {
  auto result =
      run(ball("  when h < 0 then reinit(v, -e*v); end when;\n"
               "  when x > 1 then reinit(x', 0); reinit(v, 0); end when;\n"));
  EXPECT_TRUE(result->model);
  EXPECT_EQ(
      "test.dae:11:34: warning: 'when x > 1' sets v, which 'when h < 0' also reinits: at an "
      "instant where both clauses fire, the value of 'when x > 1' (the later one) is kept\n"
      "  when x > 1 then reinit(x', 0); reinit(v, 0); end when;\n"
      "                                 ^\n"
      "test.dae:10:19: note: 'when h < 0' reinits v here\n"
      "  when h < 0 then reinit(v, -e*v); end when;\n"
      "                  ^\n",
      result->diagnostics());
}

// Clauses whose conditions cannot hold at one instant never fire together (a relay's x > 1 and
// x < -1): no warning. 1 - x > 3 (x < -2) excludes x > 1 but not x < -1: warned, naming that one.
TEST(WhenClauses, ClausesWhoseConditionsExcludeOneAnotherMayReinitOneState) {
  const std::string relay =
      "  when x > 1 then reinit(v, 0); end when;\n  when x < -1 then reinit(v, 1); end when;\n";
  auto clean = run(ball(relay));
  EXPECT_TRUE(clean->model);
  EXPECT_EQ("", clean->diagnostics());
  EXPECT_EQ(
      "test.dae:12:33: warning: 'when 1 - x > 3 and h < 0' sets v, which 'when x < -1' also "
      "reinits: at an instant where both clauses fire, the value of 'when 1 - x > 3 and h < 0' "
      "(the later one) is kept\n"
      "  when 1 - x > 3 and h < 0 then reinit(v, 2); end when;\n"
      "                                ^\n"
      "test.dae:11:20: note: 'when x < -1' reinits v here\n"
      "  when x < -1 then reinit(v, 1); end when;\n"
      "                   ^\n",
      diagnostics_of(ball(relay + "  when 1 - x > 3 and h < 0 then reinit(v, 2); end when;\n")));
}

// A clause in a loop that sets one state in every iteration: one warning, at its one place.
TEST(WhenClauses, OneStateReinitByEveryIterationOfALoop) {
  auto result = run(
      "model m;\nvariable x[3], s;\nequation\n"
      "  for i in 1:3 loop\n    x[i]' = s;\n  end for;\n  s' = 0;\n"
      "  for i in 1:3 loop\n    when x[i] > 1 then reinit(s, -1); end when;\n  end for;\nend\n");
  EXPECT_TRUE(result->model);
  EXPECT_EQ(
      "test.dae:9:24: warning: 'when x[i] > 1 (at i = 2)' sets s, which 'when x[i] > 1 (at i = "
      "1)' also reinits: at an instant where both clauses fire, the value of 'when x[i] > 1 (at "
      "i = 2)' (the later one) is kept\n"
      "    when x[i] > 1 then reinit(s, -1); end when;\n"
      "                       ^\n",
      result->diagnostics());
}

TEST(WhenClauses, WhenAndReinitAreReserved) {
  EXPECT_EQ(
      "test.dae:2:10: error: expected a name in a variable declaration, found the reserved word "
      "'reinit'\n"
      "variable reinit;\n"
      "         ^\n",
      diagnostics_of("model m;\nvariable reinit;\nequation\nend\n"));
}

}  // namespace
}  // namespace daec
