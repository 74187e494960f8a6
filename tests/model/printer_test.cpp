// Tests of the .dae printer (src/model/expression_printer.cpp, src/model/model_printer.cpp): exact
// output of to_dae for each construct, operand order that does not depend on GiNaC's hash order,
// and round trips: every printed expression and every bundled model (models/*.dae) parses back to
// the same thing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "model/conditions.h"
#include "model/expression_printer.h"
#include "model/functions.h"
#include "model/model_printer.h"
#include "test_util.h"

namespace {

using daec::print_model;
using daec::to_dae;
using daec::test::run;
using GiNaC::ex;
using GiNaC::numeric;
using GiNaC::realsymbol;

// ---- helpers ----

// The names the expression tests use; `t` is time and parses to the model's time symbol.
const std::vector<std::string> kNames = {"a", "b", "c", "x", "y", "z", "x1", "x2", "x10"};

struct Symbols {
  std::map<std::string, realsymbol> by_name;
  Symbols() {
    for (const std::string& name : kNames) by_name.emplace(name, realsymbol(name));
    by_name.emplace("t", realsymbol("t"));
  }
  const realsymbol& operator[](const std::string& name) const { return by_name.at(name); }
};

// Parses `text` as an expression over kNames and t (as the value of an output of a small model)
// and returns it in terms of `symbols`. Fails the test if it does not parse.
ex parse_expression(const std::string& text, const Symbols& symbols) {
  std::string model = "model m;\nvariable";
  for (size_t i = 0; i < kNames.size(); ++i) model += (i ? ", " : " ") + kNames[i];
  model += ";\noutput o = " + text + ";\nequation\n";
  for (const std::string& name : kNames) model += "  " + name + " = 1;\n";
  model += "end\n";
  auto result = run(model);
  EXPECT_TRUE(result->model) << "'" << text << "' does not parse:\n" << result->diagnostics();
  if (!result->model) return GiNaC::fail();
  GiNaC::exmap to_test_symbols;
  for (const daec::Variable& v : result->model->variables) {
    to_test_symbols[v.symbol] = symbols[v.name];
  }
  to_test_symbols[result->model->time] = symbols["t"];
  return result->model->outputs.at(0).value.subs(to_test_symbols);
}

bool same_expression(const ex& a, const ex& b) {
  return (a - b).expand().is_zero();
}

// `e` evaluated in doubles, as generated code would, with `values` for the symbols; NaN where it
// is undefined or not real (asin(2), log(-1), sqrt(-1)).
double evaluate(const ex& e, const GiNaC::exmap& values) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (GiNaC::is_a<numeric>(e)) {
    const numeric& n = GiNaC::ex_to<numeric>(e);
    return n.is_real() ? n.to_double() : kNaN;
  }
  if (GiNaC::is_a<GiNaC::symbol>(e)) {
    auto it = values.find(e);
    return it == values.end() ? kNaN : GiNaC::ex_to<numeric>(it->second).to_double();
  }
  if (e.is_equal(GiNaC::Pi)) return 3.14159265358979323846;
  std::vector<double> args;
  for (size_t i = 0; i < e.nops(); ++i) args.push_back(evaluate(e.op(i), values));
  if (GiNaC::is_a<GiNaC::add>(e)) return std::accumulate(args.begin(), args.end(), 0.0);
  if (GiNaC::is_a<GiNaC::mul>(e)) {
    return std::accumulate(args.begin(), args.end(), 1.0, std::multiplies<double>());
  }
  if (GiNaC::is_a<GiNaC::power>(e)) return std::pow(args[0], args[1]);
  if (!GiNaC::is_a<GiNaC::function>(e)) return kNaN;
  static const std::map<std::string, double (*)(double)> kUnary = {
      {"sin", std::sin},   {"cos", std::cos},   {"tan", std::tan},   {"asin", std::asin},
      {"acos", std::acos}, {"atan", std::atan}, {"sinh", std::sinh}, {"cosh", std::cosh},
      {"tanh", std::tanh}, {"exp", std::exp},   {"log", std::log},   {"abs", std::fabs},
  };
  std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
  if (auto it = kUnary.find(name); it != kUnary.end()) return it->second(args[0]);
  if (name == "atan2") return std::atan2(args[0], args[1]);
  if (name == "sign") return std::isnan(args[0]) ? kNaN : (args[0] > 0) - (args[0] < 0);
  if (name == "conjugate" || name == "real_part") return args[0];
  if (name == "imag_part") return std::isnan(args[0]) ? kNaN : 0.0;
  return kNaN;
}

