// Tests of the semantic checks (src/frontend/sema.cpp): every diagnostic by its exact printed
// text, with its line and column, and the Model that a correct file produces.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "frontend/constants.h"
#include "frontend/sema.h"
#include "model/evaluation.h"
#include "test_util.h"

namespace {

using daec::test::run;

// The printed diagnostics of a model given as text.
std::string diagnostics_of(const std::string& text) {
  return run(text)->diagnostics();
}

// ---- names ----

TEST(Sema, UndeclaredNameWithSuggestion) {
  EXPECT_EQ(
      "test.dae:5:15: error: use of undeclared name 'alpah'; did you mean 'alpha'?\n"
      "  x = alpha + alpah;\n"
      "              ^\n",
      diagnostics_of("model m;\n"
                     "parameter alpha = 1;\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = alpha + alpah;\n"
                     "end\n"));
}

TEST(Sema, UndeclaredNameWithoutSuggestionWhenNothingIsClose) {
  EXPECT_EQ(
      "test.dae:5:7: error: use of undeclared name 'zzz'\n"
      "  x = zzz;\n"
      "      ^\n",
      diagnostics_of("model m;\n"
                     "parameter alpha = 1;\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = zzz;\n"
                     "end\n"));
}

TEST(Sema, UndeclaredOneLetterNameDoesNotSuggestAnotherLetter) {
  // `y` and `x` share nothing: suggesting `x` would be noise.
  EXPECT_EQ(
      "test.dae:4:7: error: use of undeclared name 'y'\n"
      "  x = y;\n"
      "      ^\n",
      diagnostics_of("model m;\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = y;\n"
                     "end\n"));
}

TEST(Sema, UndeclaredNameInsideDerivative) {
  EXPECT_EQ(
      "test.dae:4:7: error: use of undeclared name 'xx'; did you mean 'x'?\n"
      "  der(xx) = x;\n"
      "      ^\n",
      diagnostics_of("model m;\n"
                     "variable x;\n"
                     "equation\n"
                     "  der(xx) = x;\n"
                     "end\n"));
}

TEST(Sema, RedeclarationHasNoteAtPreviousDeclaration) {
  EXPECT_EQ(
      "test.dae:3:13: error: redeclaration of 'x'\n"
      "variable y, x;\n"
      "            ^\n"
      "test.dae:2:10: note: previous declaration of 'x' is here\n"
      "variable x;\n"
      "         ^\n",
      diagnostics_of("model m;\n"
                     "variable x;\n"
                     "variable y, x;\n"
                     "equation\n"
                     "  x = 1;\n"
                     "  y = 2;\n"
                     "end\n"));
}

TEST(Sema, RedeclarationAcrossKindsFollowsSourceOrder) {
  // The variable comes first in the file, so the parameter is the redeclaration, although
  // parameters are checked before variables.
  EXPECT_EQ(
      "test.dae:3:11: error: redeclaration of 'a'\n"
      "parameter a = 1;\n"
      "          ^\n"
      "test.dae:2:13: note: previous declaration of 'a' is here\n"
      "variable x, a;\n"
      "            ^\n",
      diagnostics_of("model m;\n"
                     "variable x, a;\n"
                     "parameter a = 1;\n"
                     "equation\n"
                     "  x = 1;\n"
                     "  a = 2;\n"
                     "end\n"));
}

TEST(Sema, OutputRedeclaringAParameter) {
  EXPECT_EQ(
      "test.dae:4:8: error: redeclaration of 'p'\n"
      "output p = x;\n"
      "       ^\n"
      "test.dae:2:11: note: previous declaration of 'p' is here\n"
      "parameter p = 1;\n"
      "          ^\n",
      diagnostics_of("model m;\n"
                     "parameter p = 1;\n"
                     "variable x;\n"
                     "output p = x;\n"
                     "equation\n"
                     "  x = p;\n"
                     "end\n"));
}

TEST(Sema, ReservedNamesCannotBeDeclared) {
  EXPECT_EQ(
      "test.dae:2:11: error: 't' is reserved and cannot be declared: it stands for time\n"
      "parameter t = 1, pi = 2;\n"
      "          ^\n"
      "test.dae:2:18: error: 'pi' is reserved and cannot be declared: it stands for the "
      "constant 3.14159...\n"
      "parameter t = 1, pi = 2;\n"
      "                 ^\n"
      "test.dae:3:10: error: 'sin' is reserved and cannot be declared: it is a built-in "
      "function\n"
      "variable sin, x;\n"
      "         ^\n",
      diagnostics_of("model m;\n"
                     "parameter t = 1, pi = 2;\n"
                     "variable sin, x;\n"
                     "equation\n"
                     "  x = 1;\n"
                     "end\n"));
}

TEST(Sema, IsReservedName) {
  for (const char* name : {"t", "pi", "der", "model", "start", "fixed", "true", "atan2", "sign"}) {
    EXPECT_TRUE(daec::is_reserved_name(name)) << name;
  }
  for (const char* name : {"x", "T", "time", "Pi", "sin2", "int", "x_dot"}) {
    EXPECT_FALSE(daec::is_reserved_name(name)) << name;
  }
}

TEST(Sema, KeywordCannotBeANameAtAll) {
  // A keyword is not even a name token: the parser rejects it.
  EXPECT_EQ(
      "test.dae:2:10: error: expected a name in a variable declaration, found the reserved word "
      "'der'\n"
      "variable der;\n"
      "         ^\n",
      diagnostics_of("model m;\n"
                     "variable der;\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = 1;\n"
                     "end\n"));
}

// ---- derivatives ----

// A model with parameter p, variables x and y and output o, whose one equation is `equation`.
std::string with_equation(const std::string& equation) {
  return "model m;\n"
         "parameter p = 1;\n"
         "variable x, y;\n"
         "output o = x;\n"
         "equation\n"
         "  " +
         equation +
         "\n"
         "end\n";
}

TEST(Sema, DerivativeOfParameter) {
  EXPECT_EQ(
      "test.dae:6:7: error: derivative of parameter 'p': parameters are constant\n"
      "  der(p) = x;\n"
      "      ^\n",
      diagnostics_of(with_equation("der(p) = x;")));
  EXPECT_EQ(
      "test.dae:6:3: error: derivative of parameter 'p': parameters are constant\n"
      "  p' = x;\n"
      "  ^\n",
      diagnostics_of(with_equation("p' = x;")));
}

TEST(Sema, DerivativeOfTime) {
  EXPECT_EQ(
      "test.dae:6:7: error: derivative of time 't' (it is 1)\n"
      "  der(t) = x;\n"
      "      ^\n",
      diagnostics_of(with_equation("der(t) = x;")));
}

TEST(Sema, DerivativeOfPi) {
  EXPECT_EQ(
      "test.dae:6:7: error: derivative of the constant 'pi'\n"
      "  der(pi) = x;\n"
      "      ^\n",
      diagnostics_of(with_equation("der(pi) = x;")));
}

TEST(Sema, DerivativeOfOutput) {
  EXPECT_EQ(
      "test.dae:6:3: error: derivative of output 'o': only variables can be differentiated\n"
      "  o' = x;\n"
      "  ^\n",
      diagnostics_of(with_equation("o' = x;")));
}

TEST(Sema, DerivativeOfFunctionName) {
  EXPECT_EQ(
      "test.dae:6:7: error: derivative of function name 'sin'\n"
      "  der(sin) = x;\n"
      "      ^\n",
      diagnostics_of(with_equation("der(sin) = x;")));
}

TEST(Sema, DerivativeOfExpression) {
  EXPECT_EQ(
      "test.dae:6:3: error: derivative of an expression: der() and ' apply to a variable name "
      "only\n"
      "  der(x+y) = x;\n"
      "  ^\n",
      diagnostics_of(with_equation("der(x+y) = x;")));
  EXPECT_EQ(
      "test.dae:6:8: error: derivative of an expression: der() and ' apply to a variable name "
      "only\n"
      "  (x*y)' = x;\n"
      "       ^\n",
      diagnostics_of(with_equation("(x*y)' = x;")));
}

TEST(Sema, DerivativesOnlyInEquations) {
  EXPECT_EQ(
      "test.dae:2:15: error: derivatives are not allowed in the value of parameter 'p'\n"
      "parameter p = der(x);\n"
      "              ^\n"
      "test.dae:3:21: error: derivatives are not allowed in the start value of 'x'\n"
      "variable x(start = x');\n"
      "                    ^\n"
      "test.dae:4:13: error: derivatives beyond the first (an output may use x', not x'') are "
      "not allowed in output 'o'\n"
      "output o = x'';\n"
      "            ^\n",
      diagnostics_of("model m;\n"
                     "parameter p = der(x);\n"
                     "variable x(start = x');\n"
                     "output o = x'';\n"
                     "equation\n"
                     "  x'' = 1;\n"
                     "end\n"));
}

// ---- functions ----

TEST(Sema, WrongArity) {
  EXPECT_EQ(
      "test.dae:6:7: error: 'atan2' takes 2 arguments, but 1 was given\n"
      "  x = atan2(x) + sin(x, y) + sin();\n"
      "      ^\n"
      "test.dae:6:18: error: 'sin' takes 1 argument, but 2 were given\n"
      "  x = atan2(x) + sin(x, y) + sin();\n"
      "                 ^\n"
      "test.dae:6:30: error: 'sin' takes 1 argument, but 0 were given\n"
      "  x = atan2(x) + sin(x, y) + sin();\n"
      "                             ^\n",
      diagnostics_of(with_equation("x = atan2(x) + sin(x, y) + sin();")));
}

TEST(Sema, UnknownFunctionWithSuggestion) {
  EXPECT_EQ(
      "test.dae:6:7: error: unknown function 'sinn'; did you mean 'sin'?\n"
      "  x = sinn(x);\n"
      "      ^\n",
      diagnostics_of(with_equation("x = sinn(x);")));
}

TEST(Sema, UnknownFunctionWithoutSuggestion) {
  EXPECT_EQ(
      "test.dae:6:7: error: unknown function 'frobnicate'\n"
      "  x = frobnicate(x);\n"
      "      ^\n",
      diagnostics_of(with_equation("x = frobnicate(x);")));
}

TEST(Sema, ErrorsInsideArgumentsOfUnknownFunctionAreReported) {
  EXPECT_EQ(
      "test.dae:6:7: error: unknown function 'sinn'; did you mean 'sin'?\n"
      "  x = sinn(zzz);\n"
      "      ^\n"
      "test.dae:6:12: error: use of undeclared name 'zzz'\n"
      "  x = sinn(zzz);\n"
      "           ^\n",
      diagnostics_of(with_equation("x = sinn(zzz);")));
}

TEST(Sema, CallingANameThatIsNotAFunction) {
  EXPECT_EQ(
      "test.dae:6:7: error: 'x' is a variable, not a function\n"
      "  x = x(1) + p(2) + t(3) + pi(4);\n"
      "      ^\n"
      "test.dae:6:14: error: 'p' is a parameter, not a function\n"
      "  x = x(1) + p(2) + t(3) + pi(4);\n"
      "             ^\n"
      "test.dae:6:21: error: 't' is time, not a function\n"
      "  x = x(1) + p(2) + t(3) + pi(4);\n"
      "                    ^\n"
      "test.dae:6:28: error: 'pi' is a constant, not a function\n"
      "  x = x(1) + p(2) + t(3) + pi(4);\n"
      "                           ^\n",
      diagnostics_of(with_equation("x = x(1) + p(2) + t(3) + pi(4);")));
}

TEST(Sema, FunctionNameWithoutCall) {
  EXPECT_EQ(
      "test.dae:6:11: error: 'sin' is a function; call it as sin(...)\n"
      "  x = 2 * sin;\n"
      "          ^\n",
      diagnostics_of(with_equation("x = 2 * sin;")));
}

// ---- parameters and start values ----

TEST(Sema, ParameterForwardReference) {
  EXPECT_EQ(
      "test.dae:2:15: error: parameter 'b' is used before its declaration (a parameter may use "
      "only parameters declared earlier)\n"
      "parameter a = b + 1, b = 2;\n"
      "              ^\n"
      "test.dae:2:22: note: 'b' is declared here\n"
      "parameter a = b + 1, b = 2;\n"
      "                     ^\n",
      diagnostics_of("model m;\n"
                     "parameter a = b + 1, b = 2;\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = a;\n"
                     "end\n"));
}

TEST(Sema, ParameterSelfReference) {
  EXPECT_EQ(
      "test.dae:2:17: error: parameter 'c' is defined in terms of itself\n"
      "parameter c = 2*c;\n"
      "                ^\n",
      diagnostics_of("model m;\n"
                     "parameter c = 2*c;\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = c;\n"
                     "end\n"));
}

TEST(Sema, ParameterCycleShowsPath) {
  EXPECT_EQ(
      "test.dae:2:15: error: parameters depend on each other in a cycle: a -> b -> a\n"
      "parameter a = b, b = a;\n"
      "              ^\n"
      "test.dae:2:18: note: 'b' is declared here\n"
      "parameter a = b, b = a;\n"
      "                 ^\n",
      diagnostics_of("model m;\n"
                     "parameter a = b, b = a;\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = a;\n"
                     "end\n"));
}

TEST(Sema, ParameterCycleOfThreeIsReportedOnce) {
  EXPECT_EQ(
      "test.dae:2:15: error: parameters depend on each other in a cycle: a -> b -> c -> a\n"
      "parameter a = b, b = c + 1, c = a;\n"
      "              ^\n"
      "test.dae:2:18: note: 'b' is declared here\n"
      "parameter a = b, b = c + 1, c = a;\n"
      "                 ^\n",
      diagnostics_of("model m;\n"
                     "parameter a = b, b = c + 1, c = a;\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = a;\n"
                     "end\n"));
}

TEST(Sema, ParameterUsingVariableOrTime) {
  EXPECT_EQ(
      "test.dae:2:15: error: the value of parameter 'f' must be constant, but uses variable 'x'\n"
      "parameter f = x, g = 2*t;\n"
      "              ^\n"
      "test.dae:2:24: error: the value of parameter 'g' must be constant, but uses time 't'\n"
      "parameter f = x, g = 2*t;\n"
      "                       ^\n",
      diagnostics_of("model m;\n"
                     "parameter f = x, g = 2*t;\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = 1;\n"
                     "end\n"));
}

TEST(Sema, ParameterUsingOutput) {
  EXPECT_EQ(
      "test.dae:4:15: error: 'o' is an output; outputs cannot be used in the value of parameter "
      "'p' (write its expression instead)\n"
      "parameter p = o;\n"
      "              ^\n",
      diagnostics_of("model m;\n"
                     "variable x;\n"
                     "output o = 2*x;\n"
                     "parameter p = o;\n"
                     "equation\n"
                     "  x = 1;\n"
                     "end\n"));
}

TEST(Sema, StartValueUsingVariableOrTime) {
  EXPECT_EQ(
      "test.dae:2:20: error: the start value of 'x' must be constant, but uses variable 'y'\n"
      "variable x(start = y), y(start = 1 + t);\n"
      "                   ^\n"
      "test.dae:2:38: error: the start value of 'y' must be constant, but uses time 't'\n"
      "variable x(start = y), y(start = 1 + t);\n"
      "                                     ^\n",
      diagnostics_of("model m;\n"
                     "variable x(start = y), y(start = 1 + t);\n"
                     "equation\n"
                     "  x = 1;\n"
                     "  y = 2;\n"
                     "end\n"));
}

TEST(Sema, StartValueMayUseParameterDeclaredLater) {
  auto result =
      run("model m;\n"
          "variable x(start = 2*p);\n"
          "parameter p = 3;\n"
          "equation\n"
          "  x' = -x;\n"
          "end\n");
  ASSERT_EQ("", result->diagnostics());
  ASSERT_TRUE(result->model);
  const daec::Parameter* p = result->model->find_parameter("p");
  ASSERT_NE(nullptr, p);
  EXPECT_TRUE(result->model->variables[0].start.is_equal(2 * p->symbol));
}

TEST(Sema, ParameterValueDivisionByZero) {
  EXPECT_EQ(
      "test.dae:2:18: error: value of parameter 'b' cannot be evaluated: division by zero\n"
      "parameter a = 0, b = 1/a;\n"
      "                 ^\n",
      diagnostics_of("model m;\n"
                     "parameter a = 0, b = 1/a;\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = b;\n"
                     "end\n"));
}

TEST(Sema, ParameterValueDivisionByZeroAfterExactArithmetic) {
  // 1 - 3*(1/3) is exactly 0: parameter values are computed exactly, not in doubles.
  EXPECT_EQ(
      "test.dae:2:33: error: value of parameter 'c' cannot be evaluated: division by zero\n"
      "parameter a = 1/3, b = 1 - 3*a, c = 1/b;\n"
      "                                ^\n",
      diagnostics_of("model m;\n"
                     "parameter a = 1/3, b = 1 - 3*a, c = 1/b;\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = c;\n"
                     "end\n"));
}

TEST(Sema, ParameterValueNotReal) {
  // An imaginary value is reported where it arises; the parameters that use `s` are not
  // reported as well.
  EXPECT_EQ(
      "test.dae:2:15: error: 'sqrt' has no real value here (I)\n"
      "parameter s = sqrt(-1), u = s + 1;\n"
      "              ^\n",
      diagnostics_of("model m;\n"
                     "parameter s = sqrt(-1), u = s + 1;\n"
                     "variable x(start = s);\n"
                     "equation\n"
                     "  x = u;\n"
                     "end\n"));
  // A value that only turns out complex when evaluated is reported at the parameter.
  EXPECT_EQ(
      "test.dae:2:11: error: value of parameter 's' cannot be evaluated: it is not a real number\n"
      "parameter s = (-8)^(1/3);\n"
      "          ^\n",
      diagnostics_of("model m;\n"
                     "parameter s = (-8)^(1/3);\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = s*t;\n"
                     "end\n"));
}

TEST(Sema, ParameterValueUndefinedFunction) {
  EXPECT_EQ(
      "test.dae:2:18: error: value of parameter 'k' cannot be evaluated: it is undefined "
      "(log(0))\n"
      "parameter h = 0, k = log(h);\n"
      "                 ^\n",
      diagnostics_of("model m;\n"
                     "parameter h = 0, k = log(h);\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = k;\n"
                     "end\n"));
}

TEST(Sema, ParameterValueTooLargeForADouble) {
  EXPECT_EQ(
      "test.dae:2:11: error: value of parameter 'e' cannot be evaluated: it is too large for a "
      "double\n"
      "parameter e = 10^400;\n"
      "          ^\n",
      diagnostics_of("model m;\n"
                     "parameter e = 10^400;\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = e;\n"
                     "end\n"));
}

TEST(Sema, StartValueDivisionByZero) {
  EXPECT_EQ(
      "test.dae:3:20: error: start value of 'x' cannot be evaluated: division by zero\n"
      "variable x(start = 1/h);\n"
      "                   ^\n",
      diagnostics_of("model m;\n"
                     "parameter h = 0;\n"
                     "variable x(start = 1/h);\n"
                     "equation\n"
                     "  x = 1;\n"
                     "end\n"));
}

// ---- equations ----

TEST(Sema, LiteralDivisionByZero) {
  EXPECT_EQ(
      "test.dae:6:8: error: division by zero\n"
      "  x = x/0;\n"
      "       ^\n",
      diagnostics_of(with_equation("x = x/0;")));
}

TEST(Sema, DivisionByAnExpressionThatIsZero) {
  EXPECT_EQ(
      "test.dae:6:8: error: division by zero\n"
      "  x = 1/(y - y);\n"
      "       ^\n",
      diagnostics_of(with_equation("x = 1/(y - y);")));
}

TEST(Sema, UndefinedFunctionValue) {
  EXPECT_EQ(
      "test.dae:6:7: error: 'log' is undefined for this argument (log(0))\n"
      "  x = log(0);\n"
      "      ^\n",
      diagnostics_of(with_equation("x = log(0);")));
  EXPECT_EQ(
      "test.dae:6:8: error: expression is undefined here (pow(0,0) is undefined)\n"
      "  x = 0^0;\n"
      "       ^\n",
      diagnostics_of(with_equation("x = 0^0;")));
  EXPECT_EQ(
      "test.dae:6:7: error: 'tan' is undefined for this argument (simple pole)\n"
      "  x = tan(pi/2) + pow(0, -1);\n"
      "      ^\n"
      "test.dae:6:19: error: division by zero\n"
      "  x = tan(pi/2) + pow(0, -1);\n"
      "                  ^\n",
      diagnostics_of(with_equation("x = tan(pi/2) + pow(0, -1);")));
}

TEST(Sema, ParameterValueUndefinedPower) {
  EXPECT_EQ(
      "test.dae:2:18: error: value of parameter 'b' cannot be evaluated: division by zero\n"
      "parameter a = 0, b = 2 + a^(-2), c = tan(pi/2 + a);\n"
      "                 ^\n"
      "test.dae:2:34: error: value of parameter 'c' cannot be evaluated: it is undefined (simple "
      "pole)\n"
      "parameter a = 0, b = 2 + a^(-2), c = tan(pi/2 + a);\n"
      "                                 ^\n",
      diagnostics_of("model m;\n"
                     "parameter a = 0, b = 2 + a^(-2), c = tan(pi/2 + a);\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = b + c;\n"
                     "end\n"));
}

// An output in an equation stands for its expression: o = 2*x makes x = 1 - o the equation
// x = 1 - 2*x, with no unknown for o.
TEST(Sema, OutputUsedInEquationIsSubstituted) {
  EXPECT_EQ("", diagnostics_of("model m;\n"
                               "variable x;\n"
                               "output o = 2*x;\n"
                               "equation\n"
                               "  x = 1 - o;\n"
                               "end\n"));
}

TEST(Sema, OutputsUseEarlierOutputsOnly) {
  EXPECT_EQ("", diagnostics_of("model m;\n"
                               "variable x;\n"
                               "output a = 2*x, b = a + x';\n"
                               "equation\n"
                               "  x' = 1;\n"
                               "end\n"));
  EXPECT_EQ(
      "test.dae:3:12: error: output 'b' is used before its declaration (an output may use only "
      "outputs declared earlier)\n"
      "output a = b, b = 2*x;\n"
      "           ^\n"
      "test.dae:3:15: note: 'b' is declared here\n"
      "output a = b, b = 2*x;\n"
      "              ^\n",
      diagnostics_of("model m;\n"
                     "variable x;\n"
                     "output a = b, b = 2*x;\n"
                     "equation\n"
                     "  x = 1;\n"
                     "end\n"));
  EXPECT_EQ(
      "test.dae:3:12: error: output 'a' is defined in terms of itself\n"
      "output a = a + x;\n"
      "           ^\n",
      diagnostics_of("model m;\n"
                     "variable x;\n"
                     "output a = a + x;\n"
                     "equation\n"
                     "  x = 1;\n"
                     "end\n"));
  EXPECT_EQ(
      "test.dae:3:12: error: outputs depend on each other in a cycle: a -> b -> a\n"
      "output a = b, b = 2*a;\n"
      "           ^\n"
      "test.dae:3:15: note: 'b' is declared here\n"
      "output a = b, b = 2*a;\n"
      "              ^\n",
      diagnostics_of("model m;\n"
                     "variable x;\n"
                     "output a = b, b = 2*a;\n"
                     "equation\n"
                     "  x = 1;\n"
                     "end\n"));
}

// Outputs may use x' where x is differential; not x'' and not the derivative of an algebraic
// variable, which no equation gives a value.
TEST(Sema, DerivativesInOutputs) {
  EXPECT_EQ(
      "test.dae:3:12: error: output 'b' uses y', but 'y' is algebraic (no equation has its "
      "derivative), so y' has no value\n"
      "output b = y';\n"
      "           ^\n",
      diagnostics_of("model m;\n"
                     "variable x, y;\n"
                     "output b = y';\n"
                     "equation\n"
                     "  x' = y; y = 1;\n"
                     "end\n"));
}

TEST(Sema, UnderdeterminedModel) {
  EXPECT_EQ(
      "test.dae:1:7: error: model 'm' has 2 equations for 3 variables (underdetermined)\n"
      "model m;\n"
      "      ^\n"
      "test.dae:2:16: note: under-determined: no equation is left for 'z' when each equation "
      "determines one variable (first the one whose derivative it holds)\n"
      "variable x, y, z;\n"
      "               ^\n"
      "test.dae:2:16: error: variable 'z' appears in no equation, so nothing determines it\n"
      "variable x, y, z;\n"
      "               ^\n",
      diagnostics_of("model m;\n"
                     "variable x, y, z;\n"
                     "equation\n"
                     "  x = 1;\n"
                     "  y = 2;\n"
                     "end\n"));
}

TEST(Sema, OverdeterminedModel) {
  EXPECT_EQ(
      "test.dae:1:7: error: model 'm' has 3 equations for 2 variables (overdetermined)\n"
      "model m;\n"
      "      ^\n"
      "test.dae:6:3: note: over-determined: no variable is left for 'eq3' when each equation "
      "determines one variable (first the one whose derivative it holds); it shares its variables "
      "with 2 other equations ('eq1', 'eq2'), any of which could be the surplus one\n"
      "  x + y = 3;\n"
      "  ^\n",
      diagnostics_of("model m;\n"
                     "variable x, y;\n"
                     "equation\n"
                     "  x = 1;\n"
                     "  y = 2;\n"
                     "  x + y = 3;\n"
                     "end\n"));
}

// A count mismatch names where it lies: the variable a maximum matching leaves without an equation
// (each equation given first the variable it differentiates: the multiplier of the missing rod,
// not a position), with those that could take its place (its Dulmage–Mendelsohn part); the
// surplus equation likewise.
TEST(Sema, CountMismatchNamesWhereItLies) {
  EXPECT_EQ(
      "test.dae:1:7: error: model 'dpend' has 5 equations for 6 variables (underdetermined)\n"
      "model dpend;\n"
      "      ^\n"
      "test.dae:2:30: note: under-determined: no equation is left for 'l2' when each equation "
      "determines one variable (first the one whose derivative it holds); it shares its equations "
      "with 2 other variables ('x2', 'y2'), any of which could be the one without\n"
      "variable x1, y1, l1, x2, y2, l2;\n"
      "                             ^\n",
      diagnostics_of("model dpend;\n"
                     "variable x1, y1, l1, x2, y2, l2;\n"
                     "equation\n"
                     "  x1'' = -l1*x1;\n"
                     "  y1'' = -l1*y1 - 9.81;\n"
                     "  rod1: x1^2 + y1^2 = 1;\n"
                     "  x2'' = -l2*(x2 - x1);\n"
                     "  y2'' = -l2*(y2 - y1) - 9.81;\n"
                     "end\n"));
  EXPECT_EQ(
      "test.dae:1:7: error: model 'm' has 4 equations for 3 variables (overdetermined)\n"
      "model m;\n"
      "      ^\n"
      "test.dae:6:3: note: over-determined: no variable is left for 'twice' when each equation "
      "determines one variable (first the one whose derivative it holds); it shares its variables "
      "with 1 other equation ('eq3'), any of which could be the surplus one\n"
      "  twice: 2*c = 4;\n"
      "  ^\n",
      diagnostics_of("model m;\n"
                     "variable a, b, c;\n"
                     "equation\n"
                     "  a' = -b; b = 2*a;\n"
                     "  c = 2;\n"
                     "  twice: 2*c = 4;\n"
                     "end\n"));
}

TEST(Sema, OneEquationForOneVariableIsSingular) {
  EXPECT_EQ(
      "test.dae:1:7: error: model 'm' has 1 equation for 2 variables (underdetermined)\n"
      "model m;\n"
      "      ^\n"
      "test.dae:2:13: note: under-determined: no equation is left for 'y' when each equation "
      "determines one variable (first the one whose derivative it holds); it shares its equations "
      "with 1 other variable ('x'), any of which could be the one without\n"
      "variable x, y;\n"
      "            ^\n",
      diagnostics_of("model m;\n"
                     "variable x, y;\n"
                     "equation\n"
                     "  x = y;\n"
                     "end\n"));
}

TEST(Sema, VariableInNoEquationWithMatchingCount) {
  EXPECT_EQ(
      "test.dae:2:13: error: variable 'y' appears in no equation, so nothing determines it\n"
      "variable x, y;\n"
      "            ^\n",
      diagnostics_of("model m;\n"
                     "variable x, y;\n"
                     "equation\n"
                     "  x = 1;\n"
                     "  x^2 = 2;\n"
                     "end\n"));
}

TEST(Sema, ModelWithoutVariables) {
  EXPECT_EQ(
      "test.dae:1:7: error: model 'empty' declares no variables\n"
      "model empty;\n"
      "      ^\n",
      diagnostics_of("model empty;\n"
                     "parameter p = 1;\n"
                     "end\n"));
}

TEST(Sema, EquationWithoutVariables) {
  EXPECT_EQ(
      "test.dae:6:3: error: equation 'eq2' contains no variables: it is either always true or "
      "contradictory, and determines nothing\n"
      "  1 = 2;\n"
      "  ^\n"
      "test.dae:7:3: error: equation 'c' contains no variables: it is either always true or "
      "contradictory, and determines nothing\n"
      "  c: p = 3;\n"
      "  ^\n",
      diagnostics_of("model m;\n"
                     "parameter p = 1;\n"
                     "variable x, y;\n"
                     "equation\n"
                     "  x = y;\n"
                     "  1 = 2;\n"
                     "  c: p = 3;\n"
                     "end\n"));
}

TEST(Sema, EquationWithIdenticalSides) {
  EXPECT_EQ(
      "test.dae:5:3: error: equation 'eq2' is always true (its two sides are identical), so it "
      "determines nothing\n"
      "  x' = x';\n"
      "  ^\n",
      diagnostics_of("model m;\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = 1;\n"
                     "  x' = x';\n"
                     "end\n"));
}

TEST(Sema, EquationWithSidesEqualAfterSimplification) {
  EXPECT_EQ(
      "test.dae:5:3: error: equation 'same' is always true (its two sides are identical), so it "
      "determines nothing\n"
      "  same: x + x = 2*x;\n"
      "  ^\n",
      diagnostics_of("model m;\n"
                     "variable x;\n"
                     "equation\n"
                     "  x = 1;\n"
                     "  same: x + x = 2*x;\n"
                     "end\n"));
}

TEST(Sema, DuplicateLabels) {
  EXPECT_EQ(
      "test.dae:5:3: error: duplicate equation label 'a'\n"
      "  a: y = 2;\n"
      "  ^\n"
      "test.dae:4:3: note: label 'a' is first used here\n"
      "  a: x = 1;\n"
      "  ^\n",
      diagnostics_of("model m;\n"
                     "variable x, y;\n"
                     "equation\n"
                     "  a: x = 1;\n"
                     "  a: y = 2;\n"
                     "end\n"));
}

TEST(Sema, LabelClashingWithAutomaticName) {
  EXPECT_EQ(
      "test.dae:4:3: error: label 'eq2' clashes with the automatic name of unlabelled equation 2\n"
      "  eq2: x = 1;\n"
      "  ^\n"
      "test.dae:5:3: note: equation 2 is here\n"
      "  y = 2;\n"
      "  ^\n",
      diagnostics_of("model m;\n"
                     "variable x, y;\n"
                     "equation\n"
                     "  eq2: x = 1;\n"
                     "  y = 2;\n"
                     "end\n"));
}

TEST(Sema, LabelNamedLikeItsOwnPositionIsFine) {
  // Equation 1 is labelled eq1 itself: no unlabelled equation is named eq1.
  auto result =
      run("model m;\n"
          "variable x, y;\n"
          "equation\n"
          "  eq1: x = 1;\n"
          "  eq3: y = 2;\n"
          "end\n");
  EXPECT_EQ("", result->diagnostics());
  ASSERT_TRUE(result->model);
}

// ---- huge constants ----

// Runs `text` and checks that it took well under the test timeout.
std::string diagnostics_quickly(const std::string& text) {
  auto start = std::chrono::steady_clock::now();
  std::string diagnostics = diagnostics_of(text);
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 5.0) << text;
  return diagnostics;
}

