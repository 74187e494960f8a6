// End-to-end tests of the standalone simulator (`daec --main`, docs/simulator.md): generate it for
// the bundled models, compile it with SUNDIALS (g++, and clang++ once; linked to the compiled
// runtime, and twice as the one file daec --main writes), run it and compare with
// the exact or published solutions of the project's test-problems.md, or, for every bundled model
// without one, with a property the solution is known to have. Also its command line:
// the failure paths, the CSV layout and the output times. Each test compiles its simulator once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "e2e_util.h"

namespace daec::test {
namespace {

/// The directory and built simulator of one test; fails the test if it cannot be built.
struct Fixture {
  std::string dir;
  Build build;
};

Fixture build_or_fail(const std::string& test_name, const std::string& model,
                      const std::string& compiler = "g++", const std::string& daec_args = "",
                      const std::string& compile_flags = "",
                      SimulatorBuild how = SimulatorBuild::library) {
  Fixture fixture{make_scratch_dir(test_name), {}};
  fixture.build = build_simulator(model, fixture.dir, compiler, daec_args, compile_flags, how);
  EXPECT_TRUE(fixture.build.ok) << fixture.build.log;
  return fixture;
}

/// build_or_fail for a model given as text, written to `name`.dae in the scratch directory.
Fixture build_text_or_fail(const std::string& test_name, const std::string& name,
                           const char* text) {
  Fixture fixture{make_scratch_dir(test_name), {}};
  const std::string model = fixture.dir + "/" + name + ".dae";
  write_file(model, text);
  fixture.build = build_simulator(model, fixture.dir);
  EXPECT_TRUE(fixture.build.ok) << fixture.build.log;
  return fixture;
}

/// One run of a simulator: its status and messages, the CSV and the statistics (when it worked).
struct SimRun {
  CommandResult result;
  Csv csv;
  SimulatorStats stats;
};

/// Runs the simulator and expects success, a well-formed CSV (on stdout, or in `csv_file` if
/// given) and the statistics line.
SimRun run_ok(const Build& build, const std::string& arguments, const std::string& csv_file = "") {
  SimRun sim{run_program(build.executable, arguments), {}, {}};
  EXPECT_EQ(sim.result.status, 0) << arguments << "\n" << sim.result.err;
  if (sim.result.status != 0) return sim;
  try {
    sim.csv = parse_csv(csv_file.empty() ? sim.result.out : read_file(csv_file));
  } catch (const std::exception& error) {
    ADD_FAILURE() << error.what() << "\n" << sim.result.out;
  }
  auto stats = parse_simulator_stats(sim.result.err);
  EXPECT_TRUE(stats.has_value()) << "no statistics line in:\n" << sim.result.err;
  if (stats) sim.stats = *stats;
  return sim;
}

/// Every row's column `name` against `exact(t)`; returns the largest error, for the message.
template <typename Exact>
double largest_error(const Csv& csv, const std::string& name, Exact exact) {
  double largest = 0;
  for (size_t row = 0; row < csv.rows.size(); ++row)
    largest = std::max(largest, std::fabs(csv.at(row, name) - exact(csv.at(row, "t"))));
  return largest;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// --- Solutions against the published / exact values ---------------------------------------------

// Cash's pendul3.f (m = L = g = 1, start (1, 0, 0, 1)), published at t = 1.
TEST(Simulator, PendulumMatchesPublishedSolution) {
  // Linked to the compiled runtime: the one file daec --main writes is built by g++ in
  // docs/simulator.md's test (scripts/simulate.sh) and by clang++ in PendulumWithClangToAFile.
  Fixture f = build_or_fail("PendulumMatchesPublishedSolution", "models/pendulum.dae");
  ASSERT_TRUE(f.build.ok);
  SimRun sim = run_ok(f.build, "--set g=1 --rtol 1e-10 --atol 1e-12");
  ASSERT_EQ(sim.csv.rows.size(), 101u);
  EXPECT_EQ(sim.csv.last("t"), 1.0);
  EXPECT_NEAR(sim.csv.last("x"), 0.867348640604551746, 1e-6);
  EXPECT_NEAR(sim.csv.last("y"), 0.497701050476373918, 1e-6);
  EXPECT_NEAR(sim.csv.last("u"), -0.337480180329866458e-1, 1e-5);
  EXPECT_NEAR(sim.csv.last("v"), 0.588130114660715686e-1, 1e-5);
  EXPECT_NEAR(sim.csv.last("lambda"), -0.493103151528274442, 1e-5);
  // Energy (m = 1, g = 1): (u^2 + v^2)/2 + y stays at its start value 1/2.
  EXPECT_LT(largest_error(sim.csv, "energy", [](double) { return 0.5; }), 1e-6);
  EXPECT_LT(sim.stats.largest_invariant_residual, 1e-8);
  EXPECT_GT(sim.stats.steps, 0);
  EXPECT_GT(sim.stats.projections, 0);
  // A regular model: no method meets a singular point (nor comes near one) over several swings.
  for (const char* method : kMethods) {
    SimRun other = run_ok(f.build, std::string("--t-end 10 --method ") + method);
    EXPECT_FALSE(contains(other.result.err, "singular")) << method << "\n" << other.result.err;
  }
  // The same simulator linked to the compiled runtime says exactly the same, byte for byte:
  // help, methods, CSV and statistics of each method, a failure and a usage error.
  Fixture linked = build_or_fail("PendulumMatchesPublishedSolutionLinked", "models/pendulum.dae");
  ASSERT_TRUE(linked.build.ok);
  for (const std::string arguments :
       {"--help", "--method list", "--t-end 2 --method radau5-dae --linear-solver klu",
        "--t-end 2 --method bdf", "--t-end 2 --method ida --set g=1", "--set L=0", "--set nosuch=1",
        "--fix x=0.5"}) {
    CommandResult single = run_program(f.build.executable, arguments);
    CommandResult library = run_program(linked.build.executable, arguments);
    EXPECT_EQ(single.status, library.status) << arguments;
    EXPECT_EQ(single.out, library.out) << arguments;
    EXPECT_EQ(single.err, library.err) << arguments;
  }
}

// The same simulator compiled by clang++, written to a file: the same numbers.
TEST(Simulator, PendulumWithClangToAFile) {
  Fixture f = build_or_fail("PendulumWithClangToAFile", "models/pendulum.dae", "clang++", "", "",
                            SimulatorBuild::single_file);
  ASSERT_TRUE(f.build.ok);
  std::string csv_path = f.dir + "/pendulum.csv";
  SimRun sim = run_ok(
      f.build, "--set=g=1 --rtol=1e-10 --atol=1e-12 --output=" + shell_quote(csv_path), csv_path);
  EXPECT_EQ(sim.result.out, "");
  ASSERT_EQ(sim.csv.rows.size(), 101u);
  EXPECT_NEAR(sim.csv.last("x"), 0.867348640604551746, 1e-6);
  EXPECT_NEAR(sim.csv.last("y"), 0.497701050476373918, 1e-6);
  EXPECT_FALSE(std::filesystem::exists(csv_path + ".partial"));
  // The plotter pasted into the single file: a phase plot as PNG where a converter is installed
  // (its file must start with the PNG signature), else the failure; the CSV is written either way.
  const std::string png = f.dir + "/phase.png", phase_csv = f.dir + "/phase.csv";
  CommandResult plot =
      run_program(f.build.executable, "--t-end 2 --output " + shell_quote(phase_csv) + " --plot " +
                                          shell_quote(png) + " --plot-columns x:y");
  if (plot.status == 0) {
    std::ifstream in(png, std::ios::binary);
    std::string head(8, '\0');
    in.read(head.data(), 8);
    EXPECT_EQ(head, "\x89PNG\r\n\x1a\n");
  } else {
    EXPECT_EQ(plot.status, 1);
    EXPECT_TRUE(contains(plot.err, "sim: error: cannot create the plot '" + png +
                                       "': no converter from SVG to PNG worked\n"))
        << plot.err;
  }
  EXPECT_EQ(parse_csv(read_file(phase_csv)).rows.size(), 101u);
}

// Arevalo, Fuhrer, Soderlind: x = sin(t^2), y = cos(t^2), lambda = -4 t^2, from t = 1.
TEST(Simulator, CircularTrackFollowsExactSolution) {
  Fixture f = build_or_fail("CircularTrackFollowsExactSolution", "models/circular_track.dae");
  ASSERT_TRUE(f.build.ok);
  SimRun sim = run_ok(f.build, "--t-start 1 --t-end 5 --step 0.05 --rtol 1e-10 --atol 1e-12");
  ASSERT_EQ(sim.csv.rows.size(), 81u);
  auto sq = [](double t) { return t * t; };
  EXPECT_LT(largest_error(sim.csv, "x", [&](double t) { return std::sin(sq(t)); }), 1e-6);
  EXPECT_LT(largest_error(sim.csv, "y", [&](double t) { return std::cos(sq(t)); }), 1e-6);
  EXPECT_LT(largest_error(sim.csv, "u", [&](double t) { return 2 * t * std::cos(sq(t)); }), 1e-5);
  EXPECT_LT(largest_error(sim.csv, "v", [&](double t) { return -2 * t * std::sin(sq(t)); }), 1e-5);
  EXPECT_LT(largest_error(sim.csv, "lambda", [&](double t) { return -4 * sq(t); }), 1e-4);
  EXPECT_LT(sim.stats.largest_invariant_residual, 1e-8);
}

// Ascher and Petzold, a = 10: u1 = u2 = exp(t), z = -exp(t)/(2 - t), index 2.
TEST(Simulator, AscherPetzoldFollowsExactSolution) {
  Fixture f = build_or_fail("AscherPetzoldFollowsExactSolution", "models/ascher_petzold.dae");
  ASSERT_TRUE(f.build.ok);
  SimRun sim = run_ok(f.build, "--t-end 1 --rtol 1e-10 --atol 1e-12");
  auto exp = [](double t) { return std::exp(t); };
  EXPECT_LT(largest_error(sim.csv, "u1", exp), 1e-6);
  EXPECT_LT(largest_error(sim.csv, "u2", exp), 1e-6);
  EXPECT_LT(largest_error(sim.csv, "z", [](double t) { return -std::exp(t) / (2 - t); }), 1e-5);
  EXPECT_LT(sim.stats.largest_invariant_residual, 1e-8);
}

// Index 11 (bench/high_index.sh's N-pendulum, N = 5), reduced by making states of the unknowns
// nested combinations would eliminate: 60 states held on 58 invariants. Against the solution of
// bench/high_index/reference.py (the pendulum's angle by DOP853 at 1e-13, the rest by symbolic
// derivatives along it), printed by `reference.py 5 0.5 1 1.5 2`.
TEST(Simulator, FivePendulumOfIndexElevenMatchesItsIndependentSolution) {
  Fixture f = build_or_fail("FivePendulumOfIndexElevenMatchesItsIndependentSolution",
                            "tests/data/n_pendulum5.dae");
  ASSERT_TRUE(f.build.ok);
  SimRun sim = run_ok(f.build, "--t-end 2 --step 0.5");
  const std::vector<std::string> names = {"x",    "y",   "lam",  "phi2", "mu2",
                                          "phi3", "mu3", "phi4", "mu4",  "phi5"};
  const std::vector<std::vector<double>> reference = {
      {0.02932827848510562, -0.9995698335189496, 13.721340200462443, 1.3721340200462442,
       -1.8766516505532582, -0.1876651650553257, 45.44043926175616, 4.5440439261756165,
       -283.92120488802436, -28.39212048880244},
      {-0.5979327599475448, -0.8015462647792153, 7.893506572452131, 0.7893506572452131,
       17.214518084983, 1.7214518084982995, -15.74361584024151, -1.5743615840241512,
       -9.052537915243557, -0.9052537915243555},
      {-0.08763263519485072, -0.9961528603827858, 13.620778681063232, 1.362077868106323,
       -1.463809270424349, -0.146380927042435, 43.05598181917348, 4.3055981819173486,
       -252.66294491134144, -25.266294491134147},
      {0.5917215401142146, -0.8061424309418666, 8.028771742619178, 0.8028771742619176,
       16.879651002460307, 1.6879651002460303, -15.743202415442168, -1.5743202415442172,
       3.2907579833600984, 0.32907579833600986}};
  ASSERT_EQ(sim.csv.rows.size(), 5u);
  for (size_t k = 0; k < reference.size(); ++k) {
    for (size_t v = 0; v < names.size(); ++v) {
      const double expected = reference[k][v];
      // The default tolerances (rtol 1e-6, atol 1e-8), on each value's own scale.
      EXPECT_NEAR(sim.csv.at(k + 1, names[v]), expected, 1e-6 * (1 + std::fabs(expected)))
          << names[v] << " at t = " << sim.csv.at(k + 1, "t");
    }
  }
  EXPECT_LT(sim.stats.largest_invariant_residual, 1e-8);
}

/// x[i] = sin(t + (i-1) pi/2) for the chain of models/index_chain.dae.
void expect_chain_solution(const Csv& csv, int k) {
  for (int i = 1; i <= k; ++i) {
    double shift = (i - 1) * std::acos(-1.0) / 2;
    std::string name = "x[" + std::to_string(i) + "]";
    EXPECT_LT(largest_error(csv, name, [&](double t) { return std::sin(t + shift); }), 1e-6)
        << name;
  }
}

// The index-3 chain as bundled: no free initial data, x[i] = sin^(i-1)(t). The CSV header names
// the elements of the array.
TEST(Simulator, IndexChainFollowsExactSolution) {
  Fixture f = build_or_fail("IndexChainFollowsExactSolution", "models/index_chain.dae");
  ASSERT_TRUE(f.build.ok);
  SimRun sim = run_ok(f.build, "--t-end 2 --rtol 1e-10 --atol 1e-12");
  ASSERT_EQ(sim.csv.header, (std::vector<std::string>{"t", "x[1]", "x[2]", "x[3]"}));
  expect_chain_solution(sim.csv, 3);
  EXPECT_LT(sim.stats.largest_invariant_residual, 1e-8);
}

// The same model at other sizes (-D K=...): index 5, and index 1 (x[1] = sin(t), no state).
TEST(Simulator, IndexChainsOfOtherSizesFollowExactSolution) {
  std::string dir = make_scratch_dir("IndexChainsOfOtherSizesFollowExactSolution");
  for (int k : {5, 1}) {
    Build build =
        build_simulator("models/index_chain.dae", dir, "g++", "-D K=" + std::to_string(k));
    ASSERT_TRUE(build.ok) << build.log;
    SimRun sim = run_ok(build, "--t-end 2 --rtol 1e-10 --atol 1e-12");
    ASSERT_EQ(sim.csv.header.size(), static_cast<size_t>(k + 1));
    ASSERT_EQ(sim.csv.rows.size(), 101u);
    expect_chain_solution(sim.csv, k);
    EXPECT_LT(sim.stats.largest_invariant_residual, 1e-8) << "K = " << k;
  }
}

// x' = -(1 + x/1000)^200, which GiNaC holds as 10^-600*(x + 1000)^200, a constant no double
// holds times a power that overflows: computed as written (model/power_content.h). With
// u = 1 + x/1000, u' = -u^200/1000, so u^-199 = u(0)^-199 + 0.199 t.
TEST(Simulator, PowerOfASumWithATinyContentFollowsExactSolution) {
  Fixture f = build_text_or_fail("PowerOfASumWithATinyContentFollowsExactSolution", "steep",
                                 "model steep;\nvariable x(start = 1);\nequation\n"
                                 "  x' = -(1 + x/1000)^200;\nend\n");
  ASSERT_TRUE(f.build.ok);
  SimRun sim = run_ok(f.build, "--t-end 2 --rtol 1e-10 --atol 1e-12");
  ASSERT_EQ(sim.csv.rows.size(), 101u);
  EXPECT_LT(largest_error(sim.csv, "x",
                          [](double t) {
                            return 1000 *
                                   (std::pow(std::pow(1.001, -199) + 0.199 * t, -1.0 / 199) - 1);
                          }),
            1e-8);
  EXPECT_NEAR(sim.csv.last("x"), -0.98899547857257633, 1e-8);  // crossed 0 near t = 0.91
}

// x' + x'^3/3 = y + y^3/3, x^2 + y^2 = 1: x = sin(t), y = cos(t) on [0, 1.5].
TEST(Simulator, ImplicitIndex1FollowsExactSolution) {
  Fixture f = build_or_fail("ImplicitIndex1FollowsExactSolution", "models/implicit_index1.dae");
  ASSERT_TRUE(f.build.ok);
  SimRun sim = run_ok(f.build, "--t-end 1.5 --rtol 1e-10 --atol 1e-12");
  EXPECT_EQ(sim.csv.last("t"), 1.5);
  EXPECT_LT(largest_error(sim.csv, "x", [](double t) { return std::sin(t); }), 1e-6);
  EXPECT_LT(largest_error(sim.csv, "y", [](double t) { return std::cos(t); }), 1e-6);
  EXPECT_LT(sim.stats.largest_invariant_residual, 1e-8);
}

// x' = -k x; also: parameters are applied before the start values that use them, and --set of a
// start value wins over the model's start, whatever the order on the command line. Generated in a
// namespace named like one of the simulator's own helpers, which must not clash.
TEST(Simulator, ExponentialOdeAndTheOrderOfSettings) {
  Fixture f = build_or_fail("ExponentialOdeAndTheOrderOfSettings", "models/exponential_ode.dae",
                            "g++", "--namespace Options");
  ASSERT_TRUE(f.build.ok);
  SimRun sim = run_ok(f.build, "--t-end 2 --rtol 1e-10 --atol 1e-14");
  EXPECT_LT(largest_error(sim.csv, "x", [](double t) { return std::exp(-2 * t); }), 1e-8);
  EXPECT_EQ(sim.stats.projections, 0);
  EXPECT_EQ(sim.stats.largest_invariant_residual, 0);

  SimRun scaled = run_ok(f.build, "--set x0=3 --set k=1");
  EXPECT_EQ(scaled.csv.at(0, "x"), 3.0);  // start = x0, evaluated after --set x0
  EXPECT_NEAR(scaled.csv.last("x"), 3 * std::exp(-1.0), 1e-6);

  SimRun start_first = run_ok(f.build, "--set x=5 --set x0=3");
  SimRun parameter_first = run_ok(f.build, "--set x0=3 --set x=5");
  EXPECT_EQ(start_first.csv.at(0, "x"), 5.0);
  EXPECT_EQ(start_first.result.out, parameter_first.result.out);
}

// M = [1 y1; 2 2*y1] singular everywhere; the hidden constraint y2 = y1 + 1 gives y1 = 1 + t.
TEST(Simulator, SingularMassMatrixFollowsExactSolution) {
  Fixture f =
      build_or_fail("SingularMassMatrixFollowsExactSolution", "models/singular_mass_matrix.dae");
  ASSERT_TRUE(f.build.ok);
  SimRun sim = run_ok(f.build, "--t-end 2 --rtol 1e-10 --atol 1e-12");
  ASSERT_EQ(sim.csv.rows.size(), 101u);
  EXPECT_EQ(sim.csv.last("t"), 2.0);
  EXPECT_LT(largest_error(sim.csv, "y1", [](double t) { return 1 + t; }), 1e-8);
  EXPECT_LT(largest_error(sim.csv, "y2", [](double t) { return 2 + t; }), 1e-8);
  EXPECT_LT(largest_error(sim.csv, "y1_exact", [](double t) { return 1 + t; }), 1e-12);
  EXPECT_LT(sim.stats.largest_invariant_residual, 1e-8);
}

// Series RLC circuit (2L/R = 0.02 s): once the transient has decayed (t >= 0.5, 25 time
// constants), iL = V0 sin(omega t - phi)/Z, Z = |R + i X|, phi = arg(R + i X), X = omega L -
// 1/(omega C).
TEST(Simulator, RlcCircuitReachesExactSteadyState) {
  Fixture f = build_or_fail("RlcCircuitReachesExactSteadyState", "models/rlc_circuit.dae");
  ASSERT_TRUE(f.build.ok);
  SimRun sim = run_ok(f.build, "--t-end 0.6 --step 0.001 --rtol 1e-10 --atol 1e-12");
  ASSERT_EQ(sim.csv.rows.size(), 601u);
  const double V0 = 10, omega = 2 * std::acos(-1.0) * 50, R = 10, L = 0.1, C = 1e-4;
  const double X = omega * L - 1 / (omega * C);
  const double Z = std::sqrt(R * R + X * X), phi = std::atan2(X, R);
  double largest = 0, largest_kcl = 0;
  size_t compared = 0;
  for (size_t row = 0; row < sim.csv.rows.size(); ++row) {
    double t = sim.csv.at(row, "t");
    double iL = sim.csv.at(row, "iL");
    for (const char* name : {"iV", "iR", "iC"})
      largest_kcl = std::max(largest_kcl, std::fabs(sim.csv.at(row, name) - iL));
    if (t < 0.5) continue;
    largest = std::max(largest, std::fabs(iL - V0 * std::sin(omega * t - phi) / Z));
    ++compared;
  }
  EXPECT_EQ(compared, 101u);
  EXPECT_LT(largest, 1e-7);
  EXPECT_LT(largest_kcl, 1e-12);
  EXPECT_LT(sim.stats.largest_invariant_residual, 1e-8);
}

// Coupled pendulums started as a parallelogram: the bar stays horizontal and force-free, and the
// left mass swings like the simple pendulum (L = 1, g = 9.81) started at (0, -1) with speed (1, 0).
TEST(Simulator, CoupledPendulumsMoveAsParallelogram) {
  Fixture f = build_or_fail("CoupledPendulumsMoveAsParallelogram", "models/coupled_pendulums.dae");
  ASSERT_TRUE(f.build.ok);
  Build pendulum = build_simulator("models/pendulum.dae", f.dir);
  ASSERT_TRUE(pendulum.ok) << pendulum.log;
  SimRun sim = run_ok(f.build, "--t-end 2 --rtol 1e-10 --atol 1e-12");
  SimRun single = run_ok(pendulum,
                         "--t-end 2 --rtol 1e-10 --atol 1e-12 --set L=1 --set g=9.81 --set m=1 "
                         "--set x=0 --set y=-1 --set u=1 --set v=0");
  ASSERT_EQ(sim.csv.rows.size(), 101u);
  ASSERT_EQ(single.csv.rows.size(), 101u);
  EXPECT_EQ(single.csv.at(0, "x"), 0.0);
  EXPECT_EQ(single.csv.at(0, "y"), -1.0);
  double shape = 0, bar = 0, x_error = 0, y_error = 0, u_error = 0, v_error = 0, l_error = 0;
  for (size_t row = 0; row < sim.csv.rows.size(); ++row) {
    ASSERT_EQ(sim.csv.at(row, "t"), single.csv.at(row, "t"));
    shape = std::max(shape, std::fabs(sim.csv.at(row, "x2") - sim.csv.at(row, "x1") - 2));
    shape = std::max(shape, std::fabs(sim.csv.at(row, "y2") - sim.csv.at(row, "y1")));
    bar = std::max(bar, std::fabs(sim.csv.at(row, "lambda3")));
    x_error = std::max(x_error, std::fabs(sim.csv.at(row, "x1") + 1 - single.csv.at(row, "x")));
    y_error = std::max(y_error, std::fabs(sim.csv.at(row, "y1") - single.csv.at(row, "y")));
    u_error = std::max(u_error, std::fabs(sim.csv.at(row, "u1") - single.csv.at(row, "u")));
    v_error = std::max(v_error, std::fabs(sim.csv.at(row, "v1") - single.csv.at(row, "v")));
    l_error =
        std::max(l_error, std::fabs(sim.csv.at(row, "lambda1") - single.csv.at(row, "lambda")));
  }
  EXPECT_LT(shape, 1e-8);
  EXPECT_LT(bar, 1e-7);
  EXPECT_LT(x_error, 1e-6);
  EXPECT_LT(y_error, 1e-6);
  EXPECT_LT(u_error, 1e-5);
  EXPECT_LT(v_error, 1e-5);
  EXPECT_LT(l_error, 1e-5);
  EXPECT_LT(sim.stats.largest_invariant_residual, 1e-8);
  EXPECT_LT(single.stats.largest_invariant_residual, 1e-8);
}

// Double pendulum, chaotic: no closed form, but the energy keeps its start value m2 g y2 = -9.81.
TEST(Simulator, DoublePendulumConservesEnergy) {
  Fixture f = build_or_fail("DoublePendulumConservesEnergy", "models/double_pendulum.dae");
  ASSERT_TRUE(f.build.ok);
  SimRun sim = run_ok(f.build, "--t-end 2 --rtol 1e-10 --atol 1e-12");
  ASSERT_EQ(sim.csv.rows.size(), 101u);
  double start = sim.csv.at(0, "energy");
  EXPECT_NEAR(start, -9.81, 1e-12);
  EXPECT_LT(largest_error(sim.csv, "energy", [&](double) { return start; }), 1e-6);
  EXPECT_LT(sim.stats.largest_invariant_residual, 1e-8);
}

/// The linear example of docs/method.md (models/example_12_1.dae) solved for u' and v' by hand:
/// semi-explicit, so that --dummies=never reduces it by substitution alone (lambda the only
/// algebraic unknown), whereas the bundled form gets the dummy variables u_dot, v_dot in either
/// mode.
const char* const kExample121Explicit = R"(model example_12_1_explicit "Example 12.1, explicit";
variable x(start = 1), y(start = 1), u(start = 0), v(start = 1/2);
variable lambda(start = 53/96);
equation
  x' = u;
  y' = v;
  u' = (2*(t - 2*t*x*lambda) - (1 - t + lambda))/3;
  v' = (2*(1 - t + lambda) - (t - 2*t*x*lambda))/3;
  constraint: t*x^2 - y^2 = 1;
end example_12_1_explicit;
)";

/// The largest residuals over the rows of example 12.1's constraint t x^2 - y^2 = 1 and of its
/// first derivative x^2 + 2 t x u - 2 y v = 0.
std::pair<double, double> largest_example_12_1_residuals(const Csv& csv) {
  double constraint = 0, derivative = 0;
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    double t = csv.at(row, "t"), x = csv.at(row, "x"), y = csv.at(row, "y");
    double u = csv.at(row, "u"), v = csv.at(row, "v");
    constraint = std::max(constraint, std::fabs(t * x * x - y * y - 1));
    derivative = std::max(derivative, std::fabs(x * x + 2 * t * x * u - 2 * y * v));
  }
  return {constraint, derivative};
}

// The linear example of docs/method.md (models/example_12_1.dae) from t = 2: no closed form; the
// constraint holds at every row, and the bundled model (dummy variables) agrees with its explicit
// form reduced by substitution (--dummies=never).
TEST(Simulator, Example12_1KeepsConstraintWithAndWithoutDummies) {
  Fixture f =
      build_or_fail("Example12_1KeepsConstraintWithAndWithoutDummies", "models/example_12_1.dae");
  ASSERT_TRUE(f.build.ok);
  std::string explicit_model = f.dir + "/example_12_1_explicit.dae";
  write_file(explicit_model, kExample121Explicit);
  Build substituting = build_simulator(explicit_model, f.dir, "g++", "--dummies=never");
  ASSERT_TRUE(substituting.ok) << substituting.log;
  const std::string arguments = "--t-start 2 --t-end 3 --rtol 1e-10 --atol 1e-12";
  SimRun sim = run_ok(f.build, arguments);
  SimRun substituted = run_ok(substituting, arguments);
  ASSERT_EQ(sim.csv.header, (std::vector<std::string>{"t", "x", "y", "u", "v", "lambda"}));
  ASSERT_EQ(substituted.csv.header, sim.csv.header);
  ASSERT_EQ(sim.csv.rows.size(), 101u);
  ASSERT_EQ(substituted.csv.rows.size(), 101u);
  EXPECT_EQ(sim.csv.last("t"), 3.0);
  auto [constraint, derivative] = largest_example_12_1_residuals(sim.csv);
  auto [constraint2, derivative2] = largest_example_12_1_residuals(substituted.csv);
  EXPECT_LT(constraint, 1e-8);
  EXPECT_LT(derivative, 1e-8);
  EXPECT_LT(constraint2, 1e-8);
  EXPECT_LT(derivative2, 1e-8);
  for (const std::string& name : sim.csv.header) {
    double largest = 0;
    for (size_t row = 0; row < sim.csv.rows.size(); ++row) {
      ASSERT_EQ(sim.csv.at(row, "t"), substituted.csv.at(row, "t"));
      largest = std::max(largest, std::fabs(sim.csv.at(row, name) - substituted.csv.at(row, name)));
    }
    EXPECT_LT(largest, 1e-6) << name;
  }
  EXPECT_LT(sim.stats.largest_invariant_residual, 1e-8);
  EXPECT_LT(substituted.stats.largest_invariant_residual, 1e-8);
}

// Names that are C++ keywords or generated names (tests/data/hostile_names.dae, a pendulum with
// m = int, g = std, L = u_dot) reach the CSV header and --set unchanged; compiled by clang++.
TEST(Simulator, HostileNamesKeepTheirModelNames) {
  Fixture f =
      build_or_fail("HostileNamesKeepTheirModelNames", "tests/data/hostile_names.dae", "clang++");
  ASSERT_TRUE(f.build.ok);
  SimRun sim = run_ok(f.build, "--set std=1 --set namespace=1 --rtol 1e-10 --atol 1e-12");
  ASSERT_EQ(sim.csv.header,
            (std::vector<std::string>{"t", "namespace", "return", "u", "v", "template", "main"}));
  EXPECT_NEAR(sim.csv.last("namespace"), 0.867348640604551746, 1e-6);  // the pendulum, g = 1
  EXPECT_NEAR(sim.csv.last("return"), 0.497701050476373918, 1e-6);
  EXPECT_LT(sim.stats.largest_invariant_residual, 1e-8);
}

// --- Consistent initialization ------------------------------------------------------------------

const char* const kFixedPendulum = R"(model fixed_pendulum "Pendulum with a fixed start x";
parameter L = 1, g = 9.81;
variable x(start = 2, fixed = true), y(start = -0.5), u, v(start = 1);
variable lambda;
equation
  x' = u;
  y' = v;
  u' = -lambda*x;
  v' = -lambda*y - g;
  rod: x^2 + y^2 = L^2;
end
)";