// `e` at one of two points (every symbol set to a value in (0, 1), where asin and acos are
// defined), or nothing if it is undefined or not real there.
std::optional<double> value_at(const ex& e, const Symbols& symbols, int point) {
  GiNaC::exmap values;
  int k = 0;
  for (const auto& [name, symbol] : symbols.by_name) {
    values[symbol] = numeric(2 + (7 * k++ + 3 * point) % 15, 20);
  }
  double value = evaluate(e, values);
  if (!std::isfinite(value)) return {};
  return value;
}

// Whether `a` and `b` have the same real value at two points. GiNaC's automatic simplification
// depends on how an expression is built, so a printed and re-parsed expression may differ in
// form but not in value: (1/b)^(-1/2) prints as 1/sqrt(1/b), which GiNaC reads back as sqrt(b).
bool same_value(const ex& a, const ex& b, const Symbols& symbols) {
  for (int point = 0; point < 2; ++point) {
    std::optional<double> va = value_at(a, symbols, point), vb = value_at(b, symbols, point);
    if (!va || !vb || !(std::fabs(*va - *vb) <= 1e-9 * (1 + std::fabs(*va)))) return false;
  }
  return true;
}

// Prints `e`, parses the text back and checks it is the same expression (in form, or failing
// that in value).
void expect_round_trip(const ex& e, const Symbols& symbols) {
  std::string text = to_dae(e);
  ex back = parse_expression(text, symbols);
  EXPECT_TRUE(same_expression(e, back) || same_value(e, back, symbols))
      << "printed: " << text << "\nparsed back: " << back << "\noriginal: " << e;
}

class PrinterTest : public ::testing::Test {
 protected:
  Symbols s;
  const realsymbol &a = s["a"], &b = s["b"], &c = s["c"], &x = s["x"], &y = s["y"];
  const realsymbol &x1 = s["x1"], &x2 = s["x2"], &t = s["t"];
};

// ---- single constructs ----

TEST_F(PrinterTest, Atoms) {
  EXPECT_EQ("x", to_dae(x));
  EXPECT_EQ("t", to_dae(t));
  EXPECT_EQ("pi", to_dae(GiNaC::Pi));
  EXPECT_EQ("0", to_dae(ex(0)));
  EXPECT_EQ("42", to_dae(ex(42)));
  EXPECT_EQ("-7", to_dae(ex(-7)));
  EXPECT_EQ("123456789012345678901234567890", to_dae(numeric("123456789012345678901234567890")));
}

TEST_F(PrinterTest, RationalsPrintExactly) {
  EXPECT_EQ("981/100", to_dae(numeric(981, 100)));
  EXPECT_EQ("-3/2", to_dae(numeric(-3, 2)));
  EXPECT_EQ("981*x/100", to_dae(numeric(981, 100) * x));
  EXPECT_EQ("-3*x/2", to_dae(numeric(-3, 2) * x));
  EXPECT_EQ("x/2", to_dae(x / 2));
  EXPECT_EQ("x^(3/2)", to_dae(GiNaC::pow(x, numeric(3, 2))));
  EXPECT_EQ("x - 3/2", to_dae(x - numeric(3, 2)));
}

TEST_F(PrinterTest, FloatingValuesUseSeventeenDigits) {
  EXPECT_EQ("0.5", to_dae(numeric(0.5)));
  EXPECT_EQ("0.10000000000000001", to_dae(numeric(0.1)));
  EXPECT_EQ("-2.5", to_dae(numeric(-2.5)));
  EXPECT_EQ("x - 2.5", to_dae(x + numeric(-2.5)));
}

TEST_F(PrinterTest, UnaryMinusBindsLooserThanPower) {
  EXPECT_EQ("-x^2", to_dae(-GiNaC::pow(x, 2)));
  EXPECT_EQ("-x", to_dae(-x));
  EXPECT_EQ("-x*y", to_dae(-x * y));
  EXPECT_EQ("-sin(x)", to_dae(-GiNaC::sin(x)));
  EXPECT_EQ("(-2)^x", to_dae(GiNaC::pow(-2, x)));
  EXPECT_EQ("-2^x", to_dae(-GiNaC::pow(2, x)));
}

