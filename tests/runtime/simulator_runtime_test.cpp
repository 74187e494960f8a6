// daec/simulator/: the simulator's command line, output, methods and plot, run in process on the
// hand-written circle model (exact solution x = r cos(w t), y = r sin(w t)) without generating
// code; tests/e2e/simulator_test.cpp runs the same code through daec --main on the bundled models.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <daec/simulator/run.hpp>

#include "circle_model.h"
#include "run_in_process.h"

namespace {

using circle::Model;
namespace sim = daec::simulator;

using daec::test::read;
using daec::test::RunResult;
using daec::test::scratch;

template <typename CircleModel = Model>
RunResult run(const std::vector<std::string>& arguments) {
  return daec::test::run<CircleModel>(arguments);
}

/// The largest error of the CSV's x and y against the exact solution, and the row count.
std::pair<double, size_t> csv_error(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "t,x,y,z,angle");
  double largest = 0;
  size_t rows = 0;
  while (std::getline(in, line)) {
    double t, x, y, z, angle;
    EXPECT_EQ(std::sscanf(line.c_str(), "%lg,%lg,%lg,%lg,%lg", &t, &x, &y, &z, &angle), 5);
    largest = std::max({largest, std::fabs(x - 1.5 * std::cos(2 * t)),
                        std::fabs(y - 1.5 * std::sin(2 * t)), std::fabs(z - 2.25)});
    ++rows;
  }
  return {largest, rows};
}

TEST(SimulatorRuntime, EveryMethodAndLinearSolverFollowsTheCircle) {
  for (const char* method : {"radau5", "radau5-dae", "bdf", "ida"}) {
    for (const char* solver : {"dense", "klu"}) {
      std::string csv = scratch(std::string("circle-") + method + "-" + solver + ".csv");
      RunResult r = run({"--t-end", "2", "--rtol", "1e-10", "--atol", "1e-12", "--method", method,
                         "--linear-solver", solver, "--output", csv});
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.err.rfind(
                    std::string("method ") + method + ", linear solver " + solver + ", steps ", 0),
                0u)
          << r.err;
      auto [error, rows] = csv_error(read(csv));
      EXPECT_EQ(rows, 101u);
      EXPECT_LT(error, 1e-7) << method << " " << solver;
    }
  }
}

// A large model has only the sparse Jacobians: every method runs on them with KLU, KLU is what
// auto picks, and dense is refused.
TEST(SimulatorRuntime, EveryMethodRunsOnSparseJacobiansAlone) {
  for (const char* method : {"radau5", "radau5-dae", "bdf", "ida"}) {
    std::string csv = scratch(std::string("sparse-circle-") + method + ".csv");
    RunResult r = run<circle::SparseModel>({"--t-end", "2", "--rtol", "1e-10", "--atol", "1e-12",
                                            "--method", method, "--output", csv});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.rfind(std::string("method ") + method + ", linear solver klu, steps ", 0), 0u)
        << r.err;
    auto [error, rows] = csv_error(read(csv));
    EXPECT_EQ(rows, 101u);
    EXPECT_LT(error, 1e-7) << method;
  }
  RunResult dense = run<circle::SparseModel>({"--linear-solver", "dense"});
  EXPECT_EQ(dense.status, 2);
  EXPECT_EQ(dense.err,
            "sim: error: --linear-solver dense: this model is too large for dense Jacobians\n"
            "sim: note: run with --help for the usage\n");
  RunResult list = run<circle::SparseModel>({"--method", "list"});
  EXPECT_NE(list.out.find("radau5-dae "), std::string::npos);
}