TEST(Sema, HugePowerTowerIsRefusedQuickly) {
  EXPECT_EQ(
      "test.dae:6:9: error: constant too large to compute exactly\n"
      "  x = 10^10^10;\n"
      "        ^\n",
      diagnostics_quickly(with_equation("x = 10^10^10;")));
}

// Found running hostile inputs through the fuzz target: CLN evaluated exp(exp(exp(20))) to 1
// after seconds (its float exponent overflowed), and asked for petabytes for one more exp.
TEST(Sema, NestedExponentialsAreTooLargeNotWrong) {
  EXPECT_EQ(
      "test.dae:2:11: error: value of parameter 'a' cannot be evaluated: it is too large for a "
      "double\n"
      "parameter a = exp(exp(exp(20)));\n"
      "          ^\n",
      diagnostics_quickly("model m;\n"
                          "parameter a = exp(exp(exp(20)));\n"
                          "variable x;\n"
                          "equation\n"
                          "  x = a;\n"
                          "end\n"));
  EXPECT_EQ(
      "test.dae:2:11: error: value of parameter 'a' cannot be evaluated: it is too large for a "
      "double\n"
      "parameter a = exp(exp(exp(exp(100))));\n"
      "          ^\n",
      diagnostics_quickly("model m;\n"
                          "parameter a = exp(exp(exp(exp(100))));\n"
                          "variable x;\n"
                          "equation\n"
                          "  x = a;\n"
                          "end\n"));
  EXPECT_EQ(
      "test.dae:2:27: error: start value of 'x' cannot be evaluated: it is too small for a double "
      "(underflows to 0)\n"
      "variable x(start = cosh(2)^(-1e6));\n"
      "                          ^\n",
      diagnostics_quickly("model m;\n"
                          "variable x(start = cosh(2)^(-1e6));\n"
                          "equation\n"
                          "  x' = x;\n"
                          "end\n"));
}

