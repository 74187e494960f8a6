// A hybrid model written from outside the project against a reference computed without daec: an
// index-3 Cartesian pendulum that hits a wall (tests/data/wall_pendulum.dae, `when` with two
// `reinit`s of the velocities) on the default method, against the same motion solved in the
// pendulum's angle by SciPy (tests/e2e/wall_pendulum_reference.py). The impacts must come at the
// reference's times, the state must follow it between them, and the constraints must hold after
// every reset.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace daec::test {
namespace {

// The reference: the impact times, and the state at t = 1 ... 6 (its CSV rows).
struct Reference {
  std::vector<double> impacts;
  Csv samples;
};

Reference reference() {
  CommandResult run = run_command(
      "/usr/bin/python3 " +
      shell_quote(std::string(DAEC_SOURCE_DIR) + "/tests/e2e/wall_pendulum_reference.py") +
      " --t-end 6 --times 1,2,3,4,5,6");
  EXPECT_EQ(0, run.status) << run.err;
  Reference result;
  std::istringstream lines(run.out);
  std::string first;
  std::getline(lines, first);
  std::vector<std::string> fields = split_fields(first);
  EXPECT_EQ("impact", fields.at(0));
  for (size_t i = 1; i < fields.size(); ++i) result.impacts.push_back(std::stod(fields[i]));
  std::string rest((std::istreambuf_iterator<char>(lines)), std::istreambuf_iterator<char>());
  result.samples = parse_csv(rest);
  return result;
}

TEST(Hybrid, WallPendulumFollowsItsReferenceOnTheDefaultMethod) {
  const Reference expected = reference();
  ASSERT_EQ(4u, expected.impacts.size());  // then the swing no longer reaches the wall
  std::string dir = make_scratch_dir("wall_pendulum");
  Build build = build_simulator("tests/data/wall_pendulum.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  const std::string events = dir + "/events.csv";
  CommandResult run =
      run_program(build.executable,
                  "--t-end 6 --step 1 --rtol 1e-10 --atol 1e-10 --events " + shell_quote(events));
  ASSERT_EQ(0, run.status) << run.err;
  // The default method, as a user gets it.
  auto stats = parse_simulator_stats(run.err);
  ASSERT_TRUE(stats) << run.err;
  // Each impact is an event; the clause's relation turning false again as the bob leaves the
  // wall may be a second one (at the same instant, or just after where the reset state is still
  // a rounding unit past the wall).
  EXPECT_GE(stats->events, 4) << run.err;
  EXPECT_LE(stats->events, 8) << run.err;
  EXPECT_LT(stats->largest_absolute_invariant_residual, 1e-8) << run.err;

  // The impacts are where the clause's relation becomes true.
  std::vector<double> impacts;
  for (const EventLine& event : parse_events(read_file(events))) {
    EXPECT_EQ("when x < -d", event.condition);
    if (event.value) impacts.push_back(event.t);
  }
  ASSERT_EQ(4u, impacts.size()) << read_file(events);
  for (size_t k = 0; k < 4; ++k)
    EXPECT_NEAR(expected.impacts[k], impacts[k], 1e-8) << "impact " << k + 1;

  Csv csv = parse_csv(run.out);
  for (size_t row = 0; row < expected.samples.rows.size(); ++row) {
    const double t = expected.samples.at(row, "t");
    size_t at = 0;
    while (at < csv.rows.size() && std::fabs(csv.at(at, "t") - t) > 1e-12) ++at;
    ASSERT_LT(at, csv.rows.size()) << "no row at t = " << t;
    for (const char* name : {"x", "y", "vx", "vy"})
      EXPECT_NEAR(expected.samples.at(row, name), csv.at(at, name), 1e-8)
          << name << " at t = " << t;
    const double x = csv.at(at, "x"), y = csv.at(at, "y"), vx = csv.at(at, "vx"),
                 vy = csv.at(at, "vy");
    EXPECT_NEAR(1.2 * 1.2, x * x + y * y, 1e-9) << "t = " << t;
    EXPECT_NEAR(0.0, x * vx + y * vy, 1e-8) << "t = " << t;
  }
}

}  // namespace
}  // namespace daec::test
