// daec/simulator/events.hpp: events located and restarted on every method, in process on the
// hand-written switching model (switch_model.h), whose exact solution is known piecewise.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include <daec/traits.hpp>

#include "run_in_process.h"
#include "switch_model.h"

namespace {

static_assert(daec::traits::num_conditions_v<circle::Model> == 0);
static_assert(daec::traits::num_conditions_v<switching::Model> == 1);

using daec::test::read;
using daec::test::scratch;

TEST(EventsRuntime, EveryMethodSwitchesWhereThePointPassesHalfTheRadius) {
  const double w = 2, r = 1.5, t1 = M_PI / (6 * w);
  for (const char* method : {"radau5", "radau5-dae", "bdf", "ida"}) {
    SCOPED_TRACE(method);
    std::string csv = scratch(std::string("switching-") + method + ".csv");
    std::string events = scratch(std::string("switching-") + method + "-events.csv");
    auto result = daec::test::run<switching::Model>({"--t-end", "1", "--rtol", "1e-11", "--atol",
                                                     "1e-11", "--method", method, "--output", csv,
                                                     "--events", events});
    ASSERT_EQ(result.status, 0) << result.err;
    EXPECT_NE(result.err.find(", events 1, "), std::string::npos) << result.err;
    double t_event = 0;
    char name[64] = {}, value[16] = {};
    std::string log = read(events);
    ASSERT_EQ(log.rfind("t,condition,value\n", 0), 0u) << log;
    ASSERT_EQ(std::sscanf(log.c_str() + 18, "%lg,%63[^,],%15s", &t_event, name, value), 3) << log;
    EXPECT_NEAR(t_event, t1, 1e-9);
    EXPECT_EQ(std::string(name), "speed: y < r/2");
    EXPECT_EQ(std::string(value), "false");
    std::istringstream in(read(csv));
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      double t, x, y;
      ASSERT_EQ(std::sscanf(line.c_str(), "%lg,%lg,%lg", &t, &x, &y), 3);
      double angle = t < t1 ? w * t : M_PI / 6 + w / 2 * (t - t1);
      EXPECT_NEAR(x, r * std::cos(angle), 1e-8) << "t = " << t;
      EXPECT_NEAR(y, r * std::sin(angle), 1e-8) << "t = " << t;
    }
  }
}

// A relation that is not a number where a too long step ends (past the switch, on the old
// branch): the step is redone shorter, never taken for an event at no time, and the run switches
// once, where the exact solution does. Without that, the NaN was a change of the relation, located
// at t = nan.
TEST(EventsRuntime, ANanAtTheEndOfATooLongStepIsAFailedStepOnEveryMethod) {
  const double w = 2, r = 1.5, t1 = M_PI / (6 * w);
  for (const char* method : {"radau5", "radau5-dae", "bdf", "ida"}) {
    SCOPED_TRACE(method);
    std::string csv = scratch(std::string("ahead-") + method + ".csv");
    std::string events = scratch(std::string("ahead-") + method + "-events.csv");
    auto result = daec::test::run<ahead::Model>(
        {"--t-end", "1", "--step", "0.5", "--method", method, "--output", csv, "--events", events});
    ASSERT_EQ(result.status, 0) << result.err;
    EXPECT_NE(result.err.find(", events 1, "), std::string::npos) << result.err;
    double t_event = 0;
    std::string log = read(events);
    ASSERT_EQ(std::sscanf(log.c_str(), "t,condition,value\n%lg,", &t_event), 1) << log;
    EXPECT_NEAR(t_event, t1, 1e-6);
    double t, x, y;
    const std::string last = read(csv).substr(read(csv).rfind("\n1,") + 1);
    ASSERT_EQ(std::sscanf(last.c_str(), "%lg,%lg,%lg", &t, &x, &y), 3) << read(csv);
    EXPECT_NEAR(x, r * std::cos(M_PI / 6 + w / 2 * (1 - t1)), 1e-4);
    EXPECT_NEAR(y, r * std::sin(M_PI / 6 + w / 2 * (1 - t1)), 1e-4);
  }
}

// A relation that is not a number along the solution from t = 0.5 on: every step past it fails,
// however short, and the run fails naming the time and the condition, with the rows before.
TEST(EventsRuntime, ANanAtEveryStepSizeEndsTheRunNamingTheCondition) {
  for (const char* method : {"radau5", "radau5-dae", "bdf", "ida"}) {
    SCOPED_TRACE(method);
    std::string csv = scratch(std::string("nan-after-half-") + method + ".csv");
    auto result = daec::test::run<ahead::NanAfterHalf>(
        {"--t-end", "1", "--step", "0.25", "--method", method, "--output", csv});
    EXPECT_EQ(result.status, 1);
    const std::string start = "sim: error: integration failed at t = ";
    const std::string what =
        ": the switching function of the condition 'speed: y < r/2' is nan at t = 0.5";
    const std::string count = " (10 failed steps, each redone at most half as long)\n";
    ASSERT_EQ(result.err.rfind(start, 0), 0u) << result.err;
    EXPECT_NE(result.err.find(what), std::string::npos) << result.err;
    EXPECT_NE(result.err.find(count), std::string::npos) << result.err;
    EXPECT_EQ(read(csv).substr(0, 2), "t,");
    EXPECT_NE(read(csv).find("\n0.25,"), std::string::npos) << read(csv);
    EXPECT_EQ(read(csv).find("\n0.75,"), std::string::npos) << read(csv);
  }
  // Radau ends a step at every output time: from t = 0.5, each step fails however short.
  auto result = daec::test::run<ahead::NanAfterHalf>(
      {"--t-end", "1", "--step", "0.25", "--method", "radau5"});
  EXPECT_EQ(result.err,
            "sim: error: integration failed at t = 0.5: the switching function of the condition "
            "'speed: y < r/2' is nan at t = 0.5000122370678819 (10 failed steps, each redone at "
            "most half as long)\n");
}

// A hundred and fifty relations that each switch once, some 6e-11 s apart: no chattering, which
// is one condition switching again and again. The guard once counted the switches of all
// conditions together and stopped this run at the hundredth.
TEST(EventsRuntime, ManyConditionsSwitchingOnceAtNearlyOneInstantAreNoChattering) {
  for (const char* method : {"radau5", "radau5-dae", "bdf", "ida"}) {
    SCOPED_TRACE(method);
    auto result = daec::test::run<crowd::Model>(
        {"--t-end", "1", "--method", method, "--output", scratch("crowd.csv")});
    ASSERT_EQ(result.status, 0) << result.err;
    EXPECT_NE(result.err.find(", events 150, "), std::string::npos) << result.err;
  }
}

TEST(EventsRuntime, ModelsWithoutConditionsHaveNoEvents) {
  std::string events = scratch("circle-events.csv");
  auto result = daec::test::run<circle::Model>({"--t-end", "1", "--events", events});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.err.find(", events 0, "), std::string::npos) << result.err;
  EXPECT_EQ(read(events), "t,condition,value\n");
}

TEST(EventsRuntime, EventsNeedsAFileName) {
  auto result = daec::test::run<switching::Model>({"--events", ""});
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(result.err.rfind("sim: error: --events expects a file name\n", 0), 0u) << result.err;
}

}  // namespace
