// model/evaluation.h: building a node from operands computed first (with_operands), which every
// walk that may throw uses so that no exception passes through GiNaC while it builds (GiNaC leaks
// what it is building then; the sanitizer build's leak check has no suppression for it).
#include "model/evaluation.h"

#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>

#include "model/conditions.h"
#include "reduction/shared_expressions.h"

namespace {

using GiNaC::ex;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

TEST(Evaluation, WithOperandsRebuildsEachKindOfNode) {
  GiNaC::realsymbol x("x"), y("y");
  EXPECT_TRUE(daec::with_operands(x + 2 * y, {ex(1), ex(6)}).is_equal(7));
  EXPECT_TRUE(daec::with_operands(x * y, {ex(3), y}).is_equal(3 * y));
  EXPECT_TRUE(daec::with_operands(GiNaC::pow(x, 3), {y, ex(2)}).is_equal(GiNaC::pow(y, 2)));
  EXPECT_TRUE(daec::with_operands(GiNaC::sin(x), {ex(0)}).is_equal(0));
  ex branch = daec::daec_if(daec::daec_lt(x, 0), x, y);
  EXPECT_TRUE(daec::with_operands(branch, {daec::daec_lt(-1, 0), ex(5), y}).is_equal(5));
  EXPECT_EQ("with_operands: operand count", error_of([&] { daec::with_operands(x + y, {ex(1)}); }));
}

TEST(Evaluation, WithOperandsRefusesBeforeGiNaCBuilds) {
  GiNaC::realsymbol x("x");
  EXPECT_EQ("division by zero", error_of([&] {
              daec::with_operands(GiNaC::pow(x, -1), {ex(0), ex(-1)});
            }));
  EXPECT_EQ("log(0)", error_of([&] { daec::with_operands(GiNaC::log(x), {ex(0)}); }));
  EXPECT_EQ("simple pole", error_of([&] { daec::with_operands(GiNaC::tan(x), {GiNaC::Pi / 2}); }));
}

// Substituting values and differentiating meet poles deep inside an expression; each is an
// error, and (in the sanitizer build) nothing leaks.
TEST(Evaluation, WalksThatMeetAPoleThrowWithoutLeaking) {
  GiNaC::realsymbol x("x"), y("y");
  ex deep = GiNaC::sin(y * GiNaC::exp(y + GiNaC::pow(x, -1))) + y;
  EXPECT_EQ("division by zero", error_of([&] { daec::shared_substitute(deep, {{x, 0}}); }));
  EXPECT_EQ("division by zero", error_of([&] { daec::evaluate_bounded(deep, {{x, 0}, {y, 1}}); }));
  EXPECT_EQ("log(0)", error_of([&] { daec::shared_substitute(GiNaC::log(x) * y, {{x, 0}}); }));
  ex zero_to_the_x = GiNaC::pow(ex(0), x) + y;
  EXPECT_EQ("division by zero", error_of([&] { daec::shared_derivative(zero_to_the_x, x); }));
}

}  // namespace
