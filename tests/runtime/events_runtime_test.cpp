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
