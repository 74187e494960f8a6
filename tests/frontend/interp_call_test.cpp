// Tests of interp(v, XS, YS) in the front end (src/frontend/interp_call.cpp): the call lowered to
// its conditional segments, the syntax tree keeping the call as written, and every diagnostic of
// its arguments by its exact printed text.
#include <gtest/gtest.h>

#include <string>

#include "frontend/lexer.h"
#include "frontend/parser.h"
#include "model/expression_printer.h"
#include "test_util.h"

namespace daec {
namespace {

using test::run;

std::string diagnostics_of(const std::string& text) {
  return run(text)->diagnostics();
}

// A model with the table ts, us and the equation `u = CALL;` (line 6).
std::string table_model(const std::string& call, const std::string& ts = "{0, 1, 3}",
                        const std::string& us = "{0, 2, 2}") {
  return "model m;\n"
         "parameter a = 1, ts[3] = " +
         ts + ", us[3] = " + us +
         ", w[2] = {0, 1}, A[2, 2] = 1;\n"
         "variable x(start = 0), u;\n"
         "equation\n"
         "  x' = u - x;\n"
         "  u = " +
         call +
         ";\n"
         "end\n";
}

TEST(InterpCall, LowersToSegmentsConstantOutside) {
  auto result = run(table_model("interp(t, ts, us)"));
  ASSERT_EQ(result->diagnostics(), "");
  ASSERT_TRUE(result->model);
  EXPECT_EQ(to_dae(result->model->equations[1].rhs),
            "if t < ts[2] then (if t < ts[1] then us[1] else (t - ts[1])*(us[1] - us[2])/(ts[1] - "
            "ts[2]) + us[1]) elseif t < ts[3] then (t - ts[2])*(us[2] - us[3])/(ts[2] - ts[3]) + "
            "us[2] else us[3]");
  // Each pair of consecutive breakpoints is an order set_parameter keeps (parameter indices).
  const auto& orders = result->model->parameter_orders;
  ASSERT_EQ(orders.size(), 2u);
  EXPECT_EQ(orders[0].lower, 1u);
  EXPECT_EQ(orders[0].upper, 2u);
  EXPECT_EQ(orders[1].lower, 2u);
  EXPECT_EQ(orders[1].upper, 3u);
}

TEST(InterpCall, TheSyntaxTreeKeepsTheCall) {
  DiagnosticEngine diags;
  SourceFile file("test.dae", table_model("2*interp(x, ts, us)"));
  ModelSyntax syntax = parse(lex(file, diags), diags);
  ASSERT_EQ(diags.error_count(), 0u);
  const Expr& product = *syntax.equations[1].rhs;
  ASSERT_EQ(product.kind, ExprKind::Product);
  const Expr& call = *product.operands[1];
  EXPECT_EQ(call.kind, ExprKind::Call);
  EXPECT_EQ(call.text, "interp");
  ASSERT_EQ(call.operands.size(), 3u);
  EXPECT_EQ(call.operands[1]->text, "ts");
}

TEST(InterpCall, ATableUsedTwiceKeepsItsOrdersOnce) {
  auto result = run(table_model("interp(t, ts, us) + interp(x, ts, us) + interp(t, w, w)"));
  ASSERT_EQ(result->diagnostics(), "");
  EXPECT_EQ(result->model->parameter_orders.size(), 3u);
}

TEST(InterpCall, WrongNumberOfArguments) {
  EXPECT_EQ(diagnostics_of(table_model("interp(t, ts)")),
            "test.dae:6:7: error: 'interp' takes 3 arguments, but 2 were given\n"
            "  u = interp(t, ts);\n"
            "      ^\n");
}

TEST(InterpCall, TablesMustBeNamesOfOneDimensionalParameterArrays) {
  EXPECT_EQ(
      diagnostics_of(table_model("interp(t, x, us) + interp(t, ts, a) + interp(t, ts[1]*2, us) + "
                                 "interp(t, A, us) + interp(t, ts, q) + interp(t, t, us)")),
      "test.dae:6:17: error: 'interp' takes the name of a one-dimensional parameter array as its "
      "second argument (the breakpoints XS), not variable 'x'\n"
      "  u = interp(t, x, us) + interp(t, ts, a) + interp(t, ts[1]*2, us) + interp(t, A, us) + "
      "interp(t, ts, q) + interp(t, t, us);\n"
      "                ^\n"
      "test.dae:6:40: error: 'interp' takes the name of a one-dimensional parameter array as its "
      "third argument (the values YS), not scalar parameter 'a'\n"
      "  u = interp(t, x, us) + interp(t, ts, a) + interp(t, ts[1]*2, us) + interp(t, A, us) + "
      "interp(t, ts, q) + interp(t, t, us);\n"
      "                                       ^\n"
      "test.dae:6:55: error: 'interp' takes the name of a one-dimensional parameter array as its "
      "second argument (the breakpoints XS), not an expression\n"
      "  u = interp(t, x, us) + interp(t, ts, a) + interp(t, ts[1]*2, us) + interp(t, A, us) + "
      "interp(t, ts, q) + interp(t, t, us);\n"
      "                                                      ^\n"
      "test.dae:6:80: error: 'interp' takes the name of a one-dimensional parameter array as its "
      "second argument (the breakpoints XS), not two-dimensional parameter 'A'\n"
      "  u = interp(t, x, us) + interp(t, ts, a) + interp(t, ts[1]*2, us) + interp(t, A, us) + "
      "interp(t, ts, q) + interp(t, t, us);\n"
      "                                                                               ^\n"
      "test.dae:6:103: error: use of undeclared name 'q'\n"
      "  u = interp(t, x, us) + interp(t, ts, a) + interp(t, ts[1]*2, us) + interp(t, A, us) + "
      "interp(t, ts, q) + interp(t, t, us);\n"
      "                                                                                            "
      "          ^\n"
      "test.dae:6:118: error: 'interp' takes the name of a one-dimensional parameter array as its "
      "second argument (the breakpoints XS), not time 't'\n"
      "  u = interp(t, x, us) + interp(t, ts, a) + interp(t, ts[1]*2, us) + interp(t, A, us) + "
      "interp(t, ts, q) + interp(t, t, us);\n"
      "                                                                                            "
      "                         ^\n");
}

TEST(InterpCall, LoopVariablesAndConstantsAreNoTables) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "parameter us[2] = {0, 1};\n"
                           "variable u[2];\n"
                           "equation\n"
                           "  for i in 1:2 loop\n"
                           "    u[i] = interp(t, i, us) + interp(t, us, pi);\n"
                           "  end for;\n"
                           "end\n"),
            "test.dae:6:22: error: 'interp' takes the name of a one-dimensional parameter array as "
            "its second argument (the breakpoints XS), not loop variable 'i'\n"
            "    u[i] = interp(t, i, us) + interp(t, us, pi);\n"
            "                     ^\n"
            "test.dae:6:45: error: 'interp' takes the name of a one-dimensional parameter array as "
            "its third argument (the values YS), not the constant 'pi'\n"
            "    u[i] = interp(t, i, us) + interp(t, us, pi);\n"
            "                                            ^\n");
}