TEST_F(PrinterTest, PowersParenthesiseSumsAndProducts) {
  EXPECT_EQ("(a + b)^2", to_dae(GiNaC::pow(a + b, 2)));
  EXPECT_EQ("(a*b)^x", to_dae(GiNaC::pow(a * b, x)));
  EXPECT_EQ("(x^y)^z", to_dae(GiNaC::pow(GiNaC::pow(x, y), s["z"])));
  EXPECT_EQ("sin(x)^2", to_dae(GiNaC::pow(GiNaC::sin(x), 2)));
  EXPECT_EQ("(1/2)^x", to_dae(GiNaC::pow(numeric(1, 2), x)));
}

TEST_F(PrinterTest, ExponentsOtherThanAtomsAreParenthesised) {
  EXPECT_EQ("x^y", to_dae(GiNaC::pow(x, y)));
  EXPECT_EQ("x^(-y)", to_dae(GiNaC::pow(x, -y)));
  EXPECT_EQ("x^(a + b)", to_dae(GiNaC::pow(x, a + b)));
  EXPECT_EQ("x^(2*y)", to_dae(GiNaC::pow(x, 2 * y)));
  EXPECT_EQ("2^(x^2)", to_dae(GiNaC::pow(2, GiNaC::pow(x, 2))));
  EXPECT_EQ("x^sin(y)", to_dae(GiNaC::pow(x, GiNaC::sin(y))));
}

TEST_F(PrinterTest, NestedNumericPowersEvaluateAndReparseEqual) {
  // 2^(3^2) is 2^9: GiNaC evaluates it, and the printed value parses to the same number.
  ex e = GiNaC::pow(2, GiNaC::pow(3, 2));
  EXPECT_EQ("512", to_dae(e));
  expect_round_trip(e, s);
  EXPECT_TRUE(same_expression(e, parse_expression("2^3^2", s)));
  EXPECT_TRUE(same_expression(GiNaC::pow(8, 2), parse_expression("(2^3)^2", s)));
}

TEST_F(PrinterTest, SquareRoots) {
  EXPECT_EQ("sqrt(x)", to_dae(GiNaC::sqrt(x)));
  EXPECT_EQ("1/sqrt(x)", to_dae(1 / GiNaC::sqrt(x)));
  EXPECT_EQ("a/sqrt(x)", to_dae(a / GiNaC::sqrt(x)));
  EXPECT_EQ("1/x^(3/2)", to_dae(GiNaC::pow(x, numeric(-3, 2))));
  EXPECT_EQ("sqrt(a + b)", to_dae(GiNaC::sqrt(a + b)));
  EXPECT_EQ("sqrt(2)", to_dae(GiNaC::sqrt(ex(2))));
}

TEST_F(PrinterTest, Quotients) {
  EXPECT_EQ("a/(b*c)", to_dae(a / (b * c)));
  EXPECT_EQ("1/x", to_dae(1 / x));
  EXPECT_EQ("-1/x", to_dae(-1 / x));
  EXPECT_EQ("a/b^2", to_dae(a / GiNaC::pow(b, 2)));
  EXPECT_EQ("a/(b + c)", to_dae(a / (b + c)));
  EXPECT_EQ("(a + b)/(c + x)", to_dae((a + b) / (c + x)));
  EXPECT_EQ("a/(2*b)", to_dae(a / (2 * b)));
  EXPECT_EQ("3*a/(2*b^2)", to_dae(3 * a / (2 * GiNaC::pow(b, 2))));
  EXPECT_EQ("a/sin(x)", to_dae(a / GiNaC::sin(x)));
  EXPECT_EQ("-a*b/(c*x)", to_dae(-a * b / (c * x)));
}

TEST_F(PrinterTest, SumsPrintNegativeTermsWithMinus) {
  EXPECT_EQ("a - b", to_dae(a - b));
  EXPECT_EQ("b - a", to_dae(b - a));
  EXPECT_EQ("-a - b", to_dae(-a - b));
  EXPECT_EQ("x - 1", to_dae(x - 1));
  EXPECT_EQ("1 - x", to_dae(1 - x));
  EXPECT_EQ("a - 2*b", to_dae(a - 2 * b));
  EXPECT_EQ("a - b/c", to_dae(a - b / c));
  EXPECT_EQ("a - b^2", to_dae(a - GiNaC::pow(b, 2)));
  EXPECT_EQ("a - 3*b/2", to_dae(a - numeric(3, 2) * b));
  EXPECT_EQ("a - sin(x)", to_dae(a - GiNaC::sin(x)));
}