// A fixed start is kept; a fixed start that no consistent state has is reported by constraint.
TEST(Simulator, ConsistentInitializationKeepsOrNamesFixedStarts) {
  Fixture f = build_text_or_fail("ConsistentInitializationKeepsOrNamesFixedStarts",
                                 "fixed_pendulum", kFixedPendulum);
  ASSERT_TRUE(f.build.ok);
  const Build& build = f.build;

  CommandResult failed = run_program(build.executable, "--t-end 0.1");  // x = 2 > L
  EXPECT_EQ(failed.status, 1) << failed.err;
  EXPECT_TRUE(contains(failed.err, "sim: error: consistent initialization failed at t = 0: "))
      << failed.err;
  EXPECT_TRUE(contains(failed.err, "no freedom: rod = ")) << failed.err;
  EXPECT_TRUE(contains(failed.err, "sim: note: fixed starts: x")) << failed.err;
  EXPECT_EQ(failed.out, "");

  // What consistent initialization moved is listed, unless --quiet: y, which rod with x fixed
  // determines, and u, which no declaration gives, onto x u + y v = 0; the written v = 1 stays.
  SimRun kept = run_ok(build, "--t-end 0.1 --set x=0.6");
  EXPECT_EQ(kept.csv.at(0, "x"), 0.6);
  EXPECT_NEAR(kept.csv.at(0, "y"), -0.8, 1e-10);
  EXPECT_EQ(kept.csv.at(0, "v"), 1.0);
  EXPECT_NEAR(kept.csv.at(0, "u"), 4.0 / 3.0, 1e-12);
  EXPECT_LT(kept.stats.largest_invariant_residual, 1e-8);
  EXPECT_TRUE(contains(kept.result.err,
                       "sim: consistent initialization at t = 0 changed 2 starts (given -> used; "
                       "--fix keeps a start, --quiet hides this):\nsim:   y: -0.5 -> -0.8\n"
                       "sim:   u: 0 -> 1.33333333333333"))
      << kept.result.err;
  SimRun quiet = run_ok(build, "--t-end 0.1 --set x=0.6 --quiet");
  EXPECT_FALSE(contains(quiet.result.err, "changed")) << quiet.result.err;
  // --fix y=-0.8 keeps y as well: only the velocities move, onto x u + y v = 0.
  SimRun fixed = run_ok(build, "--t-end 0.1 --set x=0.6 --fix y=-0.8 --set u=1 --set v=0");
  EXPECT_EQ(fixed.csv.at(0, "y"), -0.8);
  EXPECT_TRUE(contains(fixed.result.err, "changed 2 starts")) << fixed.result.err;
  SimRun consistent = run_ok(build, "--t-end 0.1 --set x=0.6 --fix y=-0.8 --set u=0.8 --set v=0.6");
  EXPECT_FALSE(contains(consistent.result.err, "changed")) << consistent.result.err;
}