TEST(InterpCall, TablesOfDifferentLengths) {
  EXPECT_EQ(diagnostics_of(table_model("interp(t, ts, w)")),
            "test.dae:6:7: error: 'interp': the breakpoints 'ts' have 3 elements, but the values "
            "'w' have 2; a table needs one value per breakpoint\n"
            "  u = interp(t, ts, w);\n"
            "      ^\n");
}

TEST(InterpCall, ATableNeedsTwoPoints) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "parameter ts[1] = {0}, us[1] = {1};\n"
                           "variable u;\n"
                           "equation\n"
                           "  u = interp(t, ts, us);\n"
                           "end\n"),
            "test.dae:5:7: error: 'interp': the table 'ts' has 1 point; interpolation needs at "
            "least 2\n"
            "  u = interp(t, ts, us);\n"
            "      ^\n");
}

TEST(InterpCall, BreakpointsMustIncreaseStrictly) {
  EXPECT_EQ(diagnostics_of(table_model("interp(t, ts, us)", "{0, 2, 2}")),
            "test.dae:6:17: error: 'interp': the breakpoints 'ts' must increase strictly, but "
            "ts[3] = 2 is not greater than ts[2] = 2\n"
            "  u = interp(t, ts, us);\n"
            "                ^\n");
  EXPECT_EQ(diagnostics_of(table_model("interp(t, ts, us)", "{0, 1.5, -0.25}")),
            "test.dae:6:17: error: 'interp': the breakpoints 'ts' must increase strictly, but "
            "ts[3] = -0.25 is not greater than ts[2] = 1.5\n"
            "  u = interp(t, ts, us);\n"
            "                ^\n");
}

TEST(InterpCall, IsReserved) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "parameter interp = 1;\n"
                           "variable u;\n"
                           "equation\n"
                           "  u = interp;\n"
                           "end\n"),
            "test.dae:2:11: error: 'interp' is reserved and cannot be declared: it is a built-in "
            "function\n"
            "parameter interp = 1;\n"
            "          ^\n"
            "test.dae:5:7: error: 'interp' is a function; call it as interp(...)\n"
            "  u = interp;\n"
            "      ^\n");
}

}  // namespace
}  // namespace daec
