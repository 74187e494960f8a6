// End-to-end tests where features meet (docs/language.md, "Initial values" and "When clauses
// and reinit"; docs/simulator.md, "Resets"): each model exercises two features together and is
// checked against its exact answer on every method. Unknowns promoted for nonlinearity beside a
// written start, a reset that switches the branch of a promoted unknown, a reset of a state
// other than the one its condition watches, evenly spaced resets that are no accumulation.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "e2e_util.h"

namespace daec::test {
namespace {

const char* const kTolerances = " --rtol 1e-10 --atol 1e-10";

Csv run_csv(const Build& build, const std::string& arguments, std::string* err = nullptr) {
  CommandResult run = run_program(build.executable, arguments + kTolerances);
  EXPECT_EQ(0, run.status) << arguments << "\n" << run.err;
  if (err != nullptr) *err = run.err;
  return parse_csv(run.out);
}

// The diode's voltage v enters exp(v/Vt): the reduction makes it a state without a start. The
// capacitor's written u = 5 is the start, not a guess traded against v's default 0 (which gave
// u = 0.192), with or without a start written for v (an algebraic unknown's start is a guess:
// 0.6 gave u = 4.984).
TEST(FeaturesMeet, AWrittenStartOutweighsThePromotedUnknownsDefault) {
  std::string dir = make_scratch_dir("meet_diode");
  Build build = build_simulator("tests/data/meet/diode_discharge.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  const double R = 100, Is = 1e-12, Vt = 0.025;
  for (const char* method : kMethods) {
    for (const char* v_start : {"", " --set v=0.6", " --set v=-3"}) {
      SCOPED_TRACE(std::string(method) + v_start);
      std::string err;
      Csv csv = run_csv(build, std::string("--t-end 1e-4 --step 2e-5 --method ") + method + v_start,
                        &err);
      ASSERT_FALSE(csv.rows.empty());
      EXPECT_EQ(5.0, csv.at(0, "u"));
      EXPECT_EQ(err.find("u: 5 ->"), std::string::npos) << err;
      for (size_t row = 0; row < csv.rows.size(); ++row) {
        const double u = csv.at(row, "u"), i = csv.at(row, "i"), v = csv.at(row, "v");
        EXPECT_NEAR(u, R * i + v, 1e-8 * u);
        EXPECT_NEAR(i, Is * std::expm1(v / Vt), 1e-8 * i);
      }
      EXPECT_LT(csv.last("u"), 5.0);
    }
  }
}

// reinit(y, 1) at t = 1 turns on the branch of the promoted unknown i = 1/(1 + 0.1 T): the
// re-initialization solves for i and keeps T, which nothing reset, at 0 (it jumped to 0.099, and
// T(2) was 0.99725). Exact: (1 + 0.1 T)^3 = 1 + 0.3 (t - 1).
TEST(FeaturesMeet, AResetThatSwitchesAPromotedUnknownsBranchKeepsTheOtherStates) {
  std::string dir = make_scratch_dir("meet_reset_promoted");
  Build build = build_simulator("tests/data/meet/reset_promoted.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    std::string err;
    Csv csv = run_csv(build, std::string("--t-end 2 --output-times 0.5,1,1.000001,1.5,2 --method ") +
                                 method,
                      &err);
    ASSERT_EQ(5u, csv.rows.size());
    EXPECT_EQ(err.find("continuous state"), std::string::npos) << err;
    for (size_t row = 0; row < csv.rows.size(); ++row) {
      const double t = csv.at(row, "t");
      const double T = t <= 1 ? 0.0 : 10 * (std::cbrt(1 + 0.3 * (t - 1)) - 1);
      EXPECT_NEAR(T, csv.at(row, "T"), 1e-7) << "t = " << t;
      if (t > 1) {
        EXPECT_NEAR(1 / (1 + 0.1 * T), csv.at(row, "i"), 1e-7) << "t = " << t;
      }
    }
  }
}

// `when x < 0.5 then reinit(c, c + 1)`: c = 1 from t = 0.5, once (the state after the reset
// carried x from before the instant, so the condition turned false and fired again at once:
// "chattering"). The sawtooth resets every 5 us for a millisecond of a run of 1e4 s, closer
// than the accumulation guard's window (1e-9 of the run) but evenly spaced: 200 resets, no
// error.
TEST(FeaturesMeet, ResetsOfOtherStatesAndEvenlySpacedResetsRunThrough) {
  std::string dir = make_scratch_dir("meet_reset_other");
  Build build = build_simulator("tests/data/meet/reset_other_state.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    Csv csv =
        run_csv(build, std::string("--t-end 1e4 --output-times 0.4,0.6,1e4 --method ") + method);
    ASSERT_EQ(3u, csv.rows.size());
    EXPECT_EQ(0.0, csv.at(0, "c"));
    EXPECT_EQ(1.0, csv.at(1, "c"));
    EXPECT_EQ(1.0, csv.at(2, "c"));
    EXPECT_NEAR(-9999.0, csv.at(2, "x"), 1e-6);
    EXPECT_EQ(200.0, csv.at(2, "n"));
    EXPECT_NEAR(2.5e-6, csv.at(2, "w"), 1e-12);
  }
}

}  // namespace
}  // namespace daec::test
