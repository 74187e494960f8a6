// The main of every IDA peer of the accuracy benchmark: integrates the problem of the linked
// problem file (ida_problem.h) with SUNDIALS IDA from --t-start to --t-end, with the dense direct
// linear solver and IDA's difference-quotient Jacobian, as a user of IDA would, and prints one
// JSON object on stdout:
//
//   ./ida_PROBLEM --t-start T0 --t-end T --rtol R --atol A
//   {"form": "...", "t_end": T, "values": {"y1": ..., ...}, "steps": N,
//    "residual_evaluations": N, "jacobian_evaluations": N, "error_test_failures": N,
//    "convergence_failures": N, "seconds": S}
//
// residual_evaluations counts every call of the residual, those of the difference-quotient
// Jacobian included; seconds is the time of the integration itself (IDACalcIC included).
// On failure: {"error": "..."} on stdout, IDA's own message on stderr, exit status 1.
// Bad usage: a message on stderr, exit status 2. --help prints the usage and exits 0 (the
// benchmark runs it to measure the start-up time of the process).
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ida_problem.h"

namespace {

using accuracy::IdaProblem;

struct Options {
  double t_start = 0, t_end = 1, rtol = 1e-6, atol = 1e-6;
};

// The first step of an index-2 form, as a fraction of the interval (see set_up).
constexpr double kIndex2FirstStep = 1e-6;

constexpr const char* kUsage =
    "usage: ida_PROBLEM --t-start T0 --t-end T --rtol R --atol A\n"
    "Integrates the problem with SUNDIALS IDA and prints the end values and statistics as JSON.\n";

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "ida peer: %s\n%s", message.c_str(), kUsage);
  std::exit(2);
}

double parse_number(const char* option, const char* text) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0')
    usage_error(std::string("bad number for ") + option + ": " + text);
  return value;
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string name = argv[i];
    if (name == "--help") {
      std::printf("%s", kUsage);
      std::exit(0);
    }
    if (i + 1 >= argc) usage_error("missing value for " + name);
    const double value = parse_number(argv[i], argv[i + 1]);
    ++i;
    if (name == "--t-start")
      options.t_start = value;
    else if (name == "--t-end")
      options.t_end = value;
    else if (name == "--rtol")
      options.rtol = value;
    else if (name == "--atol")
      options.atol = value;
    else
      usage_error("unknown option " + name);
  }
  if (!(options.t_end > options.t_start)) usage_error("--t-end must be after --t-start");
  return options;
}

/// The residual callback IDA calls; the problem's residual cannot fail.
int residual_callback(realtype t, N_Vector y, N_Vector yp, N_Vector r, void* user_data) {
  const auto* problem = static_cast<const IdaProblem*>(user_data);
  problem->residual(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), N_VGetArrayPointer(r));
  return 0;
}

/// A JSON string literal (the texts here hold no control characters).
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

/// The SUNDIALS objects of one run, released in the right order whatever happens.
struct IdaRun {
  SUNContext context = nullptr;
  N_Vector y = nullptr, yp = nullptr, id = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver solver = nullptr;
  void* ida = nullptr;

  ~IdaRun() {
    IDAFree(&ida);
    SUNLinSolFree(solver);
    SUNMatDestroy(matrix);
    N_VDestroy(id);
    N_VDestroy(yp);
    N_VDestroy(y);
    SUNContext_Free(&context);
  }
};

[[noreturn]] void fail(const std::string& what, int flag) {
  char* name = IDAGetReturnFlagName(flag);
  std::printf("{\"error\": %s}\n", quoted(what + " failed: " + name).c_str());
  std::free(name);
  std::exit(1);
}

void check(int flag, const char* what) {
  if (flag < 0) fail(what, flag);
}