const char* const kSecondOrderPendulum =
    R"(model second_order_pendulum "x'' and y'', no velocities";
parameter L = 1, g = 9.81;
variable x(start = 0.6, fixed = true), y(start = -0.8), lambda;
output vx = x', vy = y';
equation
  x'' = -lambda*x;
  y'' = -lambda*y - g;
  rod: x^2 + y^2 = L^2;
end
)";

// The velocities x_dot, y_dot of x'' and y'' are not declared: their starts are defaults, solved
// for with the declared starts and those --set gives held (docs/simulator.md, "What it does").
TEST(Simulator, StartsTheModelDoesNotDeclareAreSolvedForFirst) {
  Fixture f = build_text_or_fail("StartsTheModelDoesNotDeclareAreSolvedForFirst",
                                 "second_order_pendulum", kSecondOrderPendulum);
  ASSERT_TRUE(f.build.ok);
  const Build& build = f.build;
  // x x_dot + y y_dot = 0 with y_dot = 0.6 held: x_dot = 0.8. The nearest point in both
  // velocities (and y) would have moved y_dot to 0.216 and x_dot to 0.288.
  SimRun sim = run_ok(build, "--t-end 0.1 --set y_dot=0.6");
  EXPECT_EQ(sim.csv.at(0, "x"), 0.6);
  EXPECT_EQ(sim.csv.at(0, "y"), -0.8);
  EXPECT_EQ(sim.csv.at(0, "vy"), 0.6);
  EXPECT_NEAR(sim.csv.at(0, "vx"), 0.8, 1e-12);
  EXPECT_TRUE(contains(sim.result.err,
                       "sim: consistent initialization at t = 0 changed 1 start (given -> used; "
                       "--fix keeps a start, --quiet hides this):\nsim:   x_dot: 0 -> 0.8"))
      << sim.result.err;
  // Where the declared starts contradict the constraints, they are moved too, least.
  SimRun moved = run_ok(build, "--t-end 0.1 --set y=-0.5 --quiet");
  EXPECT_EQ(moved.csv.at(0, "x"), 0.6);
  EXPECT_NEAR(moved.csv.at(0, "y"), -0.8, 1e-12);
}

