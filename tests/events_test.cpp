// End-to-end tests of the simulator's events (docs/language.md): models whose right-hand side switches
// where a condition changes, against their exact piecewise solutions, on every method; the
// switching time is read from --events FILE. Also the chattering guard.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace daec::test {
namespace {

const char* const kMethods[] = {"radau5", "radau5-dae", "bdf", "ida"};

// Tolerances that hold each method's switching time within 1e-9: the time is located on the
// method's interpolant, as accurate as the solution (BDF and IDA need tighter tolerances).
std::string tolerances(const std::string& method) {
  return method.rfind("radau5", 0) == 0 ? "--rtol 1e-10 --atol 1e-10" : "--rtol 1e-11 --atol 1e-11";
}

struct EventRun {
  Csv csv;
  std::vector<double> event_times;  // from --events FILE
  SimulatorStats stats;
};

EventRun run_with_events(const Build& build, const std::string& dir, const std::string& method,
                         const std::string& arguments) {
  std::string events = dir + "/events-" + method + ".csv";
  CommandResult run =
      run_program(build.executable, "--method " + method + " " + tolerances(method) + " " +
                                        arguments + " --events " + shell_quote(events));
  EventRun result;
  EXPECT_EQ(0, run.status) << method << "\n" << run.err;
  if (run.status != 0) return result;
  result.csv = parse_csv(run.out);
  // t,condition,value: the time, the condition by name, its value from there on.
  std::string text = read_file(events), header = "t,condition,value\n";
  EXPECT_EQ(0u, text.find(header)) << text;
  for (size_t start = header.size(); start < text.size(); start = text.find('\n', start) + 1) {
    size_t comma = text.find(',', start);
    result.event_times.push_back(std::stod(text.substr(start, comma - start)));
    std::string rest = text.substr(comma, text.find('\n', start) - comma);
    EXPECT_TRUE(rest == ",growth: x < 1,false" || rest == ",eq3: y < 1/2,false") << rest;
  }
  auto stats = parse_simulator_stats(run.err);
  EXPECT_TRUE(stats) << run.err;
  if (stats) result.stats = *stats;
  return result;
}

TEST(Events, GrowthSwitchesAtLn2OnEveryMethod) {
  std::string dir = make_scratch_dir("events_growth");
  Build build = build_simulator("tests/data/events_growth.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  const double switch_time = std::log(2.0);
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    EventRun run = run_with_events(build, dir, method, "--t-end 2 --step 0.1");
    ASSERT_EQ(run.event_times.size(), 1u);
    EXPECT_NEAR(run.event_times[0], switch_time, 1e-9);
    EXPECT_EQ(run.stats.events, 1);
    for (size_t row = 0; row < run.csv.rows.size(); ++row) {
      double t = run.csv.at(row, "t");
      double exact = t < switch_time ? std::exp(t) - 1 : 1 + (t - switch_time) / 2;
      EXPECT_NEAR(run.csv.at(row, "x"), exact, 1e-8) << "t = " << t;
    }
  }
}

TEST(Events, DrivenParticleOnACircleSwitchesAtSqrtPiOver3OnEveryMethod) {
  std::string dir = make_scratch_dir("events_circle");
  Build build = build_simulator("tests/data/events_circle.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  const double switch_time = std::sqrt(M_PI / 3);
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    EventRun run = run_with_events(build, dir, method, "--t-end 2 --step 0.25");
    ASSERT_EQ(run.event_times.size(), 1u);
    EXPECT_NEAR(run.event_times[0], switch_time, 1e-9);
    for (size_t row = 0; row < run.csv.rows.size(); ++row) {
      double t = run.csv.at(row, "t");
      double theta = t < switch_time ? t * t / 2 : M_PI / 6 + switch_time * (t - switch_time);
      EXPECT_NEAR(run.csv.at(row, "x"), std::cos(theta), 1e-7) << "t = " << t;
      EXPECT_NEAR(run.csv.at(row, "y"), std::sin(theta), 1e-7) << "t = " << t;
    }
  }
}

TEST(Events, ChatteringStopsWithAClearError) {
  std::string dir = make_scratch_dir("events_chatter");
  Build build = build_simulator("tests/data/events_chatter.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    CommandResult run = run_program(build.executable, std::string("--t-end 2 --method ") + method);
    EXPECT_EQ(1, run.status);
    // The time of the 100th switch is a rounding unit past 1, differently for each method.
    std::string prefix = "sim: error: integration failed at t = 1";
    EXPECT_EQ(0u, run.err.find(prefix)) << run.err;
    std::string rest = run.err.substr(run.err.find(": the condition"));
    EXPECT_EQ(
        ": the condition 'eq1: x < 1' switched 100 times in a row, each within 2e-09 of the last "
        "(chattering: neither branch can be followed)\n",
        rest);
  }
}

}  // namespace
}  // namespace daec::test