TEST_F(PrinterTest, ProductsParenthesiseSums) {
  EXPECT_EQ("c*(a + b)", to_dae(c * (a + b)));
  EXPECT_EQ("-c*(a + b)", to_dae(-c * (a + b)));
  EXPECT_EQ("(a + b)*(c + x)", to_dae((a + b) * (c + x)));
  EXPECT_EQ("2*a + 2*b", to_dae(2 * (a + b)));  // GiNaC distributes a number over a sum
}

TEST_F(PrinterTest, Functions) {
  const std::vector<std::pair<ex, std::string>> cases = {
      {GiNaC::sin(x), "sin(x)"},
      {GiNaC::cos(x), "cos(x)"},
      {GiNaC::tan(x), "tan(x)"},
      {GiNaC::asin(x), "asin(x)"},
      {GiNaC::acos(x), "acos(x)"},
      {GiNaC::atan(x), "atan(x)"},
      {GiNaC::atan2(y, x), "atan2(y, x)"},
      {GiNaC::sinh(x), "sinh(x)"},
      {GiNaC::cosh(x), "cosh(x)"},
      {GiNaC::tanh(x), "tanh(x)"},
      {GiNaC::exp(x), "exp(x)"},
      {GiNaC::log(x), "log(x)"},
      {GiNaC::abs(x), "abs(x)"},
      {daec::sign(x), "sign(x)"},
      {GiNaC::exp(-x), "exp(-x)"},
      {GiNaC::sin(a + b), "sin(a + b)"},
      {GiNaC::atan2(a - b, x * y), "atan2(a - b, x*y)"},
  };
  for (const auto& [e, text] : cases) {
    EXPECT_EQ(text, to_dae(e));
    expect_round_trip(e, s);
  }
}

TEST_F(PrinterTest, ConditionsRoundTrip) {
  using daec::daec_and;
  using daec::daec_if;
  using daec::daec_not;
  using daec::daec_or;
  const std::vector<std::pair<ex, std::string>> cases = {
      {daec_if(daec::daec_lt(t, 1), 0, GiNaC::sin(t - 1)), "if t < 1 then 0 else sin(t - 1)"},
      {daec_if(daec::daec_le(x, 0), -1, daec_if(daec::daec_ge(x, 1), 1, x)),
       "if x <= 0 then -1 elseif x >= 1 then 1 else x"},
      {2 * daec_if(daec::daec_eq(a, b), x, y), "2*(if a == b then x else y)"},
      {GiNaC::pow(daec_if(daec::daec_ne(a, 0), x, y), 2), "(if a <> 0 then x else y)^2"},
      {daec_if(daec_or(daec_and(daec::daec_gt(x, 0), daec::daec_lt(y, 1)), daec::daec_gt(t, 2)), a,
               b),
       "if x > 0 and y < 1 or t > 2 then a else b"},
      {daec_if(daec_and(daec_or(daec::daec_gt(x, 0), daec::daec_lt(y, 1)),
                        daec_not(daec_and(daec::daec_gt(t, 2), daec::daec_lt(a, 0)))),
               a, b),
       "if (x > 0 or y < 1) and not (t > 2 and a < 0) then a else b"},
      {daec::make_min(x, y) - daec::make_max(a, 2 * b), "min(x, y) - max(a, 2*b)"},
      {GiNaC::sin(daec_if(daec::daec_gt(x, y), x, y) + 1), "sin(max(x, y) + 1)"},
  };
  for (const auto& [e, text] : cases) {
    EXPECT_EQ(text, to_dae(e));
    expect_round_trip(e, s);
  }
}

TEST_F(PrinterTest, Pi) {
  EXPECT_EQ("2*pi", to_dae(2 * GiNaC::Pi));
  EXPECT_EQ("pi/2", to_dae(GiNaC::Pi / 2));
  EXPECT_EQ("sin(pi*t)", to_dae(GiNaC::sin(GiNaC::Pi * t)));
  expect_round_trip(GiNaC::Pi * x / 3, s);
}

TEST_F(PrinterTest, FactorsInNameOrderDerivativesLast) {
  realsymbol m("m"), u_prime("u'"), lambda("lambda"), g("g");
  EXPECT_EQ("m*u'", to_dae(u_prime * m));
  EXPECT_EQ("-g*m - lambda*x", to_dae(-lambda * x - m * g));
  EXPECT_EQ("2*lambda*t*x", to_dae(2 * t * x * lambda));
  EXPECT_EQ("x*sin(t)*(a + b)", to_dae((a + b) * GiNaC::sin(t) * x));
}