// Starts given by a fixed value, an initial equation (y' = w0), nominal values and --fix
// (tests/data/start_conditions.dae): kept exactly, the rest moved least in the scaled norm, the
// solution the exact one; conditions that over-determine or contradict the start are errors.
TEST(Simulator, StartConditionsAreKeptExactly) {
  Fixture f = build_or_fail("StartConditionsAreKeptExactly", "tests/data/start_conditions.dae");
  ASSERT_TRUE(f.build.ok);
  SimRun sim = run_ok(f.build, "--t-end 1 --rtol 1e-10 --atol 1e-12");
  EXPECT_EQ(sim.csv.at(0, "x"), 0.6);                // fixed: to the last digit
  EXPECT_NEAR(sim.csv.at(0, "speed"), 10.0, 1e-12);  // the initial equation y' = w0
  EXPECT_NEAR(sim.csv.at(0, "y"), 0.8, 1e-12);       // the nearest root of the circle
  EXPECT_NEAR(sim.csv.at(0, "T"), 350.5, 1e-9);      // scaled by its nominal value 100
  EXPECT_NEAR(sim.csv.at(0, "c"), 1.005, 1e-11);     // scaled by max(|1|, 1)
  const double w = 10.0 / 0.6, angle = std::atan2(0.8, 0.6), mu = 1.0 / (1.0 + 1e4);
  for (size_t row = 0; row < sim.csv.rows.size(); ++row) {
    const double t = sim.csv.at(row, "t");
    EXPECT_NEAR(sim.csv.at(row, "x"), std::cos(angle + w * t), 1e-7) << "t = " << t;
    EXPECT_NEAR(sim.csv.at(row, "y"), std::sin(angle + w * t), 1e-7) << "t = " << t;
    EXPECT_NEAR(sim.csv.at(row, "lambda"), w * w, 1e-6) << "t = " << t;
    EXPECT_NEAR(sim.csv.at(row, "T"), 350.5 + (1 - mu) * t, 1e-7) << "t = " << t;
    EXPECT_NEAR(sim.csv.at(row, "c"), 1.005 - 100 * mu * t, 1e-9) << "t = " << t;
  }
  EXPECT_TRUE(contains(sim.result.err, "sim:   T: 350 -> 350.5\n")) << sim.result.err;
  // The velocities of x'' and y'' are columns, after the declared variables (docs/method.md,
  // section 2), as named for --set and --fix; y_dot is the output speed = y'.
  EXPECT_EQ(sim.result.out.substr(0, sim.result.out.find('\n')),
            "t,x,y,lambda,T,c,mu,x_dot,y_dot,speed,angle");
  for (size_t row = 0; row < sim.csv.rows.size(); ++row) {
    const double t = sim.csv.at(row, "t");
    EXPECT_EQ(sim.csv.at(row, "y_dot"), sim.csv.at(row, "speed")) << "t = " << t;
    EXPECT_NEAR(sim.csv.at(row, "x_dot"), -w * std::sin(angle + w * t), 1e-6) << "t = " << t;
  }

  // --fix on a state and an algebraic unknown; a fixed lambda that the motion contradicts.
  SimRun fixed = run_ok(f.build, "--t-end 0.1 --fix c=1 --quiet");
  ASSERT_FALSE(fixed.csv.rows.empty());
  EXPECT_EQ(fixed.csv.at(0, "c"), 1.0);
  EXPECT_NEAR(fixed.csv.at(0, "T"), 351.0, 1e-10);
  EXPECT_FALSE(contains(fixed.result.err, "changed")) << fixed.result.err;
  CommandResult contradicted = run_program(f.build.executable, "--fix lambda=64");
  EXPECT_EQ(contradicted.status, 1);
  EXPECT_TRUE(contains(contradicted.err,
                       "sim: error: consistent initialization failed at t = 0: the fixed starts "
                       "and initial equations contradict each other or the model's constraints, "
                       "or leave them no freedom: fixed lambda = 277.77"))
      << contradicted.err;
  EXPECT_TRUE(
      contains(contradicted.err, "sim: note: fixed starts: x, lambda; initial equations: go"))
      << contradicted.err;
  // More conditions than states: they would have to agree, and T + 100 c = 451 does not hold.
  CommandResult over = run_program(f.build.executable, "--fix lambda=277 --fix T=350 --fix c=1");
  EXPECT_EQ(over.status, 1);
  EXPECT_TRUE(contains(over.err,
                       "sim: error: consistent initialization failed at t = 0: the fixed starts "
                       "and initial equations contradict each other"))
      << over.err;
  EXPECT_TRUE(contains(over.err,
                       "sim: note: the start is over-determined: 3 constraints, the fixed starts "
                       "and the initial equations make 8 conditions on 6 states, which hold "
                       "together only where they agree"))
      << over.err;
  CommandResult parameter = run_program(f.build.executable, "--fix q=2");
  EXPECT_EQ(parameter.status, 2);
  EXPECT_TRUE(contains(parameter.err,
                       "--fix q: 'q' is a parameter, constant anyway; set it with "
                       "--set"))
      << parameter.err;
}

