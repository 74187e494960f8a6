// Dependent parameters end to end (tests/data/dependent_parameters.dae: k = 1/tau, and the chain
// b = 3*a, c = a + b): the generated Model's set_parameter cuts the binding of what it sets and
// update_dependent_parameters recomputes the rest, its derivatives in p follow the bindings still
// bound, the simulator's --set follows the bindings
// whatever the order on the command line, and the Python module's m.parameters takes an array or
// a dict. One compiled program per test.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace daec::test {
namespace {

const std::string kModel = "tests/data/dependent_parameters.dae";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Parameters, GeneratedCodeCutsBindingsAndUpdatesChains) {
  std::string dir = make_scratch_dir("parameters_generated_code");
  CommandResult generated =
      run_daec(shell_quote(source_dir() + "/" + kModel) + " -o " + shell_quote(dir + "/model.cpp"));
  ASSERT_EQ(0, generated.status) << generated.err;
  std::string code = read_file(dir + "/model.cpp");
  EXPECT_TRUE(
      contains(code, "parameter_bindings[] = {\"\", \"1/tau\", \"\", \"3*a\", \"a + b\"};"));
  EXPECT_TRUE(contains(code,
                       "parameter_bound[num_parameters > 0 ? num_parameters : 1] = "
                       "{false, true, false, true, true};"));
  EXPECT_TRUE(contains(code, "  if (parameter_bound[1]) p[1] = 1.0/p[0];  // k = 1/tau\n"));
  write_file(dir + "/main.cpp", R"(#include "model.cpp"
#include <cstdio>

// Prints the parameters tau k a b c, then which of them still follow their bindings.
void show(const char* what, const dependent_parameters::Model& m) {
  std::printf("%s:", what);
  for (int i = 0; i < dependent_parameters::Model::num_parameters; ++i) std::printf(" %g", m.p[i]);
  std::printf(" |");
  for (int i = 0; i < dependent_parameters::Model::num_parameters; ++i)
    std::printf(" %d", m.parameter_bound[i] ? 1 : 0);
  std::printf("\n");
}

int main() {
  dependent_parameters::Model m;
  show("defaults", m);
  m.set_parameter("tau", 4.0);
  show("tau=4", m);
  m.set_parameter("a", 1.0);
  show("a=1", m);
  m.set_parameter(3, 10.0);  // b: no longer 3*a; c still follows
  show("b=10", m);
  m.set_parameter("a", 5.0);
  show("a=5", m);
  m.p[0] = 8.0;  // written directly: the bound k follows once updated
  m.update_dependent_parameters();
  show("p[0]=8", m);
  double x = 1.0, xdot = 0.0;
  int status = m.rhs(0.0, &x, &xdot, nullptr);
  std::printf("rhs %d %g\n", status, xdot);
  // d(xdot)/dp of x' = -k x: the column of tau holds dk/dtau while k follows tau.
  double J[5], values[2];
  status = m.rhs_parameter_jacobian(0.0, &x, J);
  std::printf("dxdot/dp %d %g %g %g %g %g\n", status, J[0], J[1], J[2], J[3], J[4]);
  m.rhs_parameter_jacobian_values(0.0, &x, values);
  std::printf("by columns %d: %d %d %d %d %d %d | %d %d | %g %g\n",
              dependent_parameters::Model::rhs_parameter_jacobian_nnz,
              m.rhs_parameter_jacobian_colptr[0], m.rhs_parameter_jacobian_colptr[1],
              m.rhs_parameter_jacobian_colptr[2], m.rhs_parameter_jacobian_colptr[3],
              m.rhs_parameter_jacobian_colptr[4], m.rhs_parameter_jacobian_colptr[5],
              m.rhs_parameter_jacobian_rowval[0], m.rhs_parameter_jacobian_rowval[1], values[0],
              values[1]);
  dependent_parameters::Model cut = m;
  cut.set_parameter("k", 0.125);  // the same value, the binding cut: tau no longer moves k
  cut.rhs_parameter_jacobian(0.0, &x, J);
  std::printf("k set %g %g %g %g %g\n", J[0], J[1], J[2], J[3], J[4]);
  std::printf("refused %d %d %d %d\n", m.set_parameter(-1, 1.0), m.set_parameter(5, 1.0),
              m.set_parameter("tau2", 1.0), m.set_parameter(nullptr, 1.0));
  show("after", m);
  return 0;
}
)");
  CommandResult built = compile_cpp({dir + "/main.cpp"}, dir + "/parameters");
  ASSERT_EQ(0, built.status) << built.err;
  CommandResult run = run_program(dir + "/parameters");
  EXPECT_EQ(0, run.status) << run.err;
  EXPECT_EQ(run.out,
            "defaults: 2 0.5 2 6 8 | 0 1 0 1 1\n"
            "tau=4: 4 0.25 2 6 8 | 0 1 0 1 1\n"
            "a=1: 4 0.25 1 3 4 | 0 1 0 1 1\n"
            "b=10: 4 0.25 1 10 11 | 0 1 0 0 1\n"
            "a=5: 4 0.25 5 10 15 | 0 1 0 0 1\n"
            "p[0]=8: 8 0.125 5 10 15 | 0 1 0 0 1\n"
            "rhs 0 -0.125\n"
            "dxdot/dp 0 0.015625 -1 0 0 0\n"  // d(-k x)/dtau = x/tau^2 at tau = 8
            "by columns 2: 0 1 2 2 2 2 | 0 0 | 0.015625 -1\n"
            "k set 0 -1 0 0 0\n"
            "refused -1 -1 -1 -1\n"
            "after: 8 0.125 5 10 15 | 0 1 0 0 1\n");
}