TEST(SimulatorRuntime, MethodListAndHelp) {
  RunResult list = run({"--method", "list"});
  EXPECT_EQ(list.status, 0);
  EXPECT_NE(list.out.find("radau5 "), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("radau5-dae "), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("bdf "), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("ida "), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("(default for this model)"), std::string::npos) << list.out;
  RunResult help = run({"--help"});
  EXPECT_EQ(help.status, 0);
  for (const char* part :
       {"--method NAME", "--linear-solver", "--plot FILE", "w = 2", "r = 1.5",
        "Start values (guesses unless fixed; made consistent at T0): x, y",
        "Computed from the states (only --fix has an effect): z", "--fix NAME=VALUE", "--quiet"})
    EXPECT_NE(help.out.find(part), std::string::npos) << part << "\n" << help.out;
}

TEST(SimulatorRuntime, UsageErrors) {
  struct Case {
    std::vector<std::string> arguments;
    std::string message;
  };
  const Case cases[] = {
      {{"--method", "euler"},
       "sim: error: unknown method 'euler'; the methods are radau5, radau5-dae, bdf, ida "
       "(--method list describes them)\n"},
      {{"--linear-solver", "lu"},
       "sim: error: --linear-solver expects dense, klu or auto, got 'lu'\n"},
      {{"--plot-columns", "x"}, "sim: error: --plot-columns needs --plot FILE\n"},
      {{"--plot", "p.svg", "--plot-columns", "x,,y"},
       "sim: error: --plot-columns expects names separated by commas, got 'x,,y'\n"},
      {{"--plot", scratch("never.svg"), "--plot-columns", "x,q"},
       "sim: error: --plot-columns: no column 'q'; the columns are x, y, z, angle\n"},
      {{"--set", "q=1"},
       "sim: error: unknown name 'q' in --set; it can set parameters w, r; start values x, y; "
       "algebraic (with --fix) z\n"},
      {{"--fix", "w=1"},
       "sim: error: --fix w: 'w' is a parameter, constant anyway; set it with --set\n"},
      {{"--fix", "x"}, "sim: error: --fix expects NAME=VALUE, got 'x'\n"},
  };
  for (const Case& c : cases) {
    RunResult r = run(c.arguments);
    EXPECT_EQ(r.status, 2) << c.message;
    EXPECT_EQ(r.err, c.message + "sim: note: run with --help for the usage\n");
  }
  EXPECT_FALSE(std::filesystem::exists(scratch("never.svg")));
}

TEST(SimulatorRuntime, FailureNamesTheTimeAndQuantity) {
  std::string csv = scratch("failed.csv");
  RunResult r = run({"--set", "r=1e200", "--output", csv});  // z = x^2 + y^2 overflows
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "sim: error: the right-hand side cannot be evaluated at the start at t = 0: the "
            "algebraic unknown 'z' is not finite (sqrt or log of a negative number, log of 0, a "
            "division by 0 or an overflow in its equation 'radius2'?)\n");
  EXPECT_FALSE(std::filesystem::exists(csv));
}

// A method that gave up names the others that run on the model, the most robust first, and
// looser tolerances where they are tight; a sparse-only model runs every method (on KLU).
TEST(SimulatorRuntime, AMethodThatGaveUpNamesTheOthers) {
  const daec::runtime::ModelAdapter<Model> model;
  sim::Options options;
  sim::Failure failure{1, "integration failed at t = 1: the step size vanished", {}};
  sim::advise_other_methods(failure, model, "radau5-dae", options);
  ASSERT_EQ(failure.notes.size(), 1u);
  EXPECT_EQ(failure.notes[0],
            "another method may get past this: --method radau5, --method bdf or --method ida "
            "(--method list describes them)");
  const daec::runtime::ModelAdapter<circle::SparseModel> sparse;
  options.rtol = options.atol = 1e-10;
  failure.notes.clear();
  sim::advise_other_methods(failure, sparse, "radau5", options);
  ASSERT_EQ(failure.notes.size(), 1u);
  EXPECT_EQ(failure.notes[0],
            "another method may get past this: --method bdf, --method ida or --method "
            "radau5-dae (--method list describes them); or looser tolerances than --rtol 1e-10 "
            "--atol 1e-10");
}