// Intermediate results far beyond a double are fine while they stay within CLN's quick range.
TEST(Sema, LargeIntermediateValuesStillEvaluate) {
  EXPECT_EQ("", diagnostics_quickly("model m;\n"
                                    "parameter a = exp(1000)/exp(999) + sinh(2000)/cosh(2000);\n"
                                    "variable x;\n"
                                    "equation\n"
                                    "  x = a;\n"
                                    "end\n"));
}

TEST(Sema, HugePowersInEveryFormAreRefusedQuickly) {
  EXPECT_EQ(
      "test.dae:6:14: error: constant too large to compute exactly\n"
      "  x = sqrt(2)^(10^10);\n"
      "             ^\n",
      diagnostics_quickly(with_equation("x = sqrt(2)^(10^10);")));
  EXPECT_EQ(
      "test.dae:6:7: error: constant too large to compute exactly\n"
      "  x = pow(10, pow(10, 10));\n"
      "      ^\n",
      diagnostics_quickly(with_equation("x = pow(10, pow(10, 10));")));
  EXPECT_EQ(
      "test.dae:6:16: error: constant too large to compute exactly\n"
      "  x = (2*y + 2)^(10^10);\n"
      "               ^\n",
      diagnostics_quickly(with_equation("x = (2*y + 2)^(10^10);")));
  EXPECT_EQ(
      "test.dae:2:22: error: value of parameter 'b' cannot be evaluated: constant too large to "
      "compute exactly\n"
      "parameter a = 10^10, b = 10^a;\n"
      "                     ^\n",
      diagnostics_quickly("model m;\n"
                          "parameter a = 10^10, b = 10^a;\n"
                          "variable x;\n"
                          "equation\n"
                          "  x = b;\n"
                          "end\n"));
}

