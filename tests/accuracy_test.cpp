// The fast slice of the work-precision benchmark (bench/accuracy/, spec §5.1): daec's simulator,
// with its default method, on each benchmark problem at rtol = atol = 1e-6 and 1e-8; the figure
// of merit max_i |y_i - ref_i| / (rtol*|ref_i| + atol) at the end point, over every declared
// variable, against bench/accuracy/references/<problem>.txt must be at most 10. The tests are
// written as the target; those the simulator does not meet yet are disabled (see each one).
// bench/accuracy/run.sh measures the same for all tolerances and methods, with the peers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "e2e_util.h"

namespace daec::test {
namespace {

constexpr double kTarget = 10;  // spec §5.1

/// references/<problem>.txt: the interval and the end values of every declared variable.
struct Reference {
  double t_start = 0, t_end = 0;
  std::vector<std::pair<std::string, double>> values;  // in declaration order
};

/// Reads `name = value` lines ('#' lines are comments); t_start and t_end are the interval.
Reference read_reference(const std::string& problem) {
  const std::string path = "bench/accuracy/references/" + problem + ".txt";
  std::istringstream text(read_source_file(path));
  Reference reference;
  bool has_start = false, has_end = false;
  for (std::string line; std::getline(text, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t equals = line.find('=');
    if (equals == std::string::npos) throw std::runtime_error(path + ": bad line '" + line + "'");
    const std::string name = line.substr(0, line.find_last_not_of(' ', equals - 1) + 1);
    const double value = std::stod(line.substr(equals + 1));
    if (name == "t_start") {
      reference.t_start = value;
      has_start = true;
    } else if (name == "t_end") {
      reference.t_end = value;
      has_end = true;
    } else {
      reference.values.emplace_back(name, value);
    }
  }
  if (!has_start || !has_end || reference.values.empty())
    throw std::runtime_error(path + ": no t_start, t_end or values");
  return reference;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

/// Builds the simulator of bench/accuracy/problems/<problem>.dae, runs it from t_start to t_end
/// at rtol = atol = tol with its default method, and expects the figure of merit <= 10.
void expect_within_target(const std::string& problem, double tol, const std::string& test_name) {
  const Reference reference = read_reference(problem);
  const std::string dir = make_scratch_dir(test_name);
  const Build build = build_simulator("bench/accuracy/problems/" + problem + ".dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  const std::string arguments = "--t-start " + number(reference.t_start) + " --t-end " +
                                number(reference.t_end) + " --step " +
                                number(reference.t_end - reference.t_start) + " --rtol " +
                                number(tol) + " --atol " + number(tol);
  const CommandResult run = run_program(build.executable, arguments);
  ASSERT_EQ(run.status, 0) << arguments << "\n" << run.err;
  const Csv csv = parse_csv(run.out);
  ASSERT_EQ(csv.last("t"), reference.t_end);
  double merit = 0;
  std::string worst;
  for (const auto& [name, ref] : reference.values) {
    const double value = csv.last(name);
    const double variable_merit = std::fabs(value - ref) / (tol * std::fabs(ref) + tol);
    if (!(variable_merit <= merit)) {  // also catches nan
      merit = variable_merit;
      worst = name + " = " + number(value) + ", reference " + number(ref);
    }
  }
  char tolerance[16];
  std::snprintf(tolerance, sizeof tolerance, "%g", tol);
  EXPECT_LE(merit, kTarget) << problem << " at rtol = atol = " << tolerance << ": worst " << worst;
}

#define ACCURACY_TEST(Name, problem, tol)                  \
  TEST(Accuracy, Name) {                                   \
    expect_within_target(problem, tol, "Accuracy_" #Name); \
  }

// --- Met today ----------------------------------------------------------------------------------
ACCURACY_TEST(AscherPetzoldAt1e6, "ascher_petzold", 1e-6)
ACCURACY_TEST(AscherPetzoldAt1e8, "ascher_petzold", 1e-8)
ACCURACY_TEST(ChemicalAkzoAt1e6, "chemical_akzo", 1e-6)
ACCURACY_TEST(ChemicalAkzoAt1e8, "chemical_akzo", 1e-8)
ACCURACY_TEST(LinearIndex2At1e6, "linear_index2", 1e-6)
ACCURACY_TEST(LinearIndex2At1e8, "linear_index2", 1e-8)
ACCURACY_TEST(PendulumAt1e6, "pendulum", 1e-6)
ACCURACY_TEST(RobertsonAt1e8, "robertson", 1e-8)

// --- Not met yet (figures of merit measured by bench/accuracy/run.sh, bench/accuracy/RESULTS.md)
// enabled once the simulator meets spec §5.1 (issue 11)
ACCURACY_TEST(DISABLED_AndrewsAt1e6, "andrews", 1e-6)
// enabled once the simulator meets spec §5.1 (issue 11)
ACCURACY_TEST(DISABLED_AndrewsAt1e8, "andrews", 1e-8)
// enabled once the simulator meets spec §5.1 (issue 11)
ACCURACY_TEST(DISABLED_CarAxisAt1e6, "car_axis", 1e-6)
// enabled once the simulator meets spec §5.1 (issue 11)
ACCURACY_TEST(DISABLED_CarAxisAt1e8, "car_axis", 1e-8)
// enabled once the simulator meets spec §5.1 (issue 11)
ACCURACY_TEST(DISABLED_CircularTrackAt1e6, "circular_track", 1e-6)
// enabled once the simulator meets spec §5.1 (issue 11)
ACCURACY_TEST(DISABLED_CircularTrackAt1e8, "circular_track", 1e-8)
// enabled once the simulator meets spec §5.1 (issue 11)
ACCURACY_TEST(DISABLED_ModelQ1At1e6, "model_q1", 1e-6)
// enabled once the simulator meets spec §5.1 (issue 11)
ACCURACY_TEST(DISABLED_ModelQ1At1e8, "model_q1", 1e-8)
// enabled once the simulator meets spec §5.1 (issue 11)
ACCURACY_TEST(DISABLED_PendulumAt1e8, "pendulum", 1e-8)
// enabled once the simulator meets spec §5.1 (issue 11)
ACCURACY_TEST(DISABLED_RobertsonAt1e6, "robertson", 1e-6)
// enabled once the simulator meets spec §5.1 (issue 11)
ACCURACY_TEST(DISABLED_TransistorAmplifierAt1e6, "transistor_amplifier", 1e-6)
// enabled once the simulator meets spec §5.1 (issue 11)
ACCURACY_TEST(DISABLED_TransistorAmplifierAt1e8, "transistor_amplifier", 1e-8)

}  // namespace
}  // namespace daec::test