/// The circle with the parameter Jacobians daec generates (docs/generated-code.md, "Parameter
/// Jacobians"): dF/dw = (-y z, x z)/r^2, dF/dr = 2 w (y z, -x z)/r^3, dh/dr = -2 r.
struct CircleWithParameterJacobians : Model {
  static constexpr int rhs_parameter_jacobian_nnz = 4;
  static constexpr int rhs_parameter_jacobian_colptr[] = {0, 2, 4};
  static constexpr int rhs_parameter_jacobian_rowval[] = {0, 1, 0, 1};
  int rhs_parameter_jacobian_values(double, const double* x, double* values) const {
    const double w = p[0], r = p[1], z = x[0] * x[0] + x[1] * x[1];
    values[0] = -x[1] * z / (r * r), values[1] = x[0] * z / (r * r);
    values[2] = 2 * w * x[1] * z / (r * r * r), values[3] = -2 * w * x[0] * z / (r * r * r);
    return 0;
  }
  static constexpr int residual_parameter_jacobian_nnz = 4;
  static constexpr int residual_parameter_jacobian_colptr[] = {0, 2, 4};
  static constexpr int residual_parameter_jacobian_rowval[] = {0, 1, 0, 1};
  void residual_parameter_jacobian_values(double, const double* x, const double*, const double* z,
                                          double* values) const {
    const double w = p[0], r = p[1];
    values[0] = x[1] * z[0] / (r * r), values[1] = -x[0] * z[0] / (r * r);
    values[2] = -2 * w * x[1] * z[0] / (r * r * r), values[3] = 2 * w * x[0] * z[0] / (r * r * r);
  }
  static constexpr int invariants_parameter_jacobian_nnz = 1;
  static constexpr int invariants_parameter_jacobian_colptr[] = {0, 0, 1};
  static constexpr int invariants_parameter_jacobian_rowval[] = {0};
  void invariants_parameter_jacobian_values(double, const double*, double* values) const {
    values[0] = -2 * p[1];
  }
};

// --sensitivities w,r on the circle x = r cos(w t), y = r sin(w t), z = r^2, angle = w t:
// dx/dw = -r t sin(w t), dy/dw = r t cos(w t), dz/dw = 0, d(angle)/dw = t, dx/dr = cos(w t),
// dy/dr = sin(w t), dz/dr = 2 r, d(angle)/dr = 0. Every declared variable and output has its
// columns (the algebraic and output ones by differences along the states' sensitivities). The
// r columns start at (1, 0) only through the start's projection onto the linearized circle (the
// start x = r moves with r), and every row meets the figure of merit of spec 5.1 at 1e-6, 1e-8
// and 1e-10.
TEST(SimulatorRuntime, SensitivitiesFollowTheExactDerivatives) {
  for (const char* tol : {"1e-6", "1e-8", "1e-10"}) {
    SCOPED_TRACE(tol);
    const std::string csv = scratch("sensitivities.csv");
    RunResult r =
        run<CircleWithParameterJacobians>({"--sensitivities", "w,r", "--t-end", "3", "--rtol", tol,
                                           "--atol", tol, "--quiet", "--output", csv});
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream in(read(csv));
    std::string line;
    std::getline(in, line);
    ASSERT_EQ(line,
              "t,x,y,z,angle,d(x)/d(w),d(y)/d(w),d(z)/d(w),d(angle)/d(w),d(x)/d(r),d(y)/d(r),"
              "d(z)/d(r),d(angle)/d(r)");
    const double w = 2.0, radius = 1.5, tolerance = std::strtod(tol, nullptr);
    double worst = 0.0;
    size_t rows = 0;
    while (std::getline(in, line)) {
      double v[13];
      std::istringstream fields(line);
      std::string field;
      int n = 0;
      while (n < 13 && std::getline(fields, field, ',')) v[n++] = std::strtod(field.c_str(), nullptr);
      ASSERT_EQ(n, 13) << line;
      const double t = v[0], c = std::cos(w * t), s = std::sin(w * t);
      const double exact[8] = {-radius * t * s, radius * t * c, 0, t, c, s, 2 * radius, 0};
      for (int i = 0; i < 8; ++i)
        worst = std::max(
            worst, std::fabs(v[5 + i] - exact[i]) / (tolerance * std::fabs(exact[i]) + tolerance));
      ++rows;
    }
    EXPECT_EQ(rows, 101u);
    EXPECT_LE(worst, 10.0);
  }
  RunResult unknown = run<CircleWithParameterJacobians>({"--sensitivities", "w,v"});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(unknown.err,
            "sim: error: --sensitivities: no parameter 'v'; the parameters are w, r\n"
            "sim: note: run with --help for the usage\n");
  RunResult bdf = run<CircleWithParameterJacobians>({"--sensitivities", "all", "--method", "bdf"});
  EXPECT_EQ(bdf.status, 2);
  EXPECT_EQ(bdf.err,
            "sim: error: --sensitivities: the method bdf does not integrate sensitivities; "
            "--method radau5 does\nsim: note: run with --help for the usage\n");
  RunResult none = run({"--sensitivities", "w"});  // a hand-written model without them
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("the model has no parameter Jacobians"), std::string::npos) << none.err;
}