TEST_F(PrinterTest, TermsInNaturalNameOrder) {
  EXPECT_EQ("x1 + x2 + x10", to_dae(s["x10"] + x2 + x1));
  EXPECT_EQ("x^2 + x + 1", to_dae(1 + x + GiNaC::pow(x, 2)));
  EXPECT_EQ("x^2 + x*y + y^2", to_dae(GiNaC::pow(y, 2) + x * y + GiNaC::pow(x, 2)));
  EXPECT_EQ("x + 1/x", to_dae(1 / x + x));
  realsymbol L("L");
  EXPECT_EQ("x^2 + y^2 - L^2", to_dae(GiNaC::pow(x, 2) + GiNaC::pow(y, 2) - GiNaC::pow(L, 2)));
}

TEST_F(PrinterTest, SumFactorsPrintInCanonicalSign) {
  // GiNaC may store c*(x2 - x1) as -c*(x1 - x2), depending on hash order: the printer settles
  // on one form, whichever GiNaC chose.
  EXPECT_EQ("-c*(x1 - x2)", to_dae(c * (x2 - x1)));
  EXPECT_EQ("c*(x1 - x2)", to_dae(c * (x1 - x2)));
  EXPECT_EQ("(x1 - x2)^2", to_dae(GiNaC::pow(x2 - x1, 2)));
  EXPECT_EQ("-(x1 - x2)^3", to_dae(GiNaC::pow(x2 - x1, 3)));
  EXPECT_EQ("c/(x1 - x2)", to_dae(c / (x1 - x2)));
  EXPECT_EQ("-c/(x1 - x2)", to_dae(c / (x2 - x1)));
  EXPECT_EQ("-1/(x1 - x2)^3", to_dae(GiNaC::pow(x2 - x1, -3)));
  EXPECT_EQ("-c*(a + b)", to_dae(c * (-a - b)));
  // A non-integer power of a sum keeps its sign: sqrt(x2 - x1) is not -sqrt(x1 - x2).
  EXPECT_EQ("sqrt(x2 - x1)", to_dae(GiNaC::sqrt(x2 - x1)));
  EXPECT_EQ("(x2 - x1)^(3/2)", to_dae(GiNaC::pow(x2 - x1, numeric(3, 2))));
  for (const ex& e : {c * (x2 - x1), GiNaC::pow(x2 - x1, 3), GiNaC::pow(x2 - x1, -3), c / (x2 - x1),
                      GiNaC::sqrt(x2 - x1)}) {
    expect_round_trip(e, s);
  }
}

TEST(Printer, OutputDoesNotDependOnSymbolCreationOrder) {
  // GiNaC sorts operands by hash values that depend on each symbol's serial number (and, from run
  // to run, on where libginac is loaded). Creating the symbols in different orders, with other
  // symbols in between, changes GiNaC's order; the printed text must not change.
  const std::vector<std::string> names = {"a",  "g",  "m1",      "m2",      "x1", "x2",
                                          "y1", "y2", "lambda1", "lambda2", "u1'"};
  std::set<std::string> printed, ginac_printed;
  for (size_t shift = 0; shift < 24; ++shift) {
    std::vector<realsymbol> padding(shift * 7 % 13);
    std::vector<std::string> order = names;
    std::rotate(order.begin(), order.begin() + static_cast<long>(shift % order.size()),
                order.end());
    if (shift % 2) std::reverse(order.begin(), order.end());
    std::map<std::string, realsymbol> n;
    for (const std::string& name : order) n.emplace(name, realsymbol(name));
    ex e = n["m1"] * n["u1'"] + n["lambda1"] * (n["x1"] + n["a"]) +
           n["lambda2"] * (n["x2"] - n["x1"]) - n["m1"] * n["g"] +
           GiNaC::pow(n["x1"] - n["x2"], 2) + GiNaC::pow(n["y2"] - n["y1"], 3) / n["m2"] +
           GiNaC::sin(n["x2"] - n["x1"]) * n["y1"] / (n["y2"] - n["y1"]);
    printed.insert(to_dae(e));
    std::ostringstream ginac;
    ginac << e;
    ginac_printed.insert(ginac.str());
  }
  EXPECT_EQ(1u, printed.size()) << ::testing::PrintToString(printed);
  // The test only means something if GiNaC's own order did vary.
  EXPECT_GT(ginac_printed.size(), 1u);
}

TEST(Printer, QuoteDaeString) {
  EXPECT_EQ("\"plain\"", daec::quote_dae_string("plain"));
  EXPECT_EQ("\"a \\\"b\\\" \\\\ c\"", daec::quote_dae_string("a \"b\" \\ c"));
  EXPECT_EQ("\"\"", daec::quote_dae_string(""));
}

