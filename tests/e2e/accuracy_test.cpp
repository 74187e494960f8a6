// The fast slice of the work-precision benchmark (bench/accuracy/, docs/simulator.md, "The accuracy
// target"): daec's simulator, with its default method, on each benchmark problem at rtol = atol =
// 1e-6 and 1e-8; the figure of merit max_i |y_i - ref_i| / (rtol*|ref_i| + atol) at the end point,
// over every declared variable, against bench/accuracy/references/<problem>.txt must be at most 10.
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

constexpr double kTarget = 10;  // docs/simulator.md, "The accuracy target"

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

/// Runs the simulator `build` from t_start to t_end at rtol = atol = tol with its default method,
/// and expects the figure of merit <= 10.
void expect_within_target(const Build& build, const std::string& problem,
                          const Reference& reference, double tol) {
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

/// Builds the simulator of bench/accuracy/problems/<problem>.dae once and checks it at 1e-6 and
/// 1e-8.
void expect_within_target(const std::string& problem, const std::string& test_name) {
  const Reference reference = read_reference(problem);
  const Build build =
      build_simulator("bench/accuracy/problems/" + problem + ".dae", make_scratch_dir(test_name));
  ASSERT_TRUE(build.ok) << build.log;
  for (double tol : {1e-6, 1e-8}) expect_within_target(build, problem, reference, tol);
}

#define ACCURACY_TEST(Name, problem)                  \
  TEST(Accuracy, Name) {                              \
    expect_within_target(problem, "Accuracy_" #Name); \
  }

ACCURACY_TEST(Andrews, "andrews")
ACCURACY_TEST(AscherPetzold, "ascher_petzold")
ACCURACY_TEST(CarAxis, "car_axis")
ACCURACY_TEST(ChemicalAkzo, "chemical_akzo")
ACCURACY_TEST(CircularTrack, "circular_track")
ACCURACY_TEST(LinearIndex2, "linear_index2")
ACCURACY_TEST(ModelQ1, "model_q1")
ACCURACY_TEST(Pendulum, "pendulum")
ACCURACY_TEST(Robertson, "robertson")
ACCURACY_TEST(TransistorAmplifier, "transistor_amplifier")

}  // namespace
}  // namespace daec::test