// The Python module: consistent_initialization keeps the model's fixed starts and initial
// equations, and fix={name: value} for a state or an algebraic unknown, for that call only.
TEST(Simulator, PythonConsistentInitializationTakesFix) {
  std::string dir = make_scratch_dir("PythonConsistentInitializationTakesFix");
  Build module = build_python_module_compiled(source_dir() + "/tests/data/start_conditions.dae",
                                              "start_py", dir);
  ASSERT_TRUE(module.ok) << module.log;
  write_file(dir + "/check.py", R"(import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import start_py

m = start_py.Model()
assert m.fixed_names == ["x"], m.fixed_names
assert m.initial_equation_names == ["go"], m.initial_equation_names
names = m.state_names
x = m.consistent_initialization(0.0, m.initial_state())
at = lambda state, name: state[names.index(name)]
assert at(x, "x") == 0.6 and abs(at(x, "y") - 0.8) < 1e-12, x
assert abs(at(x, "y_dot") - 10) < 1e-12 and abs(at(x, "T") - 350.5) < 1e-9, x
y = m.consistent_initialization(0.0, m.initial_state(), fix={"c": 1.0})
assert at(y, "c") == 1.0 and abs(at(y, "T") - 351) < 1e-10, y
try:
    m.consistent_initialization(0.0, m.initial_state(), fix={"lambda": 64.0})
except RuntimeError as failure:
    assert "consistent_initialization" in str(failure), failure
else:
    raise AssertionError("a contradicting fixed lambda was accepted")
try:
    m.consistent_initialization(0.0, m.initial_state(), fix={"speed": 1.0})
except KeyError as failure:
    assert "speed" in str(failure), failure
else:
    raise AssertionError("no KeyError")
assert m.fixed_names == ["x"], "fix= is for one call"
estimate, unknown, sign = m.algebraic_condition(0.0, x)
assert 1 <= estimate < 1e8 and sign in (1, -1), (estimate, sign)
assert unknown is None or unknown in m.algebraic_names, unknown
estimate, invariant = m.invariants_condition(0.0, x)
assert 1 <= estimate < 1e8 and (invariant is None or invariant in m.invariant_names), invariant
# A state that is not finite is a failure (RuntimeError), inf as NaN; a parameter or a fixed
# start that is not finite a ValueError; never a number.
for bad in (float("inf"), float("-inf"), float("nan")):
    state = m.initial_state()
    state[0] = bad
    calls = [(RuntimeError, "the state '%s' is not finite" % names[0], call) for call in (
        lambda: m.rhs(0.0, state), lambda: m.algebraic(0.0, state),
        lambda: m.invariants(0.0, state), lambda: m.outputs(0.0, state),
        lambda: m.rhs_jacobian(0.0, state), lambda: m.project(0.0, state),
        lambda: m.consistent_initialization(0.0, state))]
    calls += [(ValueError, "must be finite", call) for call in (
        lambda: m.set_parameter("q", bad),
        lambda: m.consistent_initialization(0.0, m.initial_state(), fix={"c": bad}))]
    for error, words, call in calls:
        try:
            call()
        except error as failure:
            assert words in str(failure), failure
        else:
            raise AssertionError("a value %r was accepted" % bad)
assert np.all(np.isfinite(m.parameters))
# simulate: both parts against their exact solutions, the invariants kept by projection, and
# fix={...} for the call only. The starts it moved are named in a UserWarning, as the simulator
# prints them (quiet=True: none).
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    r = m.simulate(np.linspace(0.0, 0.1, 5))
    m.simulate(np.linspace(0.0, 0.1, 5), quiet=True)
assert len(caught) == 1 and caught[0].category is UserWarning, [str(w.message) for w in caught]
said = str(caught[0].message)
assert said.startswith("consistent initialization at t = 0 changed "), said
assert "y: 0.5 -> 0.8" in said and "y_dot: 0 -> " in said, said
assert r.names[:9] == ["x", "y", "lambda", "T", "c", "mu", "x_dot", "y_dot", "speed"], r.names
assert np.array_equal(r["y_dot"], r["speed"]), (r["y_dot"], r["speed"])
mu, w = 1.0 / (1 + 100**2), 10 / 0.6
assert np.allclose(r["T"], 350.5 + (1 - mu) * r.t, rtol=1e-9), r["T"]
assert np.allclose(r["c"], 1.005 - 100 * mu * r.t, rtol=1e-7, atol=1e-9), r["c"]
assert np.allclose(r["angle"], np.arctan2(0.8, 0.6) + w * r.t, atol=1e-6), r["angle"]
assert np.allclose(r["lambda"], w**2, rtol=1e-6) and r["x"][0] == 0.6, r["lambda"]
s = r.statistics
assert s["largest_invariant_residual"] < 1e-8 and s["projections"] > 0, s
assert "y" in [name for name, given, used in r.moved_starts], r.moved_starts
r = m.simulate([0.0, 0.1], fix={"c": 1.0})
assert r["c"][0] == 1.0 and abs(r["T"][0] - 351) < 1e-9 and m.fixed_names == ["x"], r.y
print("ok")
)");
  CommandResult run = run_command(shell_quote(kPython) + " " + shell_quote(dir + "/check.py") +
                                  " " + shell_quote(dir));
  EXPECT_EQ(0, run.status) << run.out << run.err;
  EXPECT_EQ("ok\n", run.out) << run.err;
}

