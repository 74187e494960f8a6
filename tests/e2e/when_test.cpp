// End-to-end tests of when clauses (docs/language.md, "When clauses and reinit"): the resets
// against exact solutions on every method, from one compiled simulator per model. The bouncing
// ball's bounce times against their closed form, a relay's triangle wave, the accumulation of
// bounces ending in the chattering error, and an impacting pendulum whose energy drops by e^2 at
// each impact while its constraints keep holding; two clauses at one instant both take their
// values from the state before it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace daec::test {
namespace {

const char* const kTolerances = " --rtol 1e-12 --atol 1e-12";

struct WhenRun {
  Csv csv;
  std::vector<std::pair<double, std::string>> fired;  // (t, condition) that became true
  long events = 0;
};

WhenRun run_when(const Build& build, const std::string& dir, const std::string& method,
                 const std::string& arguments) {
  std::string events = dir + "/events-" + method + ".csv";
  CommandResult run =
      run_program(build.executable, "--method " + std::string(method) + kTolerances + " " +
                                        arguments + " --events " + shell_quote(events));
  WhenRun result;
  EXPECT_EQ(0, run.status) << method << "\n" << run.err;
  if (run.status != 0) return result;
  result.csv = parse_csv(run.out);
  for (const EventLine& event : parse_events(read_file(events)))
    if (event.value) result.fired.emplace_back(event.t, event.condition);
  auto stats = parse_simulator_stats(run.err);
  EXPECT_TRUE(stats) << run.err;
  if (stats) result.events = stats->events;
  return result;
}

// The ball: h(t) between bounces, from the bounce before t (t_k, upward speed w_k).
double ball_height(double t, const std::vector<double>& bounces, double t1, double e, double g) {
  double since = t, speed = 0.0, start = 1.0;
  for (size_t k = 0; k < bounces.size() && bounces[k] <= t; ++k) {
    since = t - bounces[k];
    speed = std::pow(e, static_cast<double>(k + 1)) * g * t1;
    start = 0.0;
  }
  return start + speed * since - g * since * since / 2;
}

TEST(When, BouncingBallAndRelayOnEveryMethod) {
  std::string dir = make_scratch_dir("when_ball_relay");
  Build build = build_simulator("tests/data/when_ball_relay.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  const double e = 0.8, g = 9.81, t1 = std::sqrt(2.0 / g);
  std::vector<double> bounces{t1};  // the first ten
  for (int k = 1; k < 10; ++k) bounces.push_back(bounces.back() + 2 * std::pow(e, k) * t1);
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    WhenRun run = run_when(build, dir, method, "--t-end 3.62 --step 0.02");
    std::vector<double> ball, relay;
    std::vector<std::string> relay_names;
    for (const auto& [t, name] : run.fired) {
      if (name == "when h < 0") {
        ball.push_back(t);
      } else if (name == "when t > 1.5") {
        EXPECT_NEAR(1.5, t, 1e-12);
      } else {
        relay.push_back(t);
        relay_names.push_back(name);
      }
    }
    ASSERT_EQ(10u, ball.size());
    for (size_t k = 0; k < ball.size(); ++k) EXPECT_NEAR(bounces[k], ball[k], 1e-9) << k;
    ASSERT_EQ(2u, relay.size());
    EXPECT_NEAR(1.0, relay[0], 1e-9);
    EXPECT_NEAR(3.0, relay[1], 1e-9);
    EXPECT_EQ("when x > 1", relay_names[0]);
    EXPECT_EQ("when x < -1", relay_names[1]);
    // Each reset is one event (the ball's relation turns back at once); the swap is one more.
    EXPECT_EQ(13, run.events);
    for (size_t row = 0; row < run.csv.rows.size(); ++row) {
      double t = run.csv.at(row, "t");
      double wave = t <= 1 ? t : (t <= 3 ? 2 - t : t - 4);
      EXPECT_NEAR(wave, run.csv.at(row, "x"), 1e-8) << "t = " << t;
      EXPECT_NEAR(ball_height(t, bounces, t1, e, g), run.csv.at(row, "h"), 1e-8) << "t = " << t;
      if (std::fabs(t - 1.5) < 1e-9) continue;                              // the swap's instant
      EXPECT_EQ(t < 1.5 ? 1.0 : 2.0, run.csv.at(row, "a")) << "t = " << t;  // swapped, exactly
      EXPECT_EQ(t < 1.5 ? 2.0 : 1.0, run.csv.at(row, "b")) << "t = " << t;
    }
  }
  // The bounces accumulate at t1 (1 + e)/(1 - e): the chattering guard names the clause.
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    CommandResult run =
        run_program(build.executable, "--t-end 8 --method " + std::string(method) + kTolerances);
    EXPECT_EQ(1, run.status);
    std::string prefix = "sim: error: integration failed at t = ";
    ASSERT_EQ(0u, run.err.find(prefix)) << run.err;
    EXPECT_NEAR(t1 * (1 + e) / (1 - e), std::stod(run.err.substr(prefix.size())), 1e-4);
    EXPECT_EQ(
        ": the when clause 'when h < 0' fired 10 times in a row, each within 8e-09 of the last "
        "and not evenly spaced (chattering: its instants accumulate)\n",
        run.err.substr(run.err.find(": the when clause")));
  }
}

TEST(When, ImpactPendulumLosesESquaredOfItsEnergyAndKeepsItsConstraints) {
  std::string dir = make_scratch_dir("when_impact_pendulum");
  Build build = build_simulator("models/impact_pendulum.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  const double e = 0.5, g = 9.81, L = 1.0, energy0 = g * L * (1 - std::cos(0.5));
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    WhenRun run = run_when(build, dir, method, "--t-end 2.6 --step 0.01");
    ASSERT_EQ(3u, run.fired.size());
    double before = energy0;
    size_t impact = 0;
    for (size_t row = 0; row < run.csv.rows.size(); ++row) {
      double t = run.csv.at(row, "t"), x = run.csv.at(row, "x"), y = run.csv.at(row, "y");
      double u = run.csv.at(row, "u"), v = run.csv.at(row, "v");
      while (impact < run.fired.size() && run.fired[impact].first < t) {
        before *= e * e;
        ++impact;
      }
      EXPECT_NEAR(before, run.csv.at(row, "energy"), 1e-7 * energy0) << "t = " << t;
      EXPECT_NEAR(L * L, x * x + y * y, 1e-9) << "t = " << t;  // rod
      EXPECT_NEAR(0.0, x * u + y * v, 1e-9) << "t = " << t;    // rod'
    }
  }
}

}  // namespace
}  // namespace daec::test