TEST(Printer, PrintModelFormat) {
  auto result =
      run("model m \"A \\\"quoted\\\" model\";\n"
          "parameter k = 2*pi \"rate\";\n"
          "parameter h = k/4;\n"
          "variable x(start = 1/2, fixed = true) \"state\";\n"
          "variable z;\n"
          "output e = x^2 \"square\";\n"
          "equation\n"
          "  x' = -k*x;\n"
          "  link: z = x + h;\n"
          "end m;\n");
  ASSERT_TRUE(result->model) << result->diagnostics();
  EXPECT_EQ(
      "model m \"A \\\"quoted\\\" model\";\n"
      "parameter k = 2*pi \"rate\";\n"
      "parameter h = k/4;\n"
      "variable x(start = 1/2, fixed = true) \"state\";\n"
      "variable z(start = 0, fixed = false);\n"
      "output e = x^2 \"square\";\n"
      "equation\n"
      "  x' = -k*x;\n"
      "  link: z = h + x;\n"
      "end m;\n",
      print_model(*result->model));
}

// Nominal values and the initial equation section print back, and read back the same.
TEST(Printer, PrintModelWritesStartConditions) {
  auto result =
      run("model m;\n"
          "variable x(start = 1, nominal = 10), y;\n"
          "equation\n"
          "  x'' = -y;\n"
          "  y = x;\n"
          "initial equation\n"
          "  x' = 2;\n"
          "  go: x'' = 0;\n"
          "end m;\n");
  ASSERT_TRUE(result->model) << result->diagnostics();
  EXPECT_EQ(
      "model m;\n"
      "variable x(start = 1, fixed = false, nominal = 10);\n"
      "variable y(start = 0, fixed = false);\n"
      "equation\n"
      "  x'' = -y;\n"
      "  y = x;\n"
      "initial equation\n"
      "  x' = 2;\n"
      "  go: x'' = 0;\n"
      "end m;\n",
      print_model(*result->model));
  auto again = run(print_model(*result->model));
  ASSERT_TRUE(again->model) << again->diagnostics();
  EXPECT_EQ(print_model(*result->model), print_model(*again->model));
}

// A flattened model prints with its arrays as declared, constants fixed at compile time left
// out (their uses hold their values), and every label that is not the automatic one of its
// position: the equations of loops (eq1[2]) and those after them.
TEST(Printer, PrintModelWritesArraysAsDeclared) {
  auto result =
      run("model m;\n"
          "parameter N = 2, w[N] = {0.5, 1}, A[2, 2] = {{1, 2}, {3, 4}};\n"
          "variable x[N](start = 1) \"positions\", y[N](start = {i for i in 1:N});\n"
          "output s[N] = {x[i] + w[i] for i in 1:N};\n"
          "equation\n"
          "  for i in 1:N loop\n"
          "    x[i]' = -x[i] + A[i, 1];\n"
          "    rod[i]: y[i] = x[i]*N;\n"
          "  end for;\n"
          "end m;\n");
  ASSERT_TRUE(result->model) << result->diagnostics();
  EXPECT_EQ(
      "model m;\n"
      "parameter w[2] = {1/2, 1};\n"
      "parameter A[2, 2] = {{1, 2}, {3, 4}};\n"
      "variable x[2](start = 1, fixed = false) \"positions\";\n"
      "variable y[2](start = {1, 2}, fixed = false);\n"
      "output s[2] = {w[1] + x[1], w[2] + x[2]};\n"
      "equation\n"
      "  eq1[1]: x[1]' = A[1,1] - x[1];\n"
      "  rod[1]: y[1] = 2*x[1];\n"
      "  eq1[2]: x[2]' = A[2,1] - x[2];\n"
      "  rod[2]: y[2] = 2*x[2];\n"
      "end m;\n",
      print_model(*result->model));
  auto again = run(print_model(*result->model));
  ASSERT_TRUE(again->model) << again->diagnostics();
  EXPECT_EQ(print_model(*result->model), print_model(*again->model));
}

// ---- round trips ----

// Builds random expressions from every operator and function of the language (deterministic:
// fixed seed, and every random choice sequenced explicitly, so that all compilers build the same
// expressions). Nothing it builds makes GiNaC throw: no division by zero, no zero base, and
// function arguments always hold a name (no log(0), tan(pi/2) or atan2(0, 0)).
class RandomExpressions {
 public:
  explicit RandomExpressions(const Symbols& symbols) : s_(symbols) {}

