// The Python module's Model.simulate (docs/python.md) on the tank of docs/example/tank.dae (one
// switch, an algebraic unknown, a run that fails when the tank runs dry): the same rows, events,
// statistics and failure messages as the command-line simulator of the same model for every
// method, the errors of bad arguments in exact words, the vectorized members, the docstrings,
// and docs/example/tank_python.py (the document's worked example, checked against the exact
// solution), whose output must be the one docs/python.md shows. One module compile, one
// simulator (on the compiled runtime).
#include <gtest/gtest.h>

#include <string>

#include "e2e_util.h"

namespace daec::test {
namespace {

const std::string kModel = "docs/example/tank.dae";

// Run by kPython with the module's directory, the simulator and a scratch directory.
const char* const kCheck = R"py(import subprocess, sys, types
sys.path.insert(0, sys.argv[1])
import numpy as np
import tank_py

simulator, scratch = sys.argv[2], sys.argv[3]
m = tank_py.Model()
t = np.arange(41) / 10  # the command line's output times: the decimals k*DT, the last T


def cli(*arguments):
    """The command-line simulator on t; its CSV rows, events, stderr lines and status."""
    run = subprocess.run([simulator, "--t-end", "4", "--step", "0.1", "--quiet", "--output",
                          scratch + "/tank.csv", "--events", scratch + "/events.csv", *arguments],
                         capture_output=True, text=True)
    lines = open(scratch + "/tank.csv").read().splitlines()
    events = [line.split(",") for line in open(scratch + "/events.csv").read().splitlines()[1:]]
    return lines, events, run.stderr.splitlines(), run.returncode


def same_rows(lines, result):
    assert lines[0] == ",".join(["t"] + result.names), (lines[0], result.names)
    rows = np.array([[float(v) for v in line.split(",")] for line in lines[1:]]).reshape(-1, 3)
    assert rows.shape == (len(result.t), 1 + len(result.names)), (rows.shape, result)
    assert np.array_equal(rows[:, 0], result.t), (rows[:, 0], result.t)
    assert np.allclose(rows[:, 1:], result.y, rtol=1e-12, atol=1e-14), abs(rows[:, 1:] - result.y).max()


# Every method: the rows, the events and the statistics of the command line.
for method in tank_py.Model.methods:
    lines, events, err, status = cli("--method", method)
    assert status == 0, err
    r = m.simulate(t, method=method)
    same_rows(lines, r)
    assert [(float(time), name, value == "true") for time, name, value in events] == r.events, (events, r.events)
    s = r.statistics
    counts = ("method %s, linear solver %s, steps %d, rhs evaluations %d, jacobian evaluations %d, "
              "projections %d, events %d, factor nonzeros %d, " % (
                  method, s["linear_solver"], s["steps"], s["rhs_evaluations"],
                  s["jacobian_evaluations"], s["projections"], s["events"], s["factor_nonzeros"]))
    assert err[-1].startswith(counts), (err[-1], counts)
    assert r.success and r.message == "" and r.events[0][1] == "balance: h < h_on", r
assert m.default_method == "radau5" and m.simulate(t).statistics["method"] == "radau5"

# set and fix for this call only, as --set and --fix; the moved starts are reported.
lines, _, err, status = cli("--set", "q=0.3", "--fix", "h=1.5")
r = m.simulate(t, set={"q": 0.3}, fix={"h": 1.5})
same_rows(lines, r)
assert r["h"][0] == 1.5 and m.parameters.tolist() == [1.0, 0.5, 0.5], m.parameters
m.parameters = {"q": 0.3}  # the model's own parameters hold
assert np.array_equal(m.simulate(t, fix={"h": 1.5}).y, r.y)
m.parameters = {"q": 0.5}
assert m.simulate(t, rtol=1e-6, atol=1e-9).statistics["steps"] < m.simulate(t).statistics["steps"]

# columns=, as --columns: names and patterns, a list or one string.
lines, _, err, status = cli("--columns", "out*")
assert status == 0 and lines[0] == "t,outflow", lines[0]
r = m.simulate(t, columns=["out*"])
assert r.names == ["outflow"] and r.y.shape == (41, 1), r
assert np.allclose([float(line.split(",")[1]) for line in lines[1:]], r.y[:, 0], rtol=1e-12)
assert np.array_equal(r.y[:, 0], m.simulate(t)["outflow"])
assert m.simulate(t, columns="h,outflow").names == ["h", "outflow"]

# A failing run: the command line's message and notes, and the rows before it.
lines, _, err, status = cli("--set", "q=0")
assert status == 1, err
m.parameters = {"q": 0.0}
try:
    m.simulate(t)
except tank_py.SimulationError as failure:
    assert isinstance(failure, RuntimeError)
    assert err[0] == "sim: error: " + str(failure), (err, str(failure))
    assert ["sim: note: " + note for note in failure.notes] == err[1:], (err, failure.notes)
    assert str(failure).startswith("integration failed at t = 2.828"), failure
    partial = failure.result
    assert not partial.success and partial.message == str(failure) and partial.statistics == {}
    same_rows(lines, partial)
    assert len(partial) == 29 and partial.t[-1] < 2.83, partial
else:
    raise AssertionError("the dry tank did not fail")
m.parameters = {"q": 0.5}
try:  # a failure at the start: no row
    m.simulate(t, set={"h": -1.0})
except tank_py.SimulationError as failure:
    assert len(failure.result.t) == 0 and failure.result.y.shape == (0, 2), failure.result
else:
    raise AssertionError("a negative level was accepted")

# Bad arguments, in exact words.
for arguments, error, words in [
        (dict(method="euler"), ValueError,
         "unknown method 'euler'; the methods are radau5, radau5-dae, bdf, ida (Model.methods describes them)"),
        (dict(fix={"level": 1.0}), KeyError,
         "\"fix: no variable named 'level'; it takes the start values h and the algebraic variables outflow\""),
        (dict(set={"Q": 1.0}), KeyError,
         "\"set: no parameter or variable named 'Q'; it takes the parameters A, q, h_on and the start values h\""),
        (dict(fix={"q": 1.0}), ValueError, "fix: 'q' is a parameter, constant anyway; give it in set"),
        (dict(set={"outflow": 1.0}), ValueError,
         "set: 'outflow' is algebraic, computed from the states; fix={'outflow': value} makes the start keep it"),
        (dict(set={"h": float("nan")}), ValueError, "set['h'] = nan: it must be finite"),
        (dict(rtol=1.0), ValueError, "rtol = 1: it must be at least 1e-15 and below 1"),
        (dict(atol=0.0), ValueError, "atol = 0: it must be positive"),
        (dict(linear_solver="lu"), ValueError, "linear_solver must be 'auto', 'dense' or 'klu', got 'lu'"),
        (dict(on_singular="ignore"), ValueError, "on_singular must be 'stop' or 'warn', got 'ignore'"),
        (dict(sensitivities=["Q"]), ValueError,
         "sensitivities: no parameter 'Q'; the parameters are A, q, h_on"),
        (dict(columns=["level"]), ValueError,
         "columns: no column matches 'level'; the columns are h, outflow"),
        (dict(columns=3), TypeError,
         "simulate(columns=...) takes a list of names and patterns, or a string")]:
    try:
        m.simulate(t, **arguments)
    except error as failure:
        assert str(failure) == words, (str(failure), words)
    else:
        raise AssertionError("accepted: %r" % arguments)
for times, words in [([0.0], "t_eval must be a one-dimensional array of at least two times (the first is the start), got shape (1,)"),
                     ([0.0, 1.0, 1.0], "t_eval must increase: t_eval[2] = 1 follows 1"),
                     ([0.0, float("inf")], "t_eval[1] = inf: the times must be finite")]:
    try:
        m.simulate(times)
    except ValueError as failure:
        assert str(failure) == words, str(failure)
    else:
        raise AssertionError("accepted: %r" % times)

# as_frame: a pandas.DataFrame (index t), or ImportError saying how to install pandas.
try:
    import pandas
except ImportError:
    try:
        m.simulate(t, as_frame=True)
    except ImportError as failure:
        assert "install it (Debian: apt-get install python3-pandas)" in str(failure), failure
    else:
        raise AssertionError("no ImportError without pandas")
    # A stand-in pandas, to see what the frame is made of.
    pandas = types.ModuleType("pandas")
    pandas.Index = lambda values, name: (name, np.array(values))
    class DataFrame:
        def __init__(self, values, columns, index):
            self.values, self.columns, self.index, self.attrs = values, columns, index, {}
    pandas.DataFrame = DataFrame
    sys.modules["pandas"] = pandas
frame = m.simulate(t, as_frame=True)
r = m.simulate(t)
assert list(frame.columns) == r.names and np.array_equal(np.asarray(frame.values), r.y)
assert frame.attrs["events"] == r.events and frame.attrs["statistics"] == r.statistics

# The vectorized members: k states side by side as the columns of an (n, k) array.
X = np.array([[2.0, 0.25, 1.0]])
assert m.rhs(0.0, X).shape == (1, 3) and np.allclose(m.rhs(0.0, X), [[-np.sqrt(2.0), 0.0, -1.0]])
assert np.allclose(m.algebraic(0.0, X), np.sqrt(X)) and m.conditions(0.0, X).shape == (1, 3)
assert m.invariants(0.0, X).shape == (0, 3) and m.outputs(0.0, X).shape == (0, 3)
for x, error, words in [(np.zeros((2, 3)), ValueError,
                         "x must be an array of length 1, or of shape (1, k) for k states side by side (solve_ivp's vectorized=True), got shape (2, 3)"),
                        (np.array([[1.0, np.nan]]), RuntimeError,
                         "rhs failed at t = 0: the state 'h' in column 1 is not finite")]:
    try:
        m.rhs(0.0, x)
    except error as failure:
        assert str(failure) == words, str(failure)
    else:
        raise AssertionError("accepted: %r" % x)

# Every member and the module say what they are (help(tank_py)).
assert "tank_py.Model()" in tank_py.__doc__ and "/usr/bin/python3" in tank_py.__doc__
for name, member in vars(tank_py.Model).items():
    if name.startswith("_"):
        continue
    if isinstance(member, int) or type(member).__name__ == "pybind11_static_property":
        assert name in tank_py.Model.__doc__, name  # pybind11's static properties have no doc
    else:
        assert member.__doc__ and len(member.__doc__) > 10, name
for kind in (tank_py.SimulationResult, tank_py.SimulationError):
    assert len(kind.__doc__) > 100, kind

# Sensitivities across the pump's switch (its instant moves with every parameter) against central
# differences of whole simulations at a far tighter tolerance.
s = tank_py.Model()
times = np.linspace(0.0, 4.0, 9)
r = s.simulate(times, sensitivities="all", rtol=1e-10, atol=1e-10)
for i, name in enumerate(s.parameter_names):
    step = 1e-5 * s.parameters[i]
    up, down = [s.simulate(times, set={name: s.parameters[i] + sign * step}, rtol=1e-12,
                           atol=1e-12)["h"] for sign in (1, -1)]
    assert np.allclose(r[f"d(h)/d({name})"], (up - down) / (2 * step), rtol=1e-5, atol=1e-7), name
print("ok")
)py";

// The hybrid constructs through the module (docs/python.md, "When clauses and tables"): the
// resets of models/bouncing_ball.dae against the closed-form bounce times, and the breakpoint
// order of models/table_circuit.dae's interp table in the simulator's words. Run by kPython with
// the modules' directory.
const char* const kHybridCheck = R"py(import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import ball_py, table_py

# simulate applies the reinit of `when h < 0`: the bounces at t1 = sqrt(2 h0 / g), then flights
# of 2 e^k t1 (models/bouncing_ball.dae), each an event `true` and then `false` at its time.
m = ball_py.Model()
assert m.when_names == ["when h < 0"] and m.condition_names == ["when h < 0"], m.when_names
# The units of the model file, beside the names (derivatives per second).
assert m.state_names == ["h", "v"] and m.state_units == ["m", "m/s"], m.state_units
assert m.variable_units == ["m", "m/s"] and m.output_units == ["J/kg"], m.output_units
assert m.parameter_names == ["e", "g"] and m.parameter_units == ["1", "m/s2"], m.parameter_units
assert m.algebraic_units == ["m/s2"] * len(m.algebraic_names), m.algebraic_units
t = np.linspace(0.0, 2.5, 251)
r = m.simulate(t, rtol=1e-10, atol=1e-10)
assert [(name, value) for _, name, value in r.events] == [("when h < 0", True), ("when h < 0", False)] * 4, r.events
assert all(r.events[k][0] == r.events[k + 1][0] for k in range(0, 8, 2)), r.events
bounces = np.array([time for time, name, value in r.events if value])
e, g = 0.8, 9.81
t1 = np.sqrt(2 * 1.0 / g)
exact = t1 * (1 + 2 * np.cumsum([0.0, e, e**2, e**3]))
assert np.abs(bounces - exact).max() < 1e-8, bounces - exact
assert r["h"].min() >= -1e-9, r["h"].min()
v_end = e**4 * g * t1 - g * (2.5 - exact[-1])  # rising after the fourth bounce
assert abs(r["v"][-1] - v_end) < 1e-8, (r["v"][-1], v_end)
assert r.statistics["events"] == 4, r.statistics  # the stops: one per bounce
# The sensitivities through the four resets (the bounces' instants move with e and g) against
# central differences of whole simulations at a far tighter tolerance, between the bounces.
times = np.linspace(0.0, 2.5, 26)
s = m.simulate(times, sensitivities="all", rtol=1e-10, atol=1e-10)
for i, name in enumerate(m.parameter_names):
    step = 1e-5 * m.parameters[i]
    up, down = [m.simulate(times, set={name: m.parameters[i] + sign * step}, rtol=1e-12,
                           atol=1e-12) for sign in (1, -1)]
    for state in ("h", "v"):
        difference = (up[state] - down[state]) / (2 * step)
        assert np.allclose(s[f"d({state})/d({name})"], difference, rtol=1e-5, atol=1e-6), (
            name, state, np.abs(s[f"d({state})/d({name})"] - difference).max())

# A breakpoint moved past its neighbour: ValueError in the simulator's words (its --set says
# them after "--set ts[3]: "), and the parameters as they were.
m = table_py.Model()
before = m.parameters.copy()
words = ("parameter 'ts[3]' = 4 would break the order of an interp table: ts[3] = 4 is not "
         "below ts[4] = 4 (breakpoints must increase strictly)")
swapped = before.copy()
swapped[3], swapped[4] = 1.5, 4.0  # ts[2] = 1.5 is set first, then ts[3] is refused
for change, message in [(lambda: m.set_parameter("ts[3]", 4.0), words),
                        (lambda: setattr(m, "parameters", {"ts[2]": 1.5, "ts[3]": 4.0}), words),
                        (lambda: setattr(m, "parameters", swapped), words),
                        (lambda: m.simulate([0.0, 1.0], set={"ts[3]": 4.0}), "set['ts[3]']: " + words)]:
    try:
        change()
    except ValueError as failure:
        assert str(failure) == message, str(failure)
    else:
        raise AssertionError("the order was broken")
    assert np.array_equal(m.parameters, before), m.parameters
m.parameters = {"ts[5]": 6.0, "ts[4]": 5.0, "ts[3]": 4.0}  # upper ones first: increasing throughout
assert m.parameters[2:7].tolist() == [0.0, 1.0, 4.0, 5.0, 6.0], m.parameters
print("ok")
)py";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(PythonModule, SimulateIsTheSimulatorAndTheExampleRuns) {
  const std::string dir = make_scratch_dir("python_simulate");
  const Build module = build_python_module(source_dir() + "/" + kModel, "tank_py", dir);
  ASSERT_TRUE(module.ok) << module.log;
  const Build simulator = build_simulator(kModel, dir);
  ASSERT_TRUE(simulator.ok) << simulator.log;
  write_file(dir + "/check.py", kCheck);
  const std::string python = shell_quote(kPython);
  const CommandResult check =
      run_command(python + " " + shell_quote(dir + "/check.py") + " " + shell_quote(dir) + " " +
                  shell_quote(simulator.executable) + " " + shell_quote(dir));
  EXPECT_EQ(0, check.status) << check.out << check.err;
  EXPECT_EQ("ok\n", check.out) << check.err;

  // The worked example of docs/python.md, and the output the document shows.
  const CommandResult example =
      run_command(python + " " + shell_quote(source_dir() + "/docs/example/tank_python.py") + " " +
                  shell_quote(dir));
  ASSERT_EQ(0, example.status) << example.out << example.err;
  EXPECT_TRUE(contains(read_file(source_dir() + "/docs/python.md"), example.out))
      << "docs/python.md does not show this output of docs/example/tank_python.py:\n"
      << example.out;
}

// Two quick modules (the compiled binding, as daec_add_python_module builds them).
TEST(PythonModule, WhenResetsAndInterpTables) {
  const std::string dir = make_scratch_dir("python_hybrid");
  for (const char* name : {"ball_py", "table_py"}) {
    const std::string model = std::string(name) == "ball_py" ? "bouncing_ball" : "table_circuit";
    const Build module =
        build_python_module_compiled(source_dir() + "/models/" + model + ".dae", name, dir);
    ASSERT_TRUE(module.ok) << module.log;
  }
  write_file(dir + "/check.py", kHybridCheck);
  const CommandResult check = run_command(shell_quote(kPython) + " " +
                                          shell_quote(dir + "/check.py") + " " + shell_quote(dir));
  EXPECT_EQ(0, check.status) << check.out << check.err;
  EXPECT_EQ("ok\n", check.out) << check.err;
}

}  // namespace
}  // namespace daec::test