// --- Command line -------------------------------------------------------------------------------

// The CSV layout and the output times: the decimals T0 + k DT, the last row exactly T, no
// near-duplicate row;
// --output-times; the progress line on a pipe (tests/runtime/simulator_output_test.cpp tests
// both in detail, in process).
TEST(Simulator, OutputTimesHeaderAndProgress) {
  Fixture f = build_or_fail("OutputTimesAndHeader", "models/pendulum.dae");
  ASSERT_TRUE(f.build.ok);
  SimRun uneven = run_ok(f.build, "--t-end 1 --step 0.3");
  EXPECT_TRUE(uneven.result.out.rfind("t,x,y,u,v,lambda,energy\n", 0) == 0) << uneven.result.out;
  ASSERT_EQ(uneven.csv.rows.size(), 5u);
  // The double nearest the decimal 0.3 k (3k/10, rounded once), not the product 0.3*k.
  for (size_t k = 0; k < 4; ++k)
    EXPECT_EQ(uneven.csv.at(k, "t"), 3.0 * static_cast<double>(k) / 10) << k;
  EXPECT_EQ(uneven.csv.last("t"), 1.0);

  SimRun even =
      run_ok(f.build, "--t-start 0.1 --t-end 0.4 --step 0.1");  // 0.3/0.1 = 3.0000000000000004
  ASSERT_EQ(even.csv.rows.size(), 4u);
  EXPECT_EQ(even.csv.at(0, "t"), 0.1);
  EXPECT_EQ(even.csv.last("t"), 0.4);

  SimRun full = run_ok(f.build, "--t-start=-1 --t-end=1");
  ASSERT_EQ(full.csv.rows.size(), 101u);
  EXPECT_EQ(full.csv.at(50, "t"), 0.0);
  EXPECT_EQ(full.csv.last("t"), 1.0);
  EXPECT_TRUE(contains(full.result.out, "\n1,"));     // the exact end time prints as "1"
  EXPECT_TRUE(contains(full.result.out, "\n0,"));     // -1 + 50*0.02
  EXPECT_TRUE(contains(full.result.out, "\n0.02,"));  // not 0.020000000000000018
  EXPECT_TRUE(contains(full.result.out, "\n-0.02,"));
  EXPECT_TRUE(contains(uneven.result.out, "\n0.3,"));  // shortest, not 0.29999999999999999
  EXPECT_FALSE(contains(full.result.out, ",-0,")) << full.result.out;

  SimRun listed = run_ok(f.build, "--output-times 0.5,1,1.5");
  ASSERT_EQ(listed.csv.rows.size(), 3u);
  EXPECT_EQ(listed.csv.at(0, "t"), 0.5);
  EXPECT_EQ(listed.csv.last("t"), 1.5);
  CommandResult decreasing = run_program(f.build.executable, "--output-times 1,0.5");
  EXPECT_EQ(decreasing.status, 2);
  EXPECT_EQ(decreasing.err,
            "sim: error: --output-times must be strictly increasing: 0.5 follows 1\n"
            "sim: note: run with --help for the usage\n");

  // A run of hours stopped after two seconds, with stderr to a pipe: --progress draws the line
  // once the run has lasted a second; --no-progress prints nothing (the run never ends).
  const std::string scratch = f.dir + "/progress", sim = shell_quote(f.build.executable);
  CommandResult both = run_command("for p in progress no-progress; do timeout -s TERM 2 " + sim +
                                   " --t-end 1e7 --$p 2>&1 >/dev/null | cat > " +
                                   shell_quote(scratch) + ".$p & done; wait");
  EXPECT_EQ(both.status, 0) << both.err;
  const std::string shown = read_file(scratch + ".progress");
  EXPECT_EQ(shown.rfind("\rsim: t = ", 0), 0u) << shown;
  EXPECT_TRUE(contains(shown, " of 1e+07 (0%), ")) << shown;
  EXPECT_TRUE(contains(shown, " steps")) << shown;
  EXPECT_EQ(read_file(scratch + ".no-progress"), "");

  SimRun note = run_ok(f.build, "--t-end 0.1 --set lambda=3");  // in Z: accepted, no effect
  EXPECT_TRUE(contains(note.result.err, "lambda")) << note.result.err;
  EXPECT_EQ(note.result.out, run_ok(f.build, "--t-end 0.1").result.out);
}

/// Runs the simulator, expects `status` and stderr mentioning every one of `parts`.
void expect_failure(const Build& build, const std::string& arguments, int status,
                    std::initializer_list<std::string> parts) {
  CommandResult result = run_program(build.executable, arguments);
  EXPECT_EQ(result.status, status) << arguments << "\n" << result.err;
  EXPECT_EQ(result.out, "") << arguments;
  for (const std::string& part : parts)
    EXPECT_TRUE(contains(result.err, part)) << arguments << ": no '" << part << "' in\n"
                                            << result.err;
}

// --- Singular points ------------------------------------------------------------------------

/// The instant in "the reduced system is singular at t = T" of `err` (NaN if there is none).
// --sensitivities through daec's reduction (index 2: dummies, A Z = b, the projection onto the
// circle): tests/data/rotating_point.dae's x = r cos(w t), y = r sin(w t) and their exact
// derivatives in w and r, within the figure of merit of spec 5.1 at rtol = atol 1e-6 and 1e-8.
TEST(Simulator, SensitivitiesOfAnIndexTwoModelAreItsExactDerivatives) {
  Fixture f = build_or_fail("Sensitivities", "tests/data/rotating_point.dae");
  ASSERT_TRUE(f.build.ok);
  const double speed = 2.0, radius = 1.5;  // the model's w and r
  for (double tol : {1e-6, 1e-8}) {
    SCOPED_TRACE(tol);
    const std::string tolerance = tol == 1e-6 ? "1e-6" : "1e-8";
    SimRun sim = run_ok(f.build, "--sensitivities all --t-end 3 --quiet --rtol " + tolerance +
                                     " --atol " + tolerance);
    // Every declared variable has its column, the algebraic multiplier lam (0 for every w, r)
    // too.
    ASSERT_EQ(sim.csv.header,
              (std::vector<std::string>{"t", "x", "y", "lam", "d(x)/d(w)", "d(y)/d(w)",
                                        "d(lam)/d(w)", "d(x)/d(r)", "d(y)/d(r)", "d(lam)/d(r)"}));
    const std::pair<const char*, double (*)(double, double, double)> exact[] = {
        {"d(x)/d(w)", [](double t, double w, double r) { return -r * t * std::sin(w * t); }},
        {"d(y)/d(w)", [](double t, double w, double r) { return r * t * std::cos(w * t); }},
        {"d(lam)/d(w)", [](double, double, double) { return 0.0; }},
        {"d(x)/d(r)", [](double t, double w, double) { return std::cos(w * t); }},
        {"d(y)/d(r)", [](double t, double w, double) { return std::sin(w * t); }},
        {"d(lam)/d(r)", [](double, double, double) { return 0.0; }}};
    double worst = 0.0;
    for (size_t row = 0; row < sim.csv.rows.size(); ++row)
      for (const auto& [name, derivative] : exact) {
        const double value = derivative(sim.csv.at(row, "t"), speed, radius);
        worst = std::max(worst,
                         std::fabs(sim.csv.at(row, name) - value) / (tol * std::fabs(value) + tol));
      }
    EXPECT_LE(worst, 10.0);
  }
}

