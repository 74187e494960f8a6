// Tests of the conditional expression of a table (src/model/interpolation.cpp): its values at,
// between and outside the breakpoints, its derivative (the segment's slope times v'), the
// relations it watches (one per breakpoint), and its depth for a long table.
#include "model/interpolation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "model/conditions.h"

namespace daec {
namespace {

using GiNaC::ex;

// The table (0, 1), (1, 3), (3, 3), (4, -1): a ramp, a constant part, a ramp down.
const std::vector<double> kXs = {0, 1, 3, 4};
const std::vector<double> kYs = {1, 3, 3, -1};

std::vector<ex> numbers(const std::vector<double>& values) {
  std::vector<ex> out;
  for (double v : values) out.push_back(GiNaC::numeric(v));
  return out;
}

double value_at(const ex& e, const GiNaC::realsymbol& v, double at) {
  ex value = e.subs(v == GiNaC::numeric(at)).evalf();
  EXPECT_TRUE(GiNaC::is_a<GiNaC::numeric>(value)) << value;
  return GiNaC::ex_to<GiNaC::numeric>(value).to_double();
}

TEST(Interpolation, ValuesAtBetweenAndOutsideTheBreakpoints) {
  GiNaC::realsymbol v("v");
  ex table = make_interpolation(v, numbers(kXs), numbers(kYs));
  const double cases[][2] = {{-5, 1}, {0, 1},   {0.25, 1.5}, {1, 3},  {2, 3},
                             {3, 3},  {3.5, 1}, {4, -1},     {9, -1}, {1e300, -1}};
  for (const auto& c : cases) EXPECT_DOUBLE_EQ(value_at(table, v, c[0]), c[1]) << "v = " << c[0];
}

TEST(Interpolation, DerivativeIsTheSlopeTimesTheArgumentsDerivative) {
  GiNaC::realsymbol t("t");
  ex v = 2 * t;  // d/dt interp(2t) = 2 * slope
  ex derivative = make_interpolation(v, numbers(kXs), numbers(kYs)).diff(t);
  const double cases[][2] = {{-1, 0}, {0.25, 4}, {1, 0}, {1.25, 0}, {1.75, -8}, {3, 0}};
  for (const auto& c : cases)
    EXPECT_DOUBLE_EQ(value_at(derivative, t, c[0]), c[1]) << "t = " << c[0];
  // Between breakpoints the second derivative is 0.
  ex second = derivative.diff(t);
  for (double at : {-1.0, 0.25, 1.25, 1.75, 3.0}) EXPECT_EQ(value_at(second, t, at), 0.0);
}

TEST(Interpolation, SymbolicTablesKeepTheirParameters) {
  GiNaC::realsymbol v("v"), x1("x1"), x2("x2"), y1("y1"), y2("y2");
  ex table = make_interpolation(v, {x1, x2}, {y1, y2});
  ex values = table.subs(GiNaC::lst{x1 == 2, x2 == 4, y1 == 10, y2 == 0});
  EXPECT_DOUBLE_EQ(value_at(values, v, 3), 5);
  EXPECT_DOUBLE_EQ(value_at(values, v, 1), 10);
  EXPECT_DOUBLE_EQ(value_at(values, v, 5), 0);
}

// Nesting depth of daec_if calls.
int depth(const ex& e) {
  int inner = 0;
  for (size_t i = 0; i < e.nops(); ++i) inner = std::max(inner, depth(e.op(i)));
  return inner + (is_if(e) ? 1 : 0);
}

TEST(Interpolation, OneRelationPerBreakpointNestedLogarithmically) {
  GiNaC::realsymbol v("v");
  std::vector<double> xs, ys;
  for (int k = 0; k < 1000; ++k) {
    xs.push_back(k);
    ys.push_back(std::sin(k));
  }
  ex table = make_interpolation(v, numbers(xs), numbers(ys));
  EXPECT_EQ(collect_relations({table}).size(), 1000u);
  EXPECT_LE(depth(table), 11);  // ceil(log2(1001 pieces))
  EXPECT_NEAR(value_at(table, v, 500.5), (std::sin(500) + std::sin(501)) / 2, 1e-15);
  EXPECT_DOUBLE_EQ(value_at(table, v, 999.5), std::sin(999));
}

}  // namespace
}  // namespace daec
