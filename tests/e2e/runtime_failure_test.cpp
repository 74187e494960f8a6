// Runtime failures of the generated code and of the simulator (docs/limits.md): a singular A, a
// domain error (sqrt of a negative number, log of 0), a projection or consistent initialization
// that cannot converge, a constraint or an algebraic equation that degenerates. The generated
// functions report them through their return codes (tests/data/runtime/check_return_codes.cpp); the
// simulator stops with exit status 1, names the time and the quantity, and never writes a NaN
// into the CSV: the file of --output and stdout hold only the complete rows before the failure.
// The models are in tests/data/runtime; each test builds its simulator once.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "e2e_util.h"

namespace daec::test {
namespace {

namespace fs = std::filesystem;

std::string model_path(const std::string& stem) {
  return source_dir() + "/tests/data/runtime/" + stem + ".dae";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// The number after the first `label` in `text` (NaN if there is none).
double number_after(const std::string& text, const std::string& label) {
  size_t at = text.find(label);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(text.c_str() + at + label.size(), nullptr);
}

Build build_or_fail(const std::string& stem, const std::string& dir) {
  Build build = build_simulator(model_path(stem), dir);
  EXPECT_TRUE(build.ok) << build.log;
  return build;
}

/// A run that must fail: exit status 1, nothing on stdout, no temporary left beside `--output
/// FILE`; FILE holds the complete rows before the failure (none, and no FILE, when the run
/// fails before its first row, e.g. at the start). Returns stderr.
std::string expect_failed_run(const Build& build, const std::string& dir,
                              const std::string& arguments, bool rows_kept = false) {
  std::string csv = dir + "/out.csv";
  fs::remove(csv);
  CommandResult run = run_program(build.executable, arguments + " --output " + shell_quote(csv));
  EXPECT_EQ(run.status, 1) << arguments << "\n" << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(fs::exists(csv), rows_kept) << arguments;
  if (rows_kept) {
    try {
      EXPECT_FALSE(parse_csv(read_file(csv)).rows.empty()) << arguments;
    } catch (const std::exception& error) {
      ADD_FAILURE() << error.what() << "\n" << read_file(csv);
    }
  }
  for (const auto& entry : fs::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename().string().find(".partial"), std::string::npos) << entry.path();
  EXPECT_TRUE(contains(run.err, "sim: error: ")) << run.err;
  return run.err;
}

/// The same run on stdout: status 1, and what was printed is a well-formed CSV of finite numbers
/// (parse_csv rejects nan and inf) whose rows all lie before `t_fail`.
void expect_finite_rows_before(const Build& build, const std::string& arguments, double t_fail) {
  CommandResult run = run_program(build.executable, arguments);
  EXPECT_EQ(run.status, 1) << run.err;
  try {
    Csv csv = parse_csv(run.out);
    ASSERT_FALSE(csv.rows.empty());
    EXPECT_LE(csv.last("t"), t_fail);
  } catch (const std::exception& error) {
    ADD_FAILURE() << error.what() << "\n" << run.out;
  }
}

/// The time of the error and of the model's failure in the note, both near `t_fail`.
void expect_failure_time(const std::string& err, double t_fail, double tolerance) {
  double t_error = number_after(err, "sim: error: integration failed at t = ");
  double t_note = number_after(err, "sim: note: at t = ");
  EXPECT_NEAR(t_error, t_fail, tolerance) << err;
  EXPECT_NEAR(t_note, t_fail, tolerance) << err;
  EXPECT_LE(t_error, t_note) << err;  // the note is about the step that failed
}

// The generated functions' return codes at states where the model fails, and no status 0 with a
// value that is not finite (g++ and clang++, warning-free).
TEST(RuntimeFailure, ReturnCodesOfTheGeneratedCode) {
  std::string dir = make_scratch_dir("RuntimeFailureReturnCodes");
  for (const char* stem : {"closing_valve", "log_drain", "sqrt_drain", "vanishing_circle"}) {
    CommandResult generated =
        run_daec(shell_quote(model_path(stem)) + " -o " + shell_quote(dir + "/" + stem + ".cpp"));
    ASSERT_EQ(generated.status, 0) << generated.err;
  }
  for (const std::string& compiler : generated_code_compilers()) {
    CompileOptions options;
    options.compiler = compiler;
    options.extra_flags = "-I " + shell_quote(dir);
    std::string executable = dir + "/check-" + compiler;
    CommandResult built = compile_cpp({source_dir() + "/tests/data/runtime/check_return_codes.cpp"},
                                      executable, options);
    ASSERT_EQ(built.status, 0) << built.err << built.out;
    CommandResult run = run_program(executable);
    EXPECT_EQ(run.status, 0) << run.out << run.err;
    EXPECT_TRUE(contains(run.out, " checks, 0 failures")) << run.out;
  }
}

// (a) y' = sqrt(x) with x = 1 - t: the derivative of y is named at t = 1. Also an output that
// leaves its domain stops the run at the first row where it does.
TEST(RuntimeFailure, SqrtOfANegativeState) {
  std::string dir = make_scratch_dir("RuntimeFailureSqrt");
  Build build = build_or_fail("sqrt_drain", dir);
  ASSERT_TRUE(build.ok);
  std::string err = expect_failed_run(build, dir, "--t-end 2", true);
  expect_failure_time(err, 1.0, 1e-3);
  EXPECT_TRUE(contains(err, ", rhs: the derivative of the state 'y' is not finite")) << err;
  EXPECT_TRUE(contains(err, "sqrt or log of a negative number")) << err;
  expect_finite_rows_before(build, "--t-end 2", 1.0);

  err = expect_failed_run(build, dir, "--set c=0.455",
                          true);  // q = sqrt(x - 0.455): NaN from t = 0.55
  EXPECT_TRUE(contains(err, "sim: error: cannot write the row at t = 0.55: the output 'q' is nan"))
      << err;
}

// (b) w = log(x) with x = 1 - t: log(0) at t = 1; the algebraic unknown and its equation named.
TEST(RuntimeFailure, LogOfZero) {
  std::string dir = make_scratch_dir("RuntimeFailureLog");
  Build build = build_or_fail("log_drain", dir);
  ASSERT_TRUE(build.ok);
  // Every method says it the same way: the time reached, then the model's failure.
  for (const char* method : kMethods) {
    std::string err =
        expect_failed_run(build, dir, std::string("--t-end 2 --method ") + method, true);
    expect_failure_time(err, 1.0, 1e-3);
    EXPECT_TRUE(contains(err,
                         ", rhs: the algebraic unknown 'w' is not finite (sqrt or log of a "
                         "negative number, log of 0, a division by 0 or an overflow in its "
                         "equation 'logw'?)") ||
                contains(err, ", residual: the algebraic unknown 'w' is not finite"))
        << method << "\n"
        << err;
  }
  expect_finite_rows_before(build, "--t-end 2", 1.0);
}

// (c) (1 + sign(x)) z = 1 with x = 1 - t: A is singular from t = 1 on.
TEST(RuntimeFailure, SingularAlgebraicEquations) {
  std::string dir = make_scratch_dir("RuntimeFailureSingular");
  Build build = build_or_fail("closing_valve", dir);
  ASSERT_TRUE(build.ok);
  std::string err = expect_failed_run(build, dir, "--t-end 2", true);
  expect_failure_time(err, 1.0, 1e-3);
  EXPECT_TRUE(contains(err,
                       ", rhs: the algebraic equations are singular: equation 'valve' "
                       "cannot be solved for 'z' (its coefficient is 0)"))
      << err;
  expect_finite_rows_before(build, "--t-end 2", 1.0);
  // Singular from the start: the first evaluation says so.
  err = expect_failed_run(build, dir, "--set x=-1");
  EXPECT_TRUE(contains(err,
                       "sim: error: the right-hand side cannot be evaluated at the start at "
                       "t = 0: the algebraic equations are singular: equation 'valve'"))
      << err;
}

// (d) The circle x^2 + y^2 = sign(1 - t) vanishes at t = 1: projection cannot converge, the
// invariant is named with its residual. (e) With R = -1 there is no consistent start at all.
TEST(RuntimeFailure, ProjectionAndConsistentInitialization) {
  std::string dir = make_scratch_dir("RuntimeFailureProjection");
  Build build = build_or_fail("vanishing_circle", dir);
  ASSERT_TRUE(build.ok);
  std::string err = expect_failed_run(build, dir, "--t-end 2", true);
  expect_failure_time(err, 1.0, 1e-3);
  EXPECT_TRUE(contains(err, ", projection: no convergence, the largest residual is circle = "))
      << err;
  // x^2 + y^2 + 1 >= 1 (the point itself ends at the origin, where the circle shrank at t = 1).
  EXPECT_GE(number_after(err, "the largest residual is circle = "), 0.99) << err;
  EXPECT_TRUE(contains(err, "(the constraints may have no solution near this state)")) << err;
  expect_finite_rows_before(build, "--t-end 2", 1.0);

  err = expect_failed_run(build, dir, "--set R=-1");
  EXPECT_TRUE(contains(err, "sim: error: consistent initialization failed at t = 0: circle = "))
      << err;
  // (f) With R = 0 the circle is a point, where its Jacobian 2 (x, y) vanishes: refused, naming
  // the constraint and the parameter, rather than integrated from x = 1e-6.
  err = expect_failed_run(build, dir, "--set R=0");
  EXPECT_TRUE(contains(err,
                       "sim: error: consistent initialization failed at t = 0: the constraint "
                       "'circle' has a vanishing Jacobian where the start must be"))
      << err;
  EXPECT_TRUE(contains(err, "sim: note: it depends on the parameters R = 0;")) << err;
}

// (g) b*z + x = y with b = 1e-20: b*z is below the rounding of x and y, so the equation no longer
// determines z (the model is, in double precision, the higher-index one with b = 0).
TEST(RuntimeFailure, AVanishingCoefficientIsNamed) {
  std::string dir = make_scratch_dir("RuntimeFailureFading");
  Build build = build_or_fail("fading_coefficient", dir);
  ASSERT_TRUE(build.ok);
  CommandResult fine = run_program(build.executable, "--t-end 0.5 --set b=1e-6");
  EXPECT_EQ(fine.status, 0) << fine.err;
  std::string err = expect_failed_run(build, dir, "--set b=1e-20");
  EXPECT_TRUE(contains(err,
                       "sim: error: at t = 0: the algebraic equation 'c' no longer determines "
                       "'z': its term is 1e-20 next to 2 of the others, below rounding"))
      << err;
  EXPECT_TRUE(contains(err, "sim: note: the coefficients depend on the parameters b = 1e-20;"))
      << err;
  // At b = 1e-12 z would keep fewer than four digits (rounding of x over b): refused as well.
  err = expect_failed_run(build, dir, "--set b=1e-12");
  EXPECT_TRUE(contains(err, "the algebraic equation 'c' no longer determines 'z'")) << err;
}

}  // namespace
}  // namespace daec::test