TEST(Sema, LargeSymbolicPowersAreKept) {
  // Only exact numbers grow: a symbolic power with a big exponent is fine.
  auto result =
      run("model m;\n"
          "variable x;\n"
          "equation\n"
          "  x^(10^10) + (x + 1)^100000 = 1;\n"
          "end\n");
  EXPECT_EQ("", result->diagnostics());
  EXPECT_TRUE(result->model);
}

TEST(Sema, ZeroWithHugeExponentIsZero) {
  auto result =
      run("model m;\n"
          "variable x;\n"
          "equation\n"
          "  x = 0e99999999999999999999 + 1;\n"
          "end\n");
  ASSERT_EQ("", result->diagnostics());
  ASSERT_TRUE(result->model);
  EXPECT_TRUE(result->model->equations[0].rhs.is_equal(1));
}

// ---- recovery ----

TEST(Sema, SeveralErrorsAreAllReportedInSourceOrder) {
  EXPECT_EQ(
      "test.dae:3:15: error: expected an expression, found ';'\n"
      "parameter q = ;\n"
      "              ^\n"
      "test.dae:2:15: error: use of undeclared name 'zz'\n"
      "parameter p = zz;\n"
      "              ^\n"
      "test.dae:6:6: error: derivative of time 't' (it is 1)\n"
      "  a: t' = x;\n"
      "     ^\n"
      "test.dae:7:7: error: unknown function 'sinn'; did you mean 'sin'?\n"
      "  y = sinn(x) / 0;\n"
      "      ^\n"
      "test.dae:7:15: error: division by zero\n"
      "  y = sinn(x) / 0;\n"
      "              ^\n"
      "test.dae:8:3: error: duplicate equation label 'a'\n"
      "  a: x = 1;\n"
      "  ^\n"
      "test.dae:6:3: note: label 'a' is first used here\n"
      "  a: t' = x;\n"
      "  ^\n",
      diagnostics_of("model m;\n"
                     "parameter p = zz;\n"
                     "parameter q = ;\n"
                     "variable x, y;\n"
                     "equation\n"
                     "  a: t' = x;\n"
                     "  y = sinn(x) / 0;\n"
                     "  a: x = 1;\n"
                     "end\n"));
}