// The jump of the sensitivities at a switch whose instant moves with the parameters:
// tests/data/two_slopes.dae falls at a until it reaches c, then at 2a; dx/da = -t, then -2t, and
// dx/dc = 0, then -1 (the switch, at tau = (1 - c)/a, comes earlier as c rises).
TEST(Simulator, SensitivitiesJumpWhereTheSwitchMovesWithTheParameters) {
  Fixture f = build_or_fail("SensitivitiesJump", "tests/data/two_slopes.dae");
  ASSERT_TRUE(f.build.ok);
  // c = 0.45: the switch at tau = 0.55 lies between two rows.
  SimRun sim = run_ok(f.build, "--sensitivities a,c --set c=0.45 --t-end 0.8 --step 0.1 --quiet");
  ASSERT_EQ(sim.csv.header, (std::vector<std::string>{"t", "x", "d(x)/d(a)", "d(x)/d(c)"}));
  ASSERT_EQ(sim.csv.rows.size(), 9u);
  for (size_t row = 0; row < sim.csv.rows.size(); ++row) {
    const double t = sim.csv.at(row, "t");
    const bool after = t > 0.55;  // x = 2 - c - 2 a t after the switch
    EXPECT_NEAR(sim.csv.at(row, "x"), after ? 1.55 - 2 * t : 1 - t, 1e-9) << t;
    EXPECT_NEAR(sim.csv.at(row, "d(x)/d(a)"), after ? -2 * t : -t, 1e-6) << t;
    EXPECT_NEAR(sim.csv.at(row, "d(x)/d(c)"), after ? -1.0 : 0.0, 1e-6) << t;
  }
}

double singular_instant(const std::string& err, const std::string& lead) {
  const std::string phrase = lead + "the reduced system is singular at t = ";
  const size_t at = err.find(phrase);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(err.c_str() + at + phrase.size(), nullptr);
}

// tests/data/rhombus_linkage.dae turns at unit angular velocity from its upright position: every
// link lies on the x axis at t = pi/2, where the reduced system loses rank. Each method stops
// there, naming the instant, the equations and the unknowns; radau5-dae too, where the rank of the
// constraint Jacobian is lost (its steps, sized to the error of X alone, come close enough to
// the instant for the monitor to see it).
TEST(Simulator, RhombusLinkageStopsAtItsCollinearPosition) {
  // The whole simulator at -O2, warning-free (the other tests build at -O1).
  Fixture f =
      build_or_fail("RhombusLinkageStops", "tests/data/rhombus_linkage.dae", "g++", "", "-O2");
  ASSERT_TRUE(f.build.ok);
  const double collinear = std::acos(-1.0) / 2;
  for (const char* method : {"radau5", "bdf", "ida"}) {
    CommandResult run =
        run_program(f.build.executable, std::string("--t-end 4 --method ") + method);
    EXPECT_EQ(run.status, 1) << method << "\n" << run.err;
    EXPECT_NEAR(singular_instant(run.err, "sim: error: "), collinear, 1e-6) << method << "\n"
                                                                            << run.err;
    for (const char* part : {"A(X, t) loses rank", "crank''", "coupler''", "lambda1", "lambda3",
                             "u1_dot", "--on-singular warn"})
      EXPECT_TRUE(contains(run.err, part)) << method << ": no '" << part << "' in\n" << run.err;
  }
  // Near the crossing of the parallelogram and antiparallelogram branches the constraints are
  // quadratic in the distance from it, so a path that meets them to within a tolerance e passes
  // the collinear configuration at about sqrt(e): `bdf` at 1e-6 (held to 1e-8) passes 1.4e-5
  // after it, where the condition estimate tops a thousand times above its step's samples but
  // below 1e10 (docs/simulator.md, "Singular points").
  CommandResult loose =
      run_program(f.build.executable, "--t-end 4 --method bdf --rtol 1e-6 --atol 1e-6");
  EXPECT_EQ(loose.status, 1) << loose.err;
  EXPECT_NEAR(singular_instant(loose.err, "sim: error: "), collinear, 1e-4) << loose.err;
  EXPECT_TRUE(contains(loose.err, "(a narrow peak of the condition estimate): A(X, t) loses rank"))
      << loose.err;
  CommandResult dae = run_program(f.build.executable, "--t-end 4 --method radau5-dae");
  EXPECT_EQ(dae.status, 1) << dae.err;
  EXPECT_NEAR(singular_instant(dae.err, "sim: error: "), collinear, 1e-3) << dae.err;
  EXPECT_TRUE(contains(dae.err, "--on-singular warn")) << dae.err;
  // Warned instead: the run goes on past the instant (on whichever branch) and ends with 0.
  CommandResult warned = run_program(f.build.executable, "--t-end 2 --on-singular=warn");
  EXPECT_EQ(warned.status, 0) << warned.err;
  EXPECT_NEAR(singular_instant(warned.err, "sim: warning: "), collinear, 1e-6) << warned.err;
  expect_failure(f.build, "--on-singular ignore", 2, {"--on-singular expects stop or warn"});
}

// tests/data/double_four_bar.dae: its cranks swing as the pendulum theta'' = -(g/L) cos(theta)
// from theta = pi/2, theta' = 1, and lie horizontal at theta = pi, at the instant
// integral from pi/2 to pi of 1/sqrt(1 + 2 (g/L)(1 - sin(theta))) (Simpson's rule here).
TEST(Simulator, DoubleFourBarStopsWhereItsCranksAreHorizontal) {
  Fixture f = build_or_fail("DoubleFourBarStops", "tests/data/double_four_bar.dae");
  ASSERT_TRUE(f.build.ok);
  const double pi = std::acos(-1.0), g = 9.81;
  const int n = 20000;
  const double h = (pi / 2) / n;
  auto rate = [&](double theta) { return 1 / std::sqrt(1 + 2 * g * (1 - std::sin(theta))); };
  double sum = rate(pi / 2) + rate(pi);
  for (int i = 1; i < n; ++i) sum += (i % 2 ? 4 : 2) * rate(pi / 2 + i * h);
  const double horizontal = sum * h / 3;
  CommandResult run = run_program(f.build.executable, "--t-end 4");
  EXPECT_EQ(run.status, 1) << run.err;
  // The Gram matrix of dh/dX (whose condition is the square of dh/dX's) can reach rounding level
  // within about 1e-4 of the instant, before A does: where a step ends there, the stop names the
  // hidden constraint and an instant that close, not the instant to every digit.
  EXPECT_NEAR(singular_instant(run.err, "sim: error: "), horizontal, 1e-4) << run.err;
  EXPECT_TRUE(contains(run.err, "crank0''") || contains(run.err, "coupler")) << run.err;
}

// tests/data/opamp_cascade.dae (index 11): v[10] = (R C)^10 times the tenth derivative of
// sin(t), -1e30 sin(t). Its hidden constraints have terms of 1e30, so their residuals are of
// 1e14 and more as they are, and at rounding level relative to those terms: the statistic
// reports them so.
TEST(Simulator, OpampCascadeReportsResidualsRelativeToTheirTerms) {
  Fixture f =
      build_or_fail("OpampCascadeResiduals", "tests/data/opamp_cascade.dae", "clang++", "", "-O2");
  ASSERT_TRUE(f.build.ok);
  SimRun sim = run_ok(f.build, "--quiet");
  ASSERT_EQ(sim.csv.rows.size(), 101u);
  EXPECT_LT(largest_error(sim.csv, "v[10]", [](double t) { return -1e30 * std::sin(t); }), 1e22);
  EXPECT_LT(largest_error(sim.csv, "v[1]", [](double t) { return -1e3 * std::cos(t); }), 1e-5);
  EXPECT_GT(sim.stats.largest_absolute_invariant_residual, 1e6) << sim.result.err;
  EXPECT_LT(sim.stats.largest_invariant_residual, 1e-12) << sim.result.err;
}