  ex make(int depth) {
    if (depth == 0 || pick(5) == 0) return leaf();
    int choice = pick(9);
    if (choice >= 6) return function(depth - 1);
    ex left = make(depth - 1);
    switch (choice) {
      case 0:
        return left + make(depth - 1);
      case 1:
        return left - make(depth - 1);
      case 2:
        return left * make(depth - 1);
      case 3:
        return left / nonzero(make(depth - 1));
      case 4:
        return -left;
      default:
        return GiNaC::pow(nonzero(left), exponent(depth - 1));
    }
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  static ex nonzero(const ex& e) { return e.is_zero() ? e + 1 : e; }

  const realsymbol& name() {
    return s_[kNames[static_cast<size_t>(pick(static_cast<int>(kNames.size())))]];
  }

  // `e`, plus a name if it holds none.
  ex with_name(const ex& e) {
    for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it) {
      if (GiNaC::is_a<GiNaC::symbol>(*it)) return e;
    }
    return e + name();
  }

  ex leaf() {
    switch (pick(6)) {
      case 0:
        return ex(pick(9) - 3);
      case 1: {
        int numerator = pick(9) - 4;
        return numeric(numerator, pick(4) + 2);
      }
      case 2:
        return GiNaC::Pi;
      case 3:
        return s_["t"];
      default:
        return name();
    }
  }

  ex exponent(int depth) {
    static const numeric kRationals[] = {numeric(1, 2),  numeric(-1, 2), numeric(3, 2),
                                         numeric(-3, 2), numeric(1, 3),  numeric(-2, 3)};
    switch (pick(5)) {
      case 0:
        return ex(pick(7) - 3);
      case 1:
        return kRationals[pick(6)];
      case 2:
        return name();
      default:
        return make(depth);
    }
  }

  ex function(int depth) {
    ex u = with_name(make(depth));
    switch (pick(16)) {
      case 0:
        return GiNaC::sin(u);
      case 1:
        return GiNaC::cos(u);
      case 2:
        return GiNaC::tan(u);
      case 3:
        return GiNaC::asin(u);
      case 4:
        return GiNaC::acos(u);
      case 5:
        return GiNaC::atan(u);
      case 6:
        return GiNaC::atan2(u, with_name(make(depth)));
      case 7:
        return GiNaC::sinh(u);
      case 8:
        return GiNaC::cosh(u);
      case 9:
        return GiNaC::tanh(u);
      case 10:
        return GiNaC::exp(u);
      case 11:
        return GiNaC::log(u);
      case 12:
        return GiNaC::sqrt(u);
      case 13:
        return GiNaC::pow(u, make(depth));
      case 14:
        return GiNaC::abs(u);
      default:
        return daec::sign(u);
    }
  }

  const Symbols& s_;
  std::mt19937 rng_{20240601};
};

// Whether `e` holds a non-real number (log(-1) is I*pi): the language has no way to write one.
bool has_non_real_number(const ex& e) {
  for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it) {
    if (GiNaC::is_a<numeric>(*it) && !GiNaC::ex_to<numeric>(*it).is_real()) return true;
  }
  return false;
}