// ---- the model built ----

TEST(Sema, ParameterValuesEvaluatedInDeclarationOrder) {
  auto result =
      run("model m;\n"
          "parameter a = 2, b = a^2;\n"
          "parameter c = b/a + 0.5;\n"
          "variable x;\n"
          "equation\n"
          "  x = c;\n"
          "end\n");
  ASSERT_EQ("", result->diagnostics());
  ASSERT_TRUE(result->model);
  const daec::Model& model = *result->model;
  ASSERT_EQ(3u, model.parameters.size());
  EXPECT_EQ("a", model.parameters[0].name);
  EXPECT_EQ("b", model.parameters[1].name);
  EXPECT_EQ("c", model.parameters[2].name);
  EXPECT_EQ(2.0, model.parameters[0].value);
  EXPECT_EQ(4.0, model.parameters[1].value);
  EXPECT_EQ(2.5, model.parameters[2].value);
  // The default stays symbolic: parameters are settable at run time.
  const GiNaC::ex a = model.parameters[0].symbol;
  EXPECT_TRUE(model.parameters[1].default_value.is_equal(GiNaC::pow(a, 2)));
}

TEST(Sema, NumbersAreExactRationals) {
  auto result =
      run("model m;\n"
          "parameter p = 0.1*10, q = 1e-3, r = .5;\n"
          "variable x;\n"
          "equation\n"
          "  x = 0.1*10 + 2.5e1;\n"
          "end\n");
  ASSERT_EQ("", result->diagnostics());
  ASSERT_TRUE(result->model);
  const daec::Model& model = *result->model;
  EXPECT_TRUE(model.parameters[0].default_value.is_equal(1));
  EXPECT_TRUE(model.parameters[1].default_value.is_equal(GiNaC::numeric(1, 1000)));
  EXPECT_TRUE(model.parameters[2].default_value.is_equal(GiNaC::numeric(1, 2)));
  EXPECT_TRUE(model.equations[0].rhs.is_equal(26));
}