// tests/data/capacitor_loop.dae (index 2): v1 = V0 sin(2 pi f t) crosses 0 every half period,
// where the terms of the invariant source = v1 - V0 sin(2 pi f t) all vanish. The run is exact
// to rounding; the statistic, relative to the size of the terms (the states measured by their
// scale from the start, as consistent initialization measures them), must say so on every
// method, not fall back to the absolute tolerance there (0.0091 with radau5, 1 with ida before).
TEST(Simulator, ExactRunCrossingZeroReadsExactRelativeToItsTerms) {
  Fixture f = build_or_fail("CapacitorLoopResiduals", "tests/data/capacitor_loop.dae");
  ASSERT_TRUE(f.build.ok);
  const double pi = std::acos(-1.0);
  for (const char* method : kMethods) {
    SimRun sim = run_ok(f.build, std::string("--t-end 0.04 --step 0.005 --method ") + method);
    ASSERT_EQ(sim.csv.rows.size(), 9u) << method;
    EXPECT_LT(largest_error(sim.csv, "v1", [&](double t) { return std::sin(2 * pi * 50 * t); }),
              1e-8)
        << method;
    EXPECT_LT(sim.stats.largest_invariant_residual, 1e-6) << method << "\n" << sim.result.err;
  }
}

TEST(Simulator, CommandLineErrors) {
  Fixture f = build_or_fail("CommandLineErrors", "models/pendulum.dae");
  ASSERT_TRUE(f.build.ok);
  const Build& b = f.build;
  // --help: the executable's own name, the parameters with their units and descriptions, the
  // start values with theirs.
  const CommandResult help = run_program(b.executable, "--help");
  EXPECT_EQ(help.status, 0);
  const std::string name = b.executable.substr(b.executable.rfind('/') + 1);
  for (const std::string& part :
       {"usage: " + name + " [--t-start T0]", std::string("\n  m = 1 kg  mass\n  L = 1 m\n"),
        std::string("  g = 9.81 m/s2\n"), std::string("\n  x = 1 m\n  y = 0 m\n  u = 0 m/s\n"),
        std::string("Computed from the states (only --fix has an effect): lambda\n")})
    EXPECT_TRUE(contains(help.out, part)) << part << "\n" << help.out;
  expect_failure(b, "--tend 2", 2,
                 {"sim: error: unknown option '--tend'; did you mean '--t-end'?"});
  expect_failure(b, "--set mass=2", 2, {"sim: error:", "'mass'", "m, L, g", "x, y, u, v"});
  expect_failure(b, "--set g=fast", 2, {"invalid number 'fast'"});
  expect_failure(b, "--set g", 2, {"NAME=VALUE"});
  expect_failure(b, "--rtol 1e-8x", 2, {"'1e-8x'", "--rtol"});
  expect_failure(b, "--atol nan", 2, {"'nan'"});
  expect_failure(b, "--t-end inf", 2, {"'inf'"});
  expect_failure(b, "--t-end", 2, {"--t-end"});
  expect_failure(b, "--t-end 1 --t-start 1", 2, {"--t-end", "--t-start"});
  expect_failure(b, "--t-start 2", 2, {"--t-end", "--t-start"});
  expect_failure(b, "--step 0", 2, {"--step"});
  expect_failure(b, "--step -0.1", 2, {"--step"});
  expect_failure(b, "--rtol 0", 2, {"--rtol"});
  expect_failure(b, "--frobnicate", 2, {"'--frobnicate'"});
  expect_failure(b, "stray", 2, {"'stray'"});
  std::string missing_dir = f.dir + "/no/such/dir/out.csv";
  expect_failure(b, "--output " + shell_quote(missing_dir), 1, {"sim: error:", missing_dir});
  expect_failure(b, "--output " + shell_quote(f.dir), 1, {"sim: error:", f.dir});
  EXPECT_FALSE(std::filesystem::exists(f.dir + "/no"));

  // Bad usage found before the run: nothing is written, an existing file is left as it was.
  const std::string old_csv = f.dir + "/s.csv", svg = f.dir + "/f.svg";
  write_file(old_csv, "OLD\n");
  write_file(svg, "OLD\n");
  const std::string csv_arg = shell_quote(old_csv), svg_arg = shell_quote(svg);
  expect_failure(b, "--output " + csv_arg + " --events " + csv_arg, 2,
                 {"sim: error: --output and --events would both write '" + old_csv + "'"});
  expect_failure(b, "--output " + svg_arg + " --plot " + shell_quote(f.dir + "/./f.svg"), 2,
                 {"sim: error: --output and --plot would both write"});
  expect_failure(b, "--output " + csv_arg + " --plot " + shell_quote(f.dir + "/p"), 2,
                 {"sim: error: --plot " + f.dir + "/p: the file name must end in .svg or .png"});
  expect_failure(b, "--set g=0x10 --output " + csv_arg, 2, {"invalid number '0x10' for --set g"});
  expect_failure(b, "--rtol 1e10 --output " + csv_arg, 2, {"it must be below 1"});
  expect_failure(b, "--t-start 1e16 --t-end 1.00000000000001e16", 2,
                 {"is below the resolution of t near 10000000000000100 (2)"});
  EXPECT_EQ(read_file(old_csv), "OLD\n");
  EXPECT_EQ(read_file(svg), "OLD\n");

  // A rod of length 0: its Jacobian 2 (x, y) vanishes where the start must be; refused, not
  // integrated with lambda ~ 1e12.
  expect_failure(b, "--set L=0 --t-end 0.3 --output " + csv_arg, 1,
                 {"sim: error: consistent initialization failed at t = 0: the constraint 'rod' "
                  "has a vanishing Jacobian where the start must be",
                  "sim: note: it depends on the parameters L = 0;",
                  // drawn from the starts given towards the singular root x = y = 0
                  "sim: note: the search for the start ended at x = ", " (given 1), where",
                  "the starts given led it; keep the starts that must "
                  "not move (--fix NAME=VALUE or fixed = true), so that the others are found "
                  "from them\n"});
  EXPECT_EQ(read_file(old_csv), "OLD\n");
  for (const auto& entry : std::filesystem::directory_iterator(f.dir))
    EXPECT_EQ(entry.path().filename().string().find(".partial"), std::string::npos) << entry.path();
}

// SIGTERM and SIGHUP during a run remove the temporary file (FILE.partial.XXXXXX); an existing
// FILE stays as it was, and the run ends by the signal. (A background job of a script ignores
// SIGINT, so the test cannot send it; the simulator handles it the same way.)
TEST(Simulator, SignalsLeaveNoTemporaryFile) {
  Fixture f = build_or_fail("SignalsLeaveNoTemporaryFile", "models/pendulum.dae");
  ASSERT_TRUE(f.build.ok);
  const std::string csv = f.dir + "/long.csv";
  for (const char* signal : {"TERM", "HUP"}) {
    write_file(csv, "OLD\n");
    // A run of many hours, stopped once its temporary exists (or after 10 s in any case).
    const std::string script =
        shell_quote(f.build.executable) + " --t-end 1e7 --step 0.5 --output " + shell_quote(csv) +
        " 2>/dev/null & pid=$!; for i in $(seq 1000); do ls " + shell_quote(csv) +
        ".partial.* >/dev/null 2>&1 && break; sleep 0.01; done; kill -" + signal +
        " $pid; wait $pid; echo $?";
    CommandResult run = run_command(script);
    EXPECT_EQ(run.out, std::to_string(128 + (std::string(signal) == "TERM" ? 15 : 1)) + "\n")
        << signal << " " << run.err;
    EXPECT_EQ(read_file(csv), "OLD\n") << signal;
    for (const auto& entry : std::filesystem::directory_iterator(f.dir))
      EXPECT_EQ(entry.path().filename().string().find(".partial"), std::string::npos)
          << signal << " " << entry.path();
  }
}

TEST(Simulator, HelpAndIntegrationFailure) {
  Fixture f = build_or_fail("HelpAndIntegrationFailure", "models/pendulum.dae");
  ASSERT_TRUE(f.build.ok);
  CommandResult help = run_program(f.build.executable, "--help");
  EXPECT_EQ(help.status, 0);
  for (const char* part : {"--t-start", "--t-end", "--step", "--rtol", "--atol", "--set",
                           "--output", "1e-08", "1e-10", "(T - T0)/100", "g = 9.81"})
    EXPECT_TRUE(contains(help.out, part)) << part << "\n" << help.out;

  // A relative tolerance no double can meet is bad usage.
  std::string csv = f.dir + "/never.csv";
  expect_failure(f.build, "--rtol 1e-300 --output " + shell_quote(csv), 2,
                 {"sim: error: --rtol 1e-300 is below 1e-15, more than double precision can "
                  "deliver"});
  EXPECT_FALSE(std::filesystem::exists(csv));
  EXPECT_FALSE(std::filesystem::exists(csv + ".partial"));
}

}  // namespace
}  // namespace daec::test
