// Tests of the C++ expression emitter: common subexpressions, powers, literals, determinism.
#include <gtest/gtest.h>

#include "codegen/expression_code.h"
#include "model/conditions.h"

namespace daec {
namespace {

using GiNaC::ex;

struct Fixture {
  GiNaC::realsymbol x{"x"}, y{"y"}, t{"t"};
  SymbolCode code() const { return {{x, "x[0]"}, {y, "x[1]"}, {t, "t"}}; }
};

std::string compile(const Fixture& f, const std::vector<ex>& outputs) {
  ExpressionCompiler compiler(f.code());
  std::vector<size_t> handles;
  for (const ex& e : outputs) handles.push_back(compiler.add(e));
  std::string text;
  for (const std::string& s : compiler.statements()) text += s + "\n";
  for (size_t h : handles) text += "out = " + compiler.code_for(h) + ";\n";
  return text;
}

TEST(Codegen, IntegerPowersAreProducts) {
  Fixture f;
  EXPECT_EQ(compile(f, {GiNaC::pow(f.x, 2)}), "const double w0 = x[0]*x[0];\nout = w0;\n");
  EXPECT_EQ(compile(f, {GiNaC::pow(f.x, 5)}),
            "const double w0 = x[0]*x[0];\nconst double w1 = w0*w0;\nout = x[0]*w1;\n");
  EXPECT_EQ(compile(f, {GiNaC::pow(f.x, -1)}), "out = 1.0/x[0];\n");
}

TEST(Codegen, SquareRootsAndReciprocals) {
  Fixture f;
  EXPECT_EQ(compile(f, {GiNaC::sqrt(f.x)}), "const double w0 = std::sqrt(x[0]);\nout = w0;\n");
  EXPECT_EQ(compile(f, {GiNaC::pow(f.x, GiNaC::numeric(-1, 2))}),
            "const double w0 = std::sqrt(x[0]);\nout = 1.0/w0;\n");
  EXPECT_EQ(compile(f, {GiNaC::pow(f.x, f.y)}), "out = std::pow(x[0], x[1]);\n");
}

TEST(Codegen, SharedSubexpressionsAreComputedOnce) {
  Fixture f;
  ex shared = GiNaC::sin(f.x + f.t);
  std::string text = compile(f, {shared * f.y, shared + 1});
  EXPECT_EQ(text, "const double w0 = std::sin(t + x[0]);\nout = w0*x[1];\nout = w0 + 1.0;\n");
}

TEST(Codegen, LiteralsKeepFullPrecision) {
  EXPECT_EQ(double_literal(0.1), "0.10000000000000001");
  EXPECT_EQ(double_literal(2), "2.0");
  EXPECT_EQ(double_literal(1e300), "1.0000000000000001e+300");
  Fixture f;
  EXPECT_EQ(compile(f, {GiNaC::numeric(1, 3) * f.x}), "out = 0.33333333333333331*x[0];\n");
}

// Exact numbers below 2.2e-308 are emitted as the subnormal double nearest to them, not as 0.
TEST(Codegen, SubnormalLiteralsAreNotZero) {
  Fixture f;
  GiNaC::numeric tiny = GiNaC::numeric(1) / GiNaC::pow(GiNaC::numeric(10), GiNaC::numeric(310));
  EXPECT_EQ(compile(f, {tiny * f.x + tiny}),
            "out = 9.9999999999999694e-311*x[0] + 9.9999999999999694e-311;\n");
}

// A complex coefficient (log(-2) = log 2 + I pi) has no real code: an error, never a formula
// with the imaginary unit dropped.
TEST(Codegen, ComplexCoefficientsAreRefused) {
  Fixture f;
  EXPECT_THROW(compile(f, {GiNaC::I * GiNaC::Pi * f.x}), std::invalid_argument);
  EXPECT_THROW(compile(f, {GiNaC::log(GiNaC::numeric(-2)) * f.x}), std::invalid_argument);
  EXPECT_THROW(compile(f, {f.x + GiNaC::I}), std::invalid_argument);
}

// GiNaC takes the content of a sum out of its integer power: (1 + x/1000)^200 is
// 10^-600*(x + 1000)^200, whose constant no double holds and whose power overflows. The constant
// goes back into the sum (model/power_content.h): as the model wrote it where it is a perfect
// power, else as a power of ten; a constant within a double stays where it is.
TEST(Codegen, ConstantBeyondADoubleGoesBackIntoThePowerOfASum) {
  Fixture f;
  ex power = GiNaC::pow(1 + f.x / 1000, 200);
  EXPECT_EQ(compile(f, {-power}), "out = -std::pow(0.001*x[0] + 1.0, 200.0);\n");
  EXPECT_EQ(compile(f, {power.diff(f.x)}),
            "out = 0.20000000000000001*std::pow(0.001*x[0] + 1.0, 199.0);\n");
  EXPECT_EQ(compile(f, {3 * power * f.y}), "out = 3.0*std::pow(0.001*x[0] + 1.0, 200.0)*x[1];\n");
  EXPECT_EQ(compile(f, {GiNaC::pow(1 - f.x / 1000, -201)}),
            "out = -(1.0/std::pow(0.001*x[0] - 1.0, 201.0));\n");
  // A power of at most 32 is a product, as any other.
  EXPECT_EQ(compile(f, {GiNaC::pow(1 + f.x / GiNaC::pow(GiNaC::numeric(10), 20), 20)}),
            "const double w0 = (9.9999999999999995e-21*x[0] + 1.0);\nconst double w1 = w0*w0;\n"
            "const double w2 = w1*w1;\nconst double w3 = w2*w2;\nconst double w4 = w3*w3;\n"
            "out = (w2*w4);\n");
  // 10^-18*(x - 1000)^3 and 10^-2*(x + 10)^2 are within a double.
  EXPECT_EQ(compile(f, {GiNaC::pow(f.x / 1000 - 1, 3) * GiNaC::numeric(1, 1000000000)}),
            "const double w0 = (x[0] - 1000.0);\nconst double w1 = w0*w0;\n"
            "out = 1.0000000000000001e-18*(w0*w1);\n");
  EXPECT_EQ(compile(f, {GiNaC::pow(1 + f.x / 10, 2)}),
            "const double w0 = (x[0] + 10.0);\nconst double w1 = w0*w0;\nout = 0.01*w1;\n");
}

TEST(Codegen, ConjugateOfARealQuantityIsItself) {
  Fixture f;
  ex squared = GiNaC::pow(GiNaC::abs(GiNaC::log(f.x)), 2);  // GiNaC: log(x)*conjugate(log(x))
  EXPECT_EQ(compile(f, {squared}), "const double w0 = std::log(x[0]);\nout = w0*w0;\n");
}

TEST(Codegen, OutputIsDeterministic) {
  Fixture f;
  ex e = GiNaC::pow(f.x + f.y, 3) * GiNaC::cos(f.t) - GiNaC::exp(f.x * f.y) / (1 + f.x * f.x);
  EXPECT_EQ(compile(f, {e, e.diff(f.x)}), compile(f, {e, e.diff(f.x)}));
}

// ---- conditions ----

TEST(Codegen, ConditionalExpressionsAndRelations) {
  Fixture f;
  EXPECT_EQ(compile(f, {daec_if(daec_lt(f.t, 1), f.x, 2 * f.y)}),
            "out = ((t < 1.0) ? x[0] : 2.0*x[1]);\n");
  EXPECT_EQ(compile(f, {daec_if(daec_ne(f.x, f.y), 1, 0)}),
            "out = ((x[0] != x[1]) ? 1.0 : 0.0);\n");
  EXPECT_EQ(compile(f, {daec_if(daec_eq(f.x, 0), -f.y, f.y)}),
            "out = ((x[0] == 0.0) ? -x[1] : x[1]);\n");
  ex both = daec_and(daec_ge(f.x, 0), daec_not(daec_or(daec_le(f.y, 1), daec_gt(f.t, 2))));
  EXPECT_EQ(compile(f, {daec_if(both, f.x, 0)}),
            "out = (((x[0] >= 0.0) && (!((x[1] <= 1.0) || (t > 2.0)))) ? x[0] : 0.0);\n");
  EXPECT_EQ(compile(f, {daec_if(daec_not(daec_and(daec_lt(f.x, 0), daec_lt(f.y, 0))), 1, 2)}),
            "out = ((!((x[0] < 0.0) && (x[1] < 0.0))) ? 1.0 : 2.0);\n");
}

TEST(Codegen, MinAndMax) {
  Fixture f;
  EXPECT_EQ(compile(f, {make_min(f.x, f.y)}), "out = ((x[0] < x[1]) ? x[0] : x[1]);\n");
  EXPECT_EQ(compile(f, {make_max(f.x, 0)}), "out = ((x[0] > 0.0) ? x[0] : 0.0);\n");
}

// A condition used twice is computed once, into a temporary holding 1 or 0; the branches are
// computed before the choice, but the result is the chosen one (the NaN of sqrt(-1) in the other
// branch never reaches it).
TEST(Codegen, SharedConditionsAndBranches) {
  Fixture f;
  ex c = daec_gt(f.x, 0);
  EXPECT_EQ(compile(f, {daec_if(c, GiNaC::sqrt(f.x), 0), daec_if(c, f.y, 1)}),
            "const double w0 = std::sqrt(x[0]);\n"
            "const double w1 = (x[0] > 0.0);\n"
            "out = (w1 ? w0 : 0.0);\n"
            "out = (w1 ? x[1] : 1.0);\n");
}

TEST(Codegen, DerivativeOfAConditionalIsOneConditional) {
  // No daec_if(c, 1, 0)*f' + daec_if(c, 0, 1)*g': 0*NaN would be NaN.
  Fixture f;
  ex e = daec_if(daec_gt(f.x, 0), GiNaC::sqrt(f.x), -f.x);
  EXPECT_EQ(compile(f, {e.diff(f.x)}),
            "const double w0 = std::sqrt(x[0]);\n"
            "out = ((x[0] > 0.0) ? 0.5/w0 : -1.0);\n");
}

}  // namespace
}  // namespace daec