TEST(SimulatorRuntime, PlotDrawsTheChosenColumnsWithUnits) {
  std::string svg = scratch("circle.svg");
  std::filesystem::remove(svg);
  RunResult r = run({"--t-end", "3", "--output", scratch("plotted.csv"), "--plot", svg,
                     "--plot-columns", "x,angle"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::string text = read(svg);
  EXPECT_EQ(text.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(text.find(">x [m]</text>"), std::string::npos);
  EXPECT_NE(text.find(">angle [rad]</text>"), std::string::npos);
  EXPECT_EQ(text.find(">y [m]</text>"), std::string::npos);
  EXPECT_EQ(text.find("<clipPath id=\"panel1\">"), text.rfind("<clipPath"));  // a panel per unit
  size_t polylines = 0;
  for (size_t at = text.find("<polyline"); at != std::string::npos;
       at = text.find("<polyline", at + 1))
    ++polylines;
  EXPECT_EQ(polylines, 2u);
  // A plot file without .svg or .png is bad usage, found before the run.
  for (const char* name : {"circle.pdf", "p"}) {
    RunResult bad = run({"--plot", scratch(name)});
    EXPECT_EQ(bad.status, 2);
    EXPECT_EQ(bad.err, "sim: error: --plot " + scratch(name) +
                           ": the file name must end in .svg or .png\n"
                           "sim: note: run with --help for the usage\n");
  }
}

// --plot-columns x:y draws a phase plot; a name that is no column is named with its pair.
TEST(SimulatorRuntime, PlotColumnsPairsDrawAPhasePlot) {
  const std::string svg = scratch("phase.svg");
  std::filesystem::remove(svg);
  RunResult r = run(
      {"--t-end", "3", "--output", scratch("phase.csv"), "--plot", svg, "--plot-columns", "x:y"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = read(svg);
  EXPECT_NE(text.find(">(x, y)</text>"), std::string::npos);
  EXPECT_NE(text.find(">x [m]</text>"), std::string::npos);  // the horizontal axis
  RunResult unknown = run({"--plot", svg, "--plot-columns", "x:q"});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(unknown.err,
            "sim: error: --plot-columns: no column 'q' (in the pair 'x:q'); the columns are x, y, "
            "z, angle\nsim: note: run with --help for the usage\n");
}

// Without a converter a PNG plot fails (status 1) naming what was tried; the CSV is written.
TEST(SimulatorRuntime, PlotPngWithoutAConverterKeepsTheCsv) {
  const std::string csv = scratch("png-less.csv"), png = scratch("png-less.png");
  std::filesystem::remove(csv);
  const std::string empty = scratch("png-less-path");
  std::filesystem::create_directories(empty);
  const std::string old_path = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  ::setenv("PATH", empty.c_str(), 1);
  RunResult r = run({"--t-end", "0.1", "--output", csv, "--plot", png});
  ::setenv("PATH", old_path.c_str(), 1);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "sim: error: cannot create the plot '" + png +
                       "': no converter from SVG to PNG worked\n"
                       "sim: note: tried rsvg-convert: not found on PATH\n"
                       "sim: note: tried magick: not found on PATH\n"
                       "sim: note: tried convert: not found on PATH\n"
                       "sim: note: install rsvg-convert (Debian: apt-get install librsvg2-bin) or "
                       "ImageMagick, or write the plot as .svg; the other outputs are written\n");
  EXPECT_EQ(read(csv).rfind("t,x,y,z,angle\n0,1.5,0,2.25,0\n", 0), 0u);
  EXPECT_FALSE(std::filesystem::exists(png));
}

/// The names of the files in `dir` that begin with `prefix` and hold `part` (a prefix of the
/// test's own: the scratch directory is shared with the tests running beside it).
std::vector<std::string> files_with(const std::string& dir, const std::string& part,
                                    const std::string& prefix = "") {
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && name.find(part) != std::string::npos) found.push_back(name);
  }
  return found;
}

// Two outputs on one file, however spelled, are bad usage, and the file is left as it was.
TEST(SimulatorRuntime, TwoOutputsOnOneFileAreBadUsageAndTouchNothing) {
  const std::string dir = std::filesystem::path(scratch("same")).parent_path().string();
  const std::string csv = scratch("same.csv"), svg = scratch("same.svg");
  std::filesystem::remove(scratch("same-link.csv"));
  std::filesystem::create_symlink(csv, scratch("same-link.csv"));
  struct Case {
    std::vector<std::string> arguments;
    std::string message;
  };
  const Case cases[] = {
      {{"--output", csv, "--events", csv}, "--output and --events would both write '" + csv + "'"},
      {{"--output", csv, "--events", dir + "/./../runtime/same.csv"},
       "--output and --events would both write '" + dir + "/./../runtime/same.csv'"},
      {{"--output", csv, "--events", scratch("same-link.csv")},
       "--output and --events would both write '" + scratch("same-link.csv") + "'"},
      {{"--output", svg, "--plot", svg}, "--output and --plot would both write '" + svg + "'"},
      {{"--events", svg, "--plot", svg}, "--events and --plot would both write '" + svg + "'"},
      {{"--events", "-"}, "--output and --events would both write to standard output ('-')"},
  };
  for (const Case& c : cases) {
    for (const std::string& file : {csv, svg}) {
      std::ofstream(file) << "OLD\n";
    }
    RunResult r = run(c.arguments);
    EXPECT_EQ(r.status, 2) << c.message;
    EXPECT_EQ(r.err, "sim: error: " + c.message + "\nsim: note: run with --help for the usage\n");
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(read(csv), "OLD\n");
    EXPECT_EQ(read(svg), "OLD\n");
  }
  EXPECT_EQ(files_with(dir, ".partial", "same"), std::vector<std::string>{});
  // Distinct files are fine; the link is written through, the old contents replaced whole.
  RunResult ok = run(
      {"--output", scratch("same-link.csv"), "--events", scratch("same.events"), "--plot", svg});
  ASSERT_EQ(ok.status, 0) << ok.err;
  EXPECT_TRUE(std::filesystem::is_symlink(scratch("same-link.csv")));
  EXPECT_EQ(read(csv).rfind("t,x,y,z,angle\n0,1.5,0,", 0), 0u) << read(csv);
  EXPECT_EQ(read(scratch("same.events")), "t,condition,value\n");
  EXPECT_EQ(read(svg).rfind("<svg ", 0), 0u);
  EXPECT_EQ(files_with(dir, ".partial", "same"), std::vector<std::string>{});
}

// A dangling link names the file to create: the run writes it through a temporary beside it and
// keeps the link. Where the link's directory is missing, the message names it and nothing is
// written; a dangling link to another output is two outputs on one file.
TEST(SimulatorRuntime, DanglingLinkOutputIsWrittenThroughAndKept) {
  namespace fs = std::filesystem;
  const std::string dir = fs::path(scratch("dangling")).parent_path().string();
  for (const char* name : {"dangling-real", "dangling-link.csv", "dangling-bad.csv",
                           "dangling-same.csv", "dangling-same.events", "dangling-link.units.csv"})
    fs::remove_all(scratch(name));
  fs::create_directory(scratch("dangling-real"));
  fs::create_symlink("dangling-real/out.csv", scratch("dangling-link.csv"));
  RunResult ok = run({"--t-end", "0.1", "--output", scratch("dangling-link.csv")});
  ASSERT_EQ(ok.status, 0) << ok.err;
  EXPECT_TRUE(fs::is_symlink(scratch("dangling-link.csv")));
  EXPECT_EQ(read(scratch("dangling-real/out.csv")).rfind("t,x,y,z,angle\n0,1.5,0,", 0), 0u);
  EXPECT_EQ(files_with(scratch("dangling-real"), ""), std::vector<std::string>{"out.csv"});

  fs::create_symlink("dangling-nodir/out.csv", scratch("dangling-bad.csv"));
  RunResult bad = run({"--t-end", "0.1", "--output", scratch("dangling-bad.csv")});
  EXPECT_EQ(bad.status, 1);
  EXPECT_EQ(bad.err, "sim: error: cannot create output file '" + scratch("dangling-bad.csv") +
                         "': it is a symbolic link to '" + dir +
                         "/dangling-nodir/out.csv', whose directory '" + dir +
                         "/dangling-nodir' does not exist\n");
  EXPECT_EQ(bad.out, "");
  EXPECT_TRUE(fs::is_symlink(scratch("dangling-bad.csv")));
  EXPECT_FALSE(fs::exists(scratch("dangling-nodir")));

  fs::create_symlink("dangling-same.csv", scratch("dangling-same.events"));
  RunResult same =
      run({"--output", scratch("dangling-same.csv"), "--events", scratch("dangling-same.events")});
  EXPECT_EQ(same.status, 2);
  EXPECT_EQ(same.err, "sim: error: --output and --events would both write '" +
                          scratch("dangling-same.events") +
                          "'\nsim: note: run with --help for the usage\n");
  EXPECT_FALSE(fs::exists(scratch("dangling-same.csv")));
  EXPECT_EQ(files_with(dir, ".partial", "dangling"), std::vector<std::string>{});
}

// A failed run leaves no temporary and an existing file as it was when it fails before the
// first row (here at the start), never a mixture.
TEST(SimulatorRuntime, AFailureBeforeTheRowsLeavesTheFileAsItWas) {
  const std::string csv = scratch("kept.csv");
  std::ofstream(csv) << "OLD\n";
  RunResult r = run({"--set", "r=1e200", "--output", csv});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(read(csv), "OLD\n");
  EXPECT_EQ(files_with(std::filesystem::path(csv).parent_path().string(), "kept.csv.partial"),
            std::vector<std::string>{});
}

// Array elements of 2-D arrays hold a comma: the header quotes them (RFC 4180), and
// --plot-columns takes them as printed, quoted or not; the error lists them so.
struct GridModel : Model {
  static constexpr const char* const variable_names[] = {"A[1,1]", "A[1,2]", "z"};
};

TEST(SimulatorRuntime, ElementsOfTwoDimensionalArraysAreQuotedAndSelectable) {
  RunResult csv = daec::test::run<GridModel>({"--t-end", "0.1"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("t,\"A[1,1]\",\"A[1,2]\",z,angle\n0,1.5,0,2.25,0\n", 0), 0u) << csv.out;
  const std::string svg = scratch("grid.svg");
  for (const char* columns : {"A[1,2],angle", "\"A[1,2]\",angle"}) {
    std::filesystem::remove(svg);
    RunResult r = daec::test::run<GridModel>({"--t-end", "0.1", "--output", scratch("grid.csv"),
                                              "--plot", svg, "--plot-columns", columns});
    ASSERT_EQ(r.status, 0) << columns << "\n" << r.err;
    EXPECT_NE(read(svg).find(">A[1,2] [m]</text>"), std::string::npos) << columns;
    EXPECT_EQ(read(svg).find(">A[1,1] [m]</text>"), std::string::npos) << columns;
  }
  RunResult unknown = daec::test::run<GridModel>({"--plot", svg, "--plot-columns", "A[2,1]"});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(unknown.err,
            "sim: error: --plot-columns: no column 'A[2,1]'; the columns are A[1,1], A[1,2], z, "
            "angle\nsim: note: run with --help for the usage\n");
  EXPECT_EQ(sim::parse_columns("A[1,2],\"a,\"\"b\"\"\",c"),
            (std::vector<sim::PlotColumn>{{"", "A[1,2]"}, {"", "a,\"b\""}, {"", "c"}}));
  EXPECT_EQ(sim::column_selector("a,\"b\""), "\"a,\"\"b\"\"\"");
  EXPECT_EQ(sim::column_selector("A[1,2]"), "A[1,2]");
  EXPECT_EQ(sim::csv_field("A[1,2]"), "\"A[1,2]\"");
  EXPECT_EQ(sim::csv_field("x"), "x");
}

// A constraint whose Jacobian vanishes at the start (the circle shrunk to a point) stops the
// run, naming the constraint and the parameter that made it degenerate.
TEST(SimulatorRuntime, ADegenerateConstraintStopsTheRun) {
  RunResult r = run({"--set", "r=0"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("sim: error: consistent initialization failed at t = 0: the constraint "
                       "'circle' has a vanishing Jacobian where the start must be"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("sim: note: it depends on the parameters r = 0;"), std::string::npos)
      << r.err;
  // The start given is the singular point: nothing moved, nothing to say about the search.
  EXPECT_EQ(r.err.find("the search for the start ended"), std::string::npos) << r.err;
}

// Numbers are decimal as daec's -D takes them; tolerances and steps outside their ranges are
// bad usage; a parameter or start that the values given make infinite is refused.
TEST(SimulatorRuntime, NumbersAndRanges) {
  struct Case {
    std::vector<std::string> arguments;
    std::string message;
  };
  const std::string decimal = " (a decimal number that fits a double, such as 1000, -2.5 or 1e-3)";
  const Case cases[] = {
      {{"--set", "w=0x10"}, "invalid number '0x10' for --set w" + decimal},
      {{"--set", "w=inf"}, "invalid number 'inf' for --set w" + decimal},
      {{"--set", "w= 1"}, "invalid number ' 1' for --set w" + decimal},
      {{"--set", "w=1e-400"}, "invalid number '1e-400' for --set w" + decimal},
      {{"--t-end", "1e999"}, "invalid number '1e999' for --t-end" + decimal},
      {{"--rtol", "1e10"}, "--rtol 10000000000 asks for no correct digit; it must be below 1"},
      {{"--rtol", "1"}, "--rtol 1 asks for no correct digit; it must be below 1"},
      {{"--t-start", "1e16", "--t-end", "1.0000000000000004e16"},
       "--step 0.04 is below the resolution of t near 10000000000000004 (2): output times would "
       "repeat; it must be at least 8"},
      {{"--t-end", "1", "--step", "1e-17"}, "--step 1e-17 asks for too many output rows"},
      {{"--t-start", "1", "--t-end", "1.000000000000001", "--step", "4e-16"},
       "--step 4e-16 is below the resolution of t near 1.000000000000001 (2.220446049250313e-16): "
       "output times would repeat; it must be at least 8.881784197001252e-16"},
  };
  for (const Case& c : cases) {
    RunResult r = run(c.arguments);
    EXPECT_EQ(r.status, 2) << c.message;
    EXPECT_EQ(r.err, "sim: error: " + c.message + "\nsim: note: run with --help for the usage\n");
  }
  EXPECT_EQ(run({"--set", "w=+.5e1", "--t-end", "0.01"}).status, 0);
  EXPECT_EQ(run({"--set", "w=1e-310", "--t-end", "0.01"}).status, 0);  // subnormal, not 0
  RunResult start = run({"--set", "r=1e300", "--t-end", "0.01"});      // fine as a number
  EXPECT_EQ(start.status, 1) << start.err;
}

TEST(SimulatorRuntime, PlotHelpers) {
  EXPECT_EQ(sim::unit_of("rod force [N/m]"), "N/m");
  EXPECT_EQ(sim::unit_of("no unit"), "");
  EXPECT_EQ(sim::unit_of("[a] then [b]"), "b");
  EXPECT_EQ(sim::svg_escaped("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
  EXPECT_EQ(sim::ticks(0, 1, 5), (std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1}));
  EXPECT_EQ(sim::ticks(-1.2, 1.3, 5), (std::vector<double>{-1, -0.5, 0, 0.5, 1}));
}

TEST(SimulatorRuntime, OutputTimesEndExactlyAtT) {
  sim::Options options;
  options.t_start = 0, options.t_end = 1, options.step = 0.3;
  sim::OutputTimes times(options);
  ASSERT_EQ(times.count(), 5);
  EXPECT_EQ(times[3], 0.8999999999999999);
  EXPECT_EQ(times[4], 1.0);
  options.step = 0.1;  // divides T - T0 up to rounding: no extra row
  EXPECT_EQ(sim::OutputTimes(options).count(), 11);
}

/// A RunOutput keeping the rows it is given.
class KeptRows : public sim::RunOutput {
 public:
  void begin() override { begun = true; }
  void row(const std::vector<double>& values) override { rows.push_back(values); }
  void event(double, const std::string&, bool) override {}
  bool begun = false;
  std::vector<std::vector<double>> rows;
};

// The run that the command line and the Python module share (simulation.hpp) gives its rows to
// any RunOutput: one row per listed output time (the Python module's t_eval), and for the times
// of --step exactly the rows the command line writes.
TEST(SimulatorRuntime, TheRunGivesItsRowsToAnyOutput) {
  const daec::runtime::ModelAdapter<Model> circle;
  sim::Options options;
  options.t_end = 2;
  options.output_times = {0.0, 0.25, 1.0, 2.0};
  options.quiet = true;
  KeptRows kept;
  const sim::RunSummary summary = sim::run_simulation(*circle.fresh(), options, kept);
  EXPECT_TRUE(kept.begun);
  ASSERT_EQ(kept.rows.size(), 4u);
  for (size_t k = 0; k < kept.rows.size(); ++k) {
    const double t = options.output_times[k];
    EXPECT_EQ(kept.rows[k][0], t);
    EXPECT_NEAR(kept.rows[k][1], 1.5 * std::cos(2 * t), 1e-6) << t;
    EXPECT_NEAR(kept.rows[k][2], 1.5 * std::sin(2 * t), 1e-6) << t;
  }
  EXPECT_EQ(summary.method, sim::default_method(circle));
  EXPECT_GT(summary.counts.steps, 0);
  EXPECT_LT(summary.largest.absolute, 1e-10);

  options.output_times = {0.0, 0.5, 1.0, 1.5, 2.0};
  KeptRows listed;
  sim::run_simulation(*circle.fresh(), options, listed);
  const std::string csv = scratch("circle-step.csv");
  const RunResult r = run({"--t-end", "2", "--step", "0.5", "--quiet", "--output", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(read(csv));
  std::string line;
  std::getline(in, line);
  for (const std::vector<double>& row : listed.rows) {
    ASSERT_TRUE(std::getline(in, line));
    EXPECT_EQ(line + "\n", sim::csv_line(row)) << row[0];
  }
  EXPECT_FALSE(std::getline(in, line));
}

}  // namespace