TEST(Sema, LabelsKeptAndUnlabelledEquationsNamedByPosition) {
  auto result =
      run("model m;\n"
          "variable x, y, z;\n"
          "equation\n"
          "  x = 1;\n"
          "  second: y = 2;\n"
          "  z = 3;\n"
          "end\n");
  ASSERT_EQ("", result->diagnostics());
  ASSERT_TRUE(result->model);
  const auto& equations = result->model->equations;
  ASSERT_EQ(3u, equations.size());
  EXPECT_EQ("eq1", equations[0].label);
  EXPECT_FALSE(equations[0].labelled);
  EXPECT_EQ("second", equations[1].label);
  EXPECT_TRUE(equations[1].labelled);
  EXPECT_EQ("eq3", equations[2].label);
  EXPECT_FALSE(equations[2].labelled);
  EXPECT_EQ(5, equations[1].location.line);
  EXPECT_EQ(3, equations[1].location.column);
}

TEST(Sema, DerivativeSymbolsAreLinkedToTheirVariable) {
  auto result =
      run("model m;\n"
          "variable x, y;\n"
          "equation\n"
          "  x' = y;\n"
          "  der(y) = -x;\n"
          "end\n");
  ASSERT_EQ("", result->diagnostics());
  ASSERT_TRUE(result->model);
  const daec::Model& model = *result->model;
  auto x_dot = model.derivative_of(model.equations[0].lhs);
  ASSERT_TRUE(x_dot);
  EXPECT_EQ(0u, x_dot->variable);
  EXPECT_EQ(1, x_dot->order);
  auto y_dot = model.derivative_of(model.equations[1].lhs);
  ASSERT_TRUE(y_dot);
  EXPECT_EQ(1u, y_dot->variable);
  EXPECT_EQ(1, y_dot->order);
  EXPECT_FALSE(model.derivative_of(model.variables[0].symbol));
  ASSERT_EQ(1, model.variables[0].highest_order());
  EXPECT_TRUE(GiNaC::ex(model.variables[0].derivatives[0]).is_equal(model.equations[0].lhs));
  EXPECT_EQ("x'", GiNaC::ex_to<GiNaC::symbol>(model.equations[0].lhs).get_name());
}