TEST(Printer, RandomExpressionsRoundTrip) {
  Symbols s;
  RandomExpressions random(s);
  int checked = 0;
  for (int i = 0; i < 600; ++i) {
    ex e = random.make(1 + i % 5);
    // Out of the language's real domain (log(-1) is I*pi, acos(pi) is complex) the printer may
    // rightly drop a conjugate: such expressions are not what models contain.
    if (has_non_real_number(e) || !value_at(e, s, 0) || !value_at(e, s, 1)) continue;
    SCOPED_TRACE("expression " + std::to_string(i));
    expect_round_trip(e, s);
    if (::testing::Test::HasFailure()) return;  // one failure tells enough
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

// ---- every bundled model ----

std::vector<std::string> bundled_models() {
  std::vector<std::string> names;
  for (const auto& entry :
       std::filesystem::directory_iterator(daec::test::source_dir() + "/models")) {
    if (entry.path().extension() == ".dae") names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Maps the symbols of `from` to the symbols of `to` with the same names (parameters, variables,
// their derivatives and t). GiNaC compares symbols by identity, and two parses never share any.
GiNaC::exmap symbol_map(const daec::Model& from, const daec::Model& to) {
  GiNaC::exmap map;
  map[from.time] = to.time;
  for (const daec::Parameter& p : from.parameters) {
    if (const daec::Parameter* q = to.find_parameter(p.name)) map[p.symbol] = q->symbol;
  }
  for (const daec::Variable& v : from.variables) {
    const daec::Variable* w = to.find_variable(v.name);
    if (!w) continue;
    map[v.symbol] = w->symbol;
    for (size_t k = 0; k < v.derivatives.size() && k < w->derivatives.size(); ++k) {
      map[v.derivatives[k]] = w->derivatives[k];
    }
  }
  return map;
}

void expect_same_model(const daec::Model& first, const daec::Model& second) {
  GiNaC::exmap map = symbol_map(second, first);
  auto same = [&](const ex& e1, const ex& e2) { return same_expression(e1, e2.subs(map)); };
  EXPECT_EQ(first.name, second.name);
  EXPECT_EQ(first.description, second.description);
  ASSERT_EQ(first.parameters.size(), second.parameters.size());
  for (size_t i = 0; i < first.parameters.size(); ++i) {
    const daec::Parameter &p = first.parameters[i], &q = second.parameters[i];
    EXPECT_EQ(p.name, q.name);
    EXPECT_EQ(p.element.array, q.element.array) << p.name;
    EXPECT_EQ(p.description, q.description);
    EXPECT_EQ(p.value, q.value) << p.name;
    EXPECT_TRUE(same(p.default_value, q.default_value)) << p.name;
  }
  ASSERT_EQ(first.variables.size(), second.variables.size());
  for (size_t i = 0; i < first.variables.size(); ++i) {
    const daec::Variable &v = first.variables[i], &w = second.variables[i];
    EXPECT_EQ(v.name, w.name);
    EXPECT_EQ(v.element.index, w.element.index) << v.name;
    EXPECT_EQ(v.element.shape, w.element.shape) << v.name;
    EXPECT_EQ(v.description, w.description);
    EXPECT_EQ(v.fixed, w.fixed) << v.name;
    EXPECT_EQ(v.highest_order(), w.highest_order()) << v.name;
    EXPECT_TRUE(same(v.start, w.start)) << v.name;
  }
  ASSERT_EQ(first.outputs.size(), second.outputs.size());
  for (size_t i = 0; i < first.outputs.size(); ++i) {
    EXPECT_EQ(first.outputs[i].name, second.outputs[i].name);
    EXPECT_EQ(first.outputs[i].description, second.outputs[i].description);
    EXPECT_TRUE(same(first.outputs[i].value, second.outputs[i].value)) << first.outputs[i].name;
  }
  ASSERT_EQ(first.equations.size(), second.equations.size());
  for (size_t i = 0; i < first.equations.size(); ++i) {
    const daec::Equation &e = first.equations[i], &f = second.equations[i];
    EXPECT_EQ(e.label, f.label);
    // A label that is not the automatic name of its position (eq3[2] of a loop, eq7 after a
    // loop) is printed, and so reads back as written.
    bool positional = e.label == "eq" + std::to_string(i + 1);
    EXPECT_EQ(e.labelled || !positional, f.labelled) << e.label;
    EXPECT_TRUE(same(e.residual(), f.residual()))
        << e.label << ": " << e.residual() << " vs " << f.residual().subs(map);
    EXPECT_TRUE(same(e.lhs, f.lhs)) << e.label;
    EXPECT_TRUE(same(e.rhs, f.rhs)) << e.label;
  }
}

TEST(Printer, BundledModelsAreFound) {
  std::vector<std::string> models = bundled_models();
  for (const char* expected :
       {"pendulum.dae", "coupled_pendulums.dae", "example_12_1.dae", "index_chain.dae",
        "pendulum_chain.dae", "fekete.dae", "exponential_ode.dae"}) {
    EXPECT_NE(models.end(), std::find(models.begin(), models.end(), expected)) << expected;
  }
}

TEST(Printer, EveryBundledModelRoundTrips) {
  for (const std::string& name : bundled_models()) {
    SCOPED_TRACE(name);
    auto first = run(daec::test::read_source_file("models/" + name), name);
    ASSERT_TRUE(first->model) << first->diagnostics();
    EXPECT_EQ("", first->diagnostics());
    std::string printed = print_model(*first->model);
    auto second = run(printed, "printed_" + name);
    ASSERT_TRUE(second->model) << second->diagnostics() << "\nprinted model:\n" << printed;
    EXPECT_EQ("", second->diagnostics());
    expect_same_model(*first->model, *second->model);
    // Printing is a fixed point: the printed model prints the same again.
    EXPECT_EQ(printed, print_model(*second->model));
  }
}

}  // namespace