// x' = -k x with k = 1/tau from x(0) = 1: x(t) = exp(-k t). Every row of `x` and `k_now`
// against it, to the figure of merit max |x - exact| / (rtol |exact| + atol) <= 10.
void expect_decay(const Build& build, const std::string& settings, double k) {
  SCOPED_TRACE(settings);
  const double rtol = 1e-8, atol = 1e-10;
  CommandResult run =
      run_program(build.executable, settings + " --t-end 1 --rtol 1e-8 --atol 1e-10");
  ASSERT_EQ(0, run.status) << run.err;
  Csv csv = parse_csv(run.out);
  ASSERT_EQ(101u, csv.rows.size());
  double merit = 0;
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    double exact = std::exp(-k * csv.at(row, "t"));
    merit = std::max(merit, std::fabs(csv.at(row, "x") - exact) / (rtol * exact + atol));
    EXPECT_DOUBLE_EQ(k, csv.at(row, "k_now"));
  }
  EXPECT_LE(merit, 10.0);
  EXPECT_NEAR(std::exp(-k), csv.last("x"), 10 * (rtol * std::exp(-k) + atol));
}

TEST(Parameters, SimulatorSetFollowsAndOverridesBindings) {
  std::string dir = make_scratch_dir("parameters_simulator");
  Build build = build_simulator(kModel, dir);
  ASSERT_TRUE(build.ok) << build.log;

  expect_decay(build, "", 0.5);
  expect_decay(build, "--set tau=1", 1.0);  // k follows: x(1) = exp(-1), not exp(-0.5)
  for (double tau : {0.5, 1.5, 4.0})
    expect_decay(build, "--set tau=" + std::to_string(tau), 1.0 / tau);
  // k set explicitly keeps its value, whichever --set comes first.
  expect_decay(build, "--set k=3 --set tau=1", 3.0);
  expect_decay(build, "--set tau=1 --set k=3", 3.0);

  // The chain b = 3*a, c = a + b; b set explicitly leaves only c following a.
  for (const char* settings : {"--set a=1", "--set b=10 --set a=1", "--set a=1 --set b=10"}) {
    CommandResult run = run_program(build.executable, settings);
    ASSERT_EQ(0, run.status) << settings << "\n" << run.err;
    Csv csv = parse_csv(run.out);
    bool b_set = contains(settings, "b=10");
    EXPECT_EQ(b_set ? 10.0 : 3.0, csv.last("b_now")) << settings;
    EXPECT_EQ(b_set ? 11.0 : 4.0, csv.last("c_now")) << settings;
  }

  // A value given that makes a bound parameter infinite is bad usage, before the run.
  CommandResult infinite = run_program(build.executable, "--set tau=0");
  EXPECT_EQ(2, infinite.status) << infinite.err;
  EXPECT_EQ(infinite.err,
            "sim: error: the parameter 'k' is inf (k = 1/tau) with the values given; a parameter "
            "must be finite\nsim: note: run with --help for the usage\n");
  EXPECT_EQ(infinite.out, "");

  CommandResult help = run_program(build.executable, "--help");
  EXPECT_EQ(0, help.status);
  for (const char* line : {"  tau = 2\n", "  k = 0.5 (= 1/tau)\n", "  a = 2\n", "  b = 6 (= 3*a)\n",
                           "  c = 8 (= a + b)\n"})
    EXPECT_TRUE(contains(help.out, line)) << line << "\n" << help.out;
}