TEST(Sema, AllSpellingsOfASecondDerivativeAreOneSymbol) {
  auto result =
      run("model m;\n"
          "variable x, y;\n"
          "equation\n"
          "  x'' = y;\n"
          "  der(x, 2) = 2*y + der(der(x)) - der(x)' + x;\n"
          "end\n");
  ASSERT_EQ("", result->diagnostics());
  ASSERT_TRUE(result->model);
  const daec::Model& model = *result->model;
  const GiNaC::ex& x2 = model.equations[0].lhs;
  EXPECT_TRUE(x2.is_equal(model.equations[1].lhs));
  // der(der(x)) and der(x)' are x'' too, so they cancel.
  EXPECT_TRUE(
      model.equations[1].rhs.is_equal(2 * model.variables[1].symbol + model.variables[0].symbol));
  auto of = model.derivative_of(x2);
  ASSERT_TRUE(of);
  EXPECT_EQ(0u, of->variable);
  EXPECT_EQ(2, of->order);
  EXPECT_EQ(2, model.variables[0].highest_order());
}

TEST(Sema, DifferentialAndAlgebraicVariables) {
  auto result =
      daec::test::run(daec::test::read_source_file("models/pendulum.dae"), "pendulum.dae");
  ASSERT_EQ("", result->diagnostics());
  ASSERT_TRUE(result->model);
  const daec::Model& model = *result->model;
  ASSERT_EQ(5u, model.variables.size());
  for (const char* name : {"x", "y", "u", "v"}) {
    const daec::Variable* v = model.find_variable(name);
    ASSERT_NE(nullptr, v) << name;
    EXPECT_TRUE(v->is_differential()) << name;
    EXPECT_EQ(1, v->highest_order()) << name;
  }
  EXPECT_FALSE(model.find_variable("lambda")->is_differential());
  EXPECT_EQ("rod", model.equations[4].label);
  EXPECT_EQ("pendulum", model.name);
  EXPECT_EQ("Simple pendulum", model.description);
  EXPECT_EQ(9.81, model.find_parameter("g")->value);
  EXPECT_TRUE(model.find_variable("x")->start.is_equal(1));
  ASSERT_EQ(1u, model.outputs.size());
  EXPECT_EQ("energy", model.outputs[0].name);
}

TEST(Sema, DerivativeThatCancelsLeavesVariableAlgebraic) {
  auto result =
      run("model m;\n"
          "variable x;\n"
          "equation\n"
          "  x' - x' + x = 1;\n"
          "end\n");
  ASSERT_EQ("", result->diagnostics());
  ASSERT_TRUE(result->model);
  EXPECT_FALSE(result->model->variables[0].is_differential());
}

TEST(Sema, OneSymbolPerName) {
  auto result =
      run("model m;\n"
          "parameter k = 2;\n"
          "variable x;\n"
          "output e = k*x + t;\n"
          "equation\n"
          "  x' = -k*x + t;\n"
          "end\n");
  ASSERT_EQ("", result->diagnostics());
  ASSERT_TRUE(result->model);
  daec::Model& model = *result->model;
  const GiNaC::realsymbol& k = model.parameters[0].symbol;
  const GiNaC::realsymbol& x = model.variables[0].symbol;
  EXPECT_TRUE(k.is_equal(model.symbols.get("k")));
  EXPECT_TRUE(x.is_equal(model.symbols.get("x")));
  EXPECT_TRUE(model.outputs[0].value.is_equal(k * x + model.time));
  EXPECT_TRUE(model.equations[0].rhs.is_equal(-k * x + model.time));
}

}  // namespace

namespace daec {
namespace {

TEST(Sema, ComplexConstantsAreRejected) {
  auto r = test::run("model c;\nvariable x;\nequation\n  x = log(-1) + t;\n  \nend\n");
  EXPECT_FALSE(r->model);
  EXPECT_EQ(r->diagnostics(),
            "test.dae:4:7: error: 'log' has no real value here (I*pi)\n"
            "  x = log(-1) + t;\n"
            "      ^\n");
  auto s = test::run("model c;\nvariable x;\nequation\n  x = t*sqrt(-4);\nend\n");
  EXPECT_EQ(s->diagnostics(),
            "test.dae:4:9: error: 'sqrt' has no real value here (2*I)\n"
            "  x = t*sqrt(-4);\n"
            "        ^\n");
}

}  // namespace
}  // namespace daec

TEST(Sema, ConstantsOfEquationsMustFitADouble) {
  // Literals are combined exactly: 1e308*1e308 is 1e616, which the generated code could only
  // hold as infinity.
  EXPECT_EQ(
      "test.dae:4:3: error: equation 'big': its numbers, combined exactly, give a constant too "
      "large for a double\n"
      "  big: x' = 1e308*1e308*x;\n"
      "  ^\n",
      diagnostics_quickly("model m;\n"
                          "variable x;\n"
                          "equation\n"
                          "  big: x' = 1e308*1e308*x;\n"
                          "end\n"));
  EXPECT_EQ("", diagnostics_quickly("model m;\n"
                                    "variable x;\n"
                                    "equation\n"
                                    "  x' = 1e308*1e-308*x + 1e308;\n"
                                    "end\n"));
  // A constant nonzero but below the smallest double would become 0 in the generated code.
  EXPECT_EQ(
      "test.dae:4:3: error: equation 'tiny': its numbers, combined exactly, give a constant too "
      "small for a double (underflows to 0)\n"
      "  tiny: x' = 10^-400 + x;\n"
      "  ^\n",
      diagnostics_quickly("model m;\n"
                          "variable x;\n"
                          "equation\n"
                          "  tiny: x' = 10^-400 + x;\n"
                          "end\n"));
}

// GiNaC takes the content of a sum out of its integer power: (1 + x/1000)^200 is
// 10^-600*(x + 1000)^200. That constant is not computed: the generated code puts it back into the
// power (model/power_content.h), so the equation holds no constant beyond a double.
TEST(Sema, ContentOfAPowerOfASumIsNotAConstantOfTheEquation) {
  EXPECT_EQ("", diagnostics_quickly("model m;\n"
                                    "variable x(start = 1), y(start = 1);\n"
                                    "equation\n"
                                    "  x' = -(1 + x/1000)^200;\n"
                                    "  y' = 2*(1 - y/1000)^-201 + 1e-300*(1 + y/1e10)^40;\n"
                                    "end\n"));
  // A constant that no power of the product can take in is still refused.
  EXPECT_EQ(
      "test.dae:4:3: error: equation 'tiny': its numbers, combined exactly, give a constant too "
      "small for a double (underflows to 0)\n"
      "  tiny: x' = 10^-800*x*(x + 1)^2 + 1;\n"
      "  ^\n",
      diagnostics_quickly("model m;\n"
                          "variable x;\n"
                          "equation\n"
                          "  tiny: x' = 10^-800*x*(x + 1)^2 + 1;\n"
                          "end\n"));
}

