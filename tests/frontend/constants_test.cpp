// Tests of the exact constants of the front end (src/frontend/constants.cpp): literals as exact
// rationals (also for -D), and the guarded substitution of parameter values, which substitutes
// only the branch a decided condition selects.
#include "frontend/constants.h"

#include <gtest/gtest.h>

#include "model/conditions.h"

namespace daec {
namespace {

using GiNaC::ex;
using GiNaC::numeric;

TEST(Constants, LiteralsAreExact) {
  EXPECT_TRUE(exact_number("0.1").is_equal(numeric(1, 10)));
  EXPECT_TRUE(exact_number("2.5e-3").is_equal(numeric(1, 400)));
  EXPECT_TRUE(exact_number("-2.5").is_equal(numeric(-5, 2)));
  EXPECT_TRUE(exact_number("+1e3").is_equal(1000));
  EXPECT_TRUE(exact_number("1000").is_equal(1000));
  EXPECT_TRUE(exact_number("0e99999999999999999999").is_zero());
}

TEST(Constants, NumberLiteralsForDefines) {
  for (const char* text : {"1", "1000", "-2.5", "+3", "1e-3", "6.02E23", ".5", "5.", "-0"}) {
    EXPECT_TRUE(is_number_literal(text)) << text;
  }
  for (const char* text : {"", "-", "abc", "1e", "1e+", "1.2.3", "2x", "--1", ".", "1 2", "0x10"}) {
    EXPECT_FALSE(is_number_literal(text)) << text;
  }
}

TEST(Constants, SubstitutionTakesOnlyTheSelectedBranch) {
  GiNaC::realsymbol a("a");
  // if a > 0 then 1/a else 0, at a = 0: the branch 1/a would divide by zero.
  ex guarded = daec_if(daec_gt(a, 0), GiNaC::pow(a, -1), 0);
  double value = -1;
  EXPECT_EQ(to_finite_double(guarded, {{a, 0}}, value), std::nullopt);
  EXPECT_EQ(value, 0);
  EXPECT_EQ(to_finite_double(guarded, {{a, 4}}, value), std::nullopt);
  EXPECT_EQ(value, 0.25);
  ex unguarded = GiNaC::pow(a, -1);
  EXPECT_EQ(to_finite_double(unguarded, {{a, 0}}, value),
            std::optional<std::string>("division by zero"));
}

TEST(Constants, LogAtZeroInTheBranchNotTakenIsNoError) {
  GiNaC::realsymbol a("a");
  ex e = daec_if(daec_le(a, 0), 0, GiNaC::log(a));
  double value = -1;
  EXPECT_EQ(to_finite_double(e, {{a, 0}}, value), std::nullopt);
  EXPECT_EQ(value, 0);
}

TEST(Constants, UndecidedConditionIsNotAConstant) {
  GiNaC::realsymbol a("a"), x("x");
  double value;
  EXPECT_EQ(to_finite_double(daec_if(daec_gt(x, 0), a, 1), {{a, 2}}, value),
            std::optional<std::string>("it is not a constant"));
}

}  // namespace
}  // namespace daec