TEST(Parameters, PythonModuleSetsByArrayAndDict) {
  std::string dir = make_scratch_dir("parameters_python");
  Build module = build_python_module_compiled(source_dir() + "/" + kModel, "decay_py", dir);
  ASSERT_TRUE(module.ok) << module.log;
  std::string python = shell_quote(kPython);
  write_file(dir + "/check.py", R"py(import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import decay_py

m = decay_py.Model()
assert m.parameter_names == ["tau", "k", "a", "b", "c"], m.parameter_names
assert m.parameter_bindings == ["", "1/tau", "", "3*a", "a + b"], m.parameter_bindings
p = m.parameters
assert isinstance(p, np.ndarray) and p.tolist() == [2, 0.5, 2, 6, 8], p
assert m.parameter_bound == [False, True, False, True, True]

p[0] = 4.0  # only tau changed: k follows
m.parameters = p
assert m.parameters.tolist() == [4, 0.25, 2, 6, 8], m.parameters
assert m.rhs(0.0, np.array([1.0])).tolist() == [-0.25]

p = m.parameters
p[0], p[1] = 1.0, 3.0  # k changed too: it keeps 3
m.parameters = p
assert m.parameters.tolist() == [1, 3, 2, 6, 8], m.parameters
assert m.parameter_bound == [False, False, False, True, True]

m.parameters = {"b": 10.0, "a": 1.0}  # b set: c alone follows a
assert m.parameters.tolist() == [1, 3, 1, 10, 11], m.parameters
m.set_parameter("a", 5.0)
assert m.parameters.tolist() == [1, 3, 5, 10, 15], m.parameters

n = decay_py.Model()
n.set_parameter("tau", 0.5)
assert n.parameters.tolist() == [0.5, 2, 2, 6, 8], n.parameters
n.parameters = [0.5, 2, 2, 6, 8]  # a list, nothing changed: nothing set
assert n.parameter_bound == [False, True, False, True, True]

for bad, error, words in [({"tau": 1.0, "kappa": 2.0}, KeyError, "kappa"),
                          (np.zeros(4), ValueError, "length 5"),
                          (np.zeros((5, 1)), ValueError, "one-dimensional"),
                          ("fast", TypeError, "dict")]:
    try:
        n.parameters = bad
    except error as failure:
        assert words in str(failure), failure
    else:
        raise AssertionError(f"no {error.__name__} for {bad!r}")
assert n.parameters.tolist() == [0.5, 2, 2, 6, 8], "a refused assignment changed nothing"
try:
    n.set_parameter("kappa", 1.0)
except KeyError as failure:
    assert "tau, k, a, b, c" in str(failure), failure
else:
    raise AssertionError("no KeyError")
# A value that is not finite, given or made for a bound parameter, is refused; nothing changes.
for name, value, words in [("tau", float("nan"), "parameter 'tau' = nan: a parameter value must be"),
                           ("a", float("inf"), "parameter 'a' = inf: a parameter value must be"),
                           ("tau", 0.0, "makes the parameter 'k' inf (k = 1/tau)")]:
    for assign in (lambda: n.set_parameter(name, value), lambda: setattr(n, "parameters", {name: value})):
        try:
            assign()
        except ValueError as failure:
            assert words in str(failure), failure
        else:
            raise AssertionError(f"{name} = {value} was accepted")
assert n.parameters.tolist() == [0.5, 2, 2, 6, 8], n.parameters
# simulate with the model's parameters, and set={...} for one call: k follows tau.
r = n.simulate(np.linspace(0.0, 1.0, 11))
assert np.allclose(r["x"], np.exp(-2 * r.t), rtol=1e-7) and np.all(r["k_now"] == 2), r.y
r = n.simulate(np.linspace(0.0, 1.0, 11), set={"tau": 4.0})
assert np.allclose(r["x"], np.exp(-0.25 * r.t), rtol=1e-7) and np.all(r["k_now"] == 0.25), r.y
assert r.names == ["x", "k_now", "b_now", "c_now"] and n.parameters[1] == 2, r.names
# d(x')/dp of x' = -k x through k = 1/tau (bound): d/dtau = x/tau^2, d/dk = -x; dense and sparse.
J = n.rhs_parameter_jacobian(0.0, [3.0])
assert J.shape == (1, 5) and J.tolist() == [[12.0, -3.0, 0.0, 0.0, 0.0]], J
S = n.rhs_parameter_jacobian(0.0, [3.0], sparse=True)
assert S.shape == (1, 5) and S.toarray().tolist() == J.tolist(), S
n.set_parameter("k", 2.0)  # the binding cut: tau no longer moves x'
assert n.rhs_parameter_jacobian(0.0, [3.0]).tolist() == [[0.0, -3.0, 0.0, 0.0, 0.0]]
assert n.invariants_parameter_jacobian(0.0, [3.0]).shape == (0, 5)
# simulate's sensitivities: x = exp(-k t) with k = 1/tau bound: dx/dk = -t x, dx/dtau = t x/tau^2.
d = decay_py.Model()
r = d.simulate(np.linspace(0.0, 1.0, 11), sensitivities=["tau", "k"], rtol=1e-10, atol=1e-12)
assert r.names == ["x", "k_now", "b_now", "c_now", "d(x)/d(tau)", "d(k_now)/d(tau)",
                   "d(b_now)/d(tau)", "d(c_now)/d(tau)", "d(x)/d(k)", "d(k_now)/d(k)",
                   "d(b_now)/d(k)", "d(c_now)/d(k)"], r.names
x = np.exp(-0.5 * r.t)
assert np.allclose(r["d(x)/d(tau)"], r.t * x / 4, rtol=1e-8, atol=1e-12), r["d(x)/d(tau)"]
assert np.allclose(r["d(x)/d(k)"], -r.t * x, rtol=1e-8, atol=1e-12), r["d(x)/d(k)"]
# The outputs' columns: k_now = k = 1/tau follows tau (-1/tau^2) while bound; b and c do not.
assert np.allclose(r["d(k_now)/d(tau)"], -0.25, rtol=1e-8), r["d(k_now)/d(tau)"]
assert np.allclose(r["d(k_now)/d(k)"], 1.0, rtol=1e-8), r["d(k_now)/d(k)"]
assert np.allclose(r["d(c_now)/d(tau)"], 0.0, atol=1e-12), r["d(c_now)/d(tau)"]
for bad, error, words in [(["kappa"], ValueError, "sensitivities: no parameter 'kappa'; the"),
                          ("tau", TypeError, "a list of parameter names or 'all'")]:
    try:
        d.simulate([0.0, 1.0], sensitivities=bad)
    except error as failure:
        assert words in str(failure), failure
    else:
        raise AssertionError(f"no {error.__name__} for {bad!r}")
print("ok")
)py");
  CommandResult run =
      run_command(python + " " + shell_quote(dir + "/check.py") + " " + shell_quote(dir));
  EXPECT_EQ(0, run.status) << run.out << run.err;
  EXPECT_EQ("ok\n", run.out) << run.err;
}

// The worked example of docs/sensitivities.md: m2, L2 and g of the double pendulum (index 3)
// fitted to noisy positions by least squares with the sensitivities as the Jacobian and by finite
// differences; the script asserts that both recover the truth within four standard errors and
// that the sensitivities need fewer simulations. The page shows the parameter lines it prints.
TEST(Parameters, FitOfTheDoublePendulumBySensitivities) {
  std::string dir = make_scratch_dir("parameters_fit");
  Build module = build_python_module_compiled(source_dir() + "/models/double_pendulum.dae",
                                              "double_pendulum_py", dir);
  ASSERT_TRUE(module.ok) << module.log;
  CommandResult fit = run_command(
      shell_quote(kPython) + " " +
      shell_quote(source_dir() + "/docs/example/fit_double_pendulum.py") + " " + shell_quote(dir));
  ASSERT_EQ(0, fit.status) << fit.out << fit.err;
  const std::string page = read_file(source_dir() + "/docs/sensitivities.md");
  std::istringstream lines(fit.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  ", 0) == 0 || line.rfind("the same", 0) == 0) {
      EXPECT_NE(page.find(line), std::string::npos) << "docs/sensitivities.md lacks: " << line;
    }
  }
}

}  // namespace
}  // namespace daec::test