// A base that is not positive with an exponent that is not a number has no real derivative (it
// holds log of the base): refused where it is written, however the power is spelled.
TEST(Sema, PowersOfBasesThatAreNotPositiveNeedNumericExponents) {
  const std::string zero =
      "error: 0 raised to an exponent that is not a number is undefined where the exponent is "
      "not positive, and its derivative holds log(0) (write the value it stands for, e.g. with "
      "if)\n";
  EXPECT_EQ("test.dae:4:11: " + zero + "  c: y = 0^x + pow(0, t) + (1 - 1)^(2*x);\n" +
                "          ^\n" + "test.dae:4:16: " + zero +
                "  c: y = 0^x + pow(0, t) + (1 - 1)^(2*x);\n" + "               ^\n" +
                "test.dae:4:35: " + zero + "  c: y = 0^x + pow(0, t) + (1 - 1)^(2*x);\n" +
                "                                  ^\n",
            diagnostics_quickly("model g;\nvariable x(start = 1), y;\nequation\n"
                                "  c: y = 0^x + pow(0, t) + (1 - 1)^(2*x);\n"
                                "  x' = -y;\nend\n"));
  EXPECT_EQ(
      "test.dae:4:11: error: a negative base (-2) raised to an exponent that is not a number is "
      "not real except at integer exponents, and its derivative holds the logarithm of a "
      "negative number (use abs() or write the sign apart)\n"
      "  y = (-2)^x + (-pi)^t;\n"
      "          ^\n"
      "test.dae:4:21: error: a negative base (-pi) raised to an exponent that is not a number is "
      "not real except at integer exponents, and its derivative holds the logarithm of a "
      "negative number (use abs() or write the sign apart)\n"
      "  y = (-2)^x + (-pi)^t;\n"
      "                    ^\n",
      diagnostics_quickly("model g;\nvariable x(start = 1), y;\nequation\n"
                          "  y = (-2)^x + (-pi)^t;\n  x' = -x;\nend\n"));
  // Numeric exponents are evaluated (and checked) as before; positive bases are fine.
  EXPECT_EQ("", diagnostics_quickly("model g;\nvariable x(start = 1), y;\nequation\n"
                                    "  y = (-2)^3*x + 0^2 + 2^x + pi^t;\n  x' = -x;\nend\n"));
}

// A literal that rounds to the largest double is that double, in a parameter's value and in an
// equation alike; one that rounds past it is refused alike.
TEST(Sema, TheLargestDoubleIsOneValueEverywhere) {
  EXPECT_EQ("", diagnostics_quickly("model m;\n"
                                    "parameter a = 1.7976931348623158e308;\n"
                                    "variable x;\n"
                                    "equation\n"
                                    "  x' = -a*x + 1.7976931348623158e308;\n"
                                    "end\n"));
  EXPECT_EQ(
      "test.dae:2:11: error: value of parameter 'a' cannot be evaluated: it is too large for a "
      "double\n"
      "parameter a = 1.7976931348623157e308*1.0000000000000002;\n"
      "          ^\n",
      diagnostics_quickly("model m;\n"
                          "parameter a = 1.7976931348623157e308*1.0000000000000002;\n"
                          "variable x;\n"
                          "equation\n"
                          "  x' = -a*x;\n"
                          "end\n"));
}

// The nearest double of an exact number, subnormal numbers included (CLN flushes those to 0).
TEST(Sema, NearestDoubleKeepsSubnormalNumbers) {
  for (const char* text :
       {"1e-310", "4.9406564584124654e-324", "2.2250738585072009e-308", "1.5e-323", "3e-320"}) {
    GiNaC::numeric exact = GiNaC::ex_to<GiNaC::numeric>(daec::exact_number(text));
    EXPECT_EQ(daec::nearest_double(exact), std::strtod(text, nullptr)) << text;
    EXPECT_EQ(daec::nearest_double(-exact), -std::strtod(text, nullptr)) << text;
  }
  // Half the smallest step rounds to even (0); a little more rounds up.
  GiNaC::numeric half_step =
      GiNaC::numeric(1) / GiNaC::pow(GiNaC::numeric(2), GiNaC::numeric(1075));
  EXPECT_EQ(daec::nearest_double(half_step), 0.0);
  EXPECT_EQ(daec::beyond_double(half_step), "it is too small for a double (underflows to 0)");
  EXPECT_EQ(daec::nearest_double(half_step * GiNaC::numeric(3, 2)), 4.9406564584124654e-324);
  EXPECT_EQ(daec::nearest_double(half_step * 3), 2 * 4.9406564584124654e-324);  // 1.5 steps: even
  EXPECT_EQ(daec::beyond_double(GiNaC::numeric(0)), "");
}

// ---- initial equations and nominal values ----

namespace {

constexpr const char* kSlider =
    "model m;\n"
    "variable theta(start = 0.3, fixed = true, nominal = 2), s;\n"
    "equation\n"
    "  theta'' = -s;\n"
    "  s = sin(theta);\n"
    "initial equation\n";

TEST(Sema, InitialEquationsUseDerivativesTheEquationsHave) {
  EXPECT_EQ("",
            diagnostics_of(std::string(kSlider) + "  theta' = 10;\n  speed: theta'' = 0;\nend\n"));
  EXPECT_EQ(
      "test.dae:7:3: error: initial equation 'eq3' uses theta''', but the equations use 'theta' "
      "only up to theta'', so theta''' has no value\n"
      "  theta''' = 0;\n"
      "  ^\n"
      "test.dae:8:3: error: initial equation 'eq4' uses s', but 's' is algebraic (no equation has "
      "its derivative), so s' has no value\n"
      "  s' = 1;\n"
      "  ^\n"
      "test.dae:9:3: error: use of undeclared name 'speed'\n"
      "  speed = 1;\n"
      "  ^\n",
      diagnostics_of(std::string(kSlider) + "  theta''' = 0;\n  s' = 1;\n  speed = 1;\nend\n"));
}

TEST(Sema, InitialEquationLabelsAreEquationLabels) {
  EXPECT_EQ(
      "test.dae:7:3: error: duplicate equation label 'go'\n"
      "  go: theta' = 2;\n"
      "  ^\n"
      "test.dae:6:3: note: label 'go' is first used here\n"
      "  go: theta' = 1;\n"
      "  ^\n",
      diagnostics_of("model m;\n"
                     "variable theta, s;\n"
                     "equation\n"
                     "  theta'' = -s; s = sin(theta);\n"
                     "initial equation\n"
                     "  go: theta' = 1;\n"
                     "  go: theta' = 2;\n"
                     "end\n"));
}

TEST(Sema, InitialEquationsAreKeptApart) {
  auto r = daec::test::run(std::string(kSlider) + "  theta' = 10;\nend\n");
  ASSERT_TRUE(r->model) << r->diagnostics();
  ASSERT_EQ(r->model->equations.size(), 2u);
  ASSERT_EQ(r->model->initial_equations.size(), 1u);
  EXPECT_EQ(r->model->initial_equations[0].label, "eq3");
  EXPECT_TRUE(r->model->variables[0].nominal.is_equal(2));
  EXPECT_TRUE(r->model->variables[1].nominal.is_zero());
}

TEST(Sema, NominalValuesArePositiveConstants) {
  EXPECT_EQ(
      "test.dae:3:22: error: nominal value of 'x' cannot be used: it must be positive, but is "
      "-2\n"
      "variable x(nominal = -2*T0), y(nominal = y);\n"
      "                     ^\n"
      "test.dae:3:42: error: the start value of 'y' must be constant, but uses variable 'y'\n"
      "variable x(nominal = -2*T0), y(nominal = y);\n"
      "                                         ^\n",
      diagnostics_of("model m;\n"
                     "parameter T0 = 1;\n"
                     "variable x(nominal = -2*T0), y(nominal = y);\n"
                     "equation\n"
                     "  x' = -y; y = x;\n"
                     "end\n"));
}

}  // namespace