/// Creates IDA for `problem` with the options' tolerances, ready to integrate from t_start.
void set_up(IdaRun& run, IdaProblem& problem, const Options& options) {
  const auto n = static_cast<sunindextype>(problem.names.size());
  check(SUNContext_Create(nullptr, &run.context), "SUNContext_Create");
  run.y = N_VNew_Serial(n, run.context);
  run.yp = N_VNew_Serial(n, run.context);
  run.id = N_VNew_Serial(n, run.context);
  for (sunindextype i = 0; i < n; ++i) {
    NV_Ith_S(run.y, i) = problem.y0[i];
    NV_Ith_S(run.yp, i) = problem.yp0[i];
    NV_Ith_S(run.id, i) = 1.0;
  }
  for (int i : problem.algebraic) NV_Ith_S(run.id, i) = 0.0;
  run.ida = IDACreate(run.context);
  if (run.ida == nullptr) fail("IDACreate", -1);
  check(IDAInit(run.ida, residual_callback, options.t_start, run.y, run.yp), "IDAInit");
  check(IDASStolerances(run.ida, options.rtol, options.atol), "IDASStolerances");
  check(IDASetUserData(run.ida, &problem), "IDASetUserData");
  run.matrix = SUNDenseMatrix(n, n, run.context);
  run.solver = SUNLinSol_Dense(run.y, run.matrix, run.context);
  check(IDASetLinearSolver(run.ida, run.solver, run.matrix), "IDASetLinearSolver");
  check(IDASetId(run.ida, run.id), "IDASetId");
  if (problem.suppress_algebraic) {
    check(IDASetSuppressAlg(run.ida, SUNTRUE), "IDASetSuppressAlg");
    // IDA's own first step shrinks with the tolerance (to 1e-11 at 1e-10), and the iteration
    // matrix of an index-2 system has a condition number growing like 1/h^2: its Newton
    // iteration then fails and the step collapses at t0. A fixed first step avoids that.
    check(IDASetInitStep(run.ida, kIndex2FirstStep * (options.t_end - options.t_start)),
          "IDASetInitStep");
  }
  check(IDASetMaxNumSteps(run.ida, 1000000), "IDASetMaxNumSteps");
  check(IDASetStopTime(run.ida, options.t_end), "IDASetStopTime");
}

/// Integrates to t_end (after IDACalcIC if the problem asks for it); returns the time reached.
double integrate(IdaRun& run, const IdaProblem& problem, const Options& options) {
  if (problem.calc_ic) {
    const double first_output = options.t_start + 1e-3 * (options.t_end - options.t_start);
    check(IDACalcIC(run.ida, IDA_YA_YDP_INIT, first_output), "IDACalcIC");
    check(IDAGetConsistentIC(run.ida, run.y, run.yp), "IDAGetConsistentIC");
  }
  realtype t = options.t_start;
  while (t < options.t_end) {
    const int flag = IDASolve(run.ida, options.t_end, &t, run.y, run.yp, IDA_NORMAL);
    if (flag < 0) {
      char at[64];
      std::snprintf(at, sizeof at, "IDASolve at t = %.6g", t);
      fail(at, flag);
    }
  }
  return t;
}

void print_result(const IdaRun& run, const IdaProblem& problem, double t, double seconds) {
  long steps = 0, residuals = 0, jacobian_residuals = 0, jacobians = 0, error_fails = 0,
       convergence_fails = 0;
  IDAGetNumSteps(run.ida, &steps);
  IDAGetNumResEvals(run.ida, &residuals);
  IDAGetNumLinResEvals(run.ida, &jacobian_residuals);
  IDAGetNumJacEvals(run.ida, &jacobians);
  IDAGetNumErrTestFails(run.ida, &error_fails);
  IDAGetNumNonlinSolvConvFails(run.ida, &convergence_fails);
  std::printf("{\"form\": %s, \"t_end\": %.17g, \"values\": {", quoted(problem.form).c_str(), t);
  for (size_t i = 0; i < problem.names.size(); ++i)
    std::printf("%s%s: %.17g", i ? ", " : "", quoted(problem.names[i]).c_str(),
                NV_Ith_S(run.y, static_cast<sunindextype>(i)));
  std::printf(
      "}, \"steps\": %ld, \"residual_evaluations\": %ld, \"jacobian_evaluations\": %ld, "
      "\"error_test_failures\": %ld, \"convergence_failures\": %ld, \"seconds\": %.6g}\n",
      steps, residuals + jacobian_residuals, jacobians, error_fails, convergence_fails, seconds);
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv);
  IdaProblem problem = accuracy::ida_problem();
  const auto start = std::chrono::steady_clock::now();
  IdaRun run;
  set_up(run, problem, options);
  const double t = integrate(run, problem, options);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  print_result(run, problem, t, elapsed.count());
  return 0;
}
