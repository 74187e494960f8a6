// daec_ensemble (python/daec_ensemble.py, docs/ensembles.md): one model over many parameter sets
// on the tank of docs/example/tank.dae. The worked example docs/example/tank_ensemble.py runs the
// same six sets here one by one, on a process pool and on a Dask LocalCluster of two worker
// processes, checks that every run gives the same members in input order with exactly the same
// numbers, and must print what docs/ensembles.md shows; a second script checks the members'
// fields, the failures (a run that fails, a misspelt name, a set that is no dict, a module the
// workers cannot import, a worker process that dies) and the chunking. One quick module compile
// (the compiled binding), no simulator: about 5 s, and one core's worth of CPU time although it
// starts two worker processes (they wait on each other more than they compute).
#include <gtest/gtest.h>

#include <string>

#include "e2e_util.h"

namespace daec::test {
namespace {

// Run by kPython with the directory holding tank_py and daec_ensemble.py.
const char* const kCheck = R"py(import sys, types
sys.path.insert(0, sys.argv[1])
import numpy as np
import daec_ensemble
import tank_py

t = np.linspace(0.0, 4.0, 41)
sets = [{"q": 0.5}, {"q": 0.0}, {"q": 0.3, "h": 1.5}, {"nope": 1.0}, [("q", 0.2)], {"q": 0.2}]
serial = daec_ensemble.run_ensemble(tank_py, sets, t, processes=0)
assert [m.index for m in serial] == list(range(6)) and len(serial) == 6, serial
assert [m.ok for m in serial] == [True, False, True, False, False, True], serial

# A success: what simulate returns, as plain values; a set applies to that member only.
m = tank_py.Model()
for k in (0, 2, 5):
    direct = m.simulate(t, set=sets[k])
    r = serial[k].result
    assert serial[k].error is None and serial[k].error_type is None, serial[k]
    assert np.array_equal(r.y, direct.y) and np.array_equal(r.t, direct.t) and r.names == direct.names
    assert r.events == direct.events and r.statistics == direct.statistics, r.statistics
    assert r.moved_starts == direct.moved_starts and r.success and r.message == ""
    assert np.array_equal(r["h"], direct["h"]) and len(r) == len(t), r
try:
    r["level"]
except KeyError as failure:
    assert failure.args[0] == "no column named 'level'; the columns are h, outflow", failure
else:
    raise AssertionError("a column that is not there")

# The failures: parameters, the exception's class and message in the module's words.
dry, typo, tuple_set = serial[1], serial[3], serial[4]
assert (dry.parameters, dry.result, dry.error_type) == ({"q": 0.0}, None, "SimulationError"), dry
assert dry.error == "integration failed at t = 2.8284279132527095: the step size vanished", dry.error
assert (typo.parameters, typo.error_type) == ({"nope": 1.0}, "KeyError"), typo
assert typo.error == ("set: no parameter or variable named 'nope'; it takes the parameters A, q, "
                      "h_on and the start values h"), typo.error
assert tuple_set.error == "a parameter set must be a dict {name: value}, got list", tuple_set
assert [f.index for f in serial.failures] == [1, 3, 4] and serial.results[1] is None
assert serial.summary().splitlines()[0] == "3 of 6 simulations succeeded, 3 failed", serial.summary()
assert serial.summary().splitlines()[1] == "  [1] {'q': 0.0}: SimulationError: " + dry.error

def same(first, second):
    assert len(first) == len(second)
    for a, b in zip(first, second):
        assert (a.index, a.parameters, a.error, a.error_type) == (b.index, b.parameters, b.error, b.error_type)
        assert a.ok == b.ok and (not a.ok or np.array_equal(a.result.y, b.result.y)), (a, b)

# Pools of one and two workers, a task per member or a single one: the serial members, exactly.
for processes, chunk_size in [(1, None), (2, 1), (2, 100)]:
    same(serial, daec_ensemble.run_ensemble(tank_py, sets, t, processes=processes,
                                            chunk_size=chunk_size))
# simulate's own arguments pass through; a common set, which each member's overrides.
common = daec_ensemble.run_ensemble(tank_py, [{}, {"q": 0.5}], t, processes=2, set={"q": 0.3},
                                    rtol=1e-6)
assert np.array_equal(common[0].result.y, m.simulate(t, set={"q": 0.3}, rtol=1e-6).y)
assert np.array_equal(common[1].result.y, m.simulate(t, rtol=1e-6).y)
# The module by name; no parameter sets at all.
assert daec_ensemble.run_ensemble("tank_py", [{}], t, processes=0)[0].ok
assert len(daec_ensemble.run_ensemble(tank_py, [], t)) == 0

# A module the workers cannot import: every member fails, saying so.
ghost = types.ModuleType("no_such_model")
ghost.Model, ghost.__file__ = object, "/nonexistent/no_such_model.so"
lost = daec_ensemble.run_ensemble(ghost, [{"q": 1.0}, {"q": 2.0}], t, processes=2)
assert [(f.index, f.parameters, f.error_type) for f in lost.failures] == [
    (0, {"q": 1.0}, "ImportError"), (1, {"q": 2.0}, "ImportError")], lost
assert lost[0].error.startswith("this worker cannot import the model module 'no_such_model' "
                                "(from /nonexistent): "), lost[0].error

# A member whose worker process dies (here os._exit, as a crash would): it fails, saying so; the
# members that shared its pool, broken with it, run again and succeed.
with open(sys.argv[1] + "/crashy.py", "w") as stand_in:
    stand_in.write("""import os
import numpy as np
class Result:
    def __init__(self, t, q):
        self.t, self.y, self.names, self.events = np.asarray(t), np.full((len(t), 1), q), ["x"], []
        self.statistics, self.moved_starts, self.success, self.message = {}, [], True, ""
class Model:
    def simulate(self, t, set={}):
        if set["q"] == 0:
            os._exit(3)
        return Result(t, set["q"])
""")
crashed = daec_ensemble.run_ensemble("crashy", [{"q": 1.0}, {"q": 0}, {"q": 2.0}, {"q": 3.0}], t,
                                     processes=2, chunk_size=2)
assert [m.ok for m in crashed] == [True, False, True, True], crashed
assert [m.result["x"][0] for m in crashed if m.ok] == [1.0, 2.0, 3.0], crashed
assert (crashed[1].parameters, crashed[1].error_type) == ({"q": 0}, "BrokenProcessPool"), crashed[1]
assert crashed[1].error.startswith("the worker process running this member ended abruptly (a crash, "
                                   "or killed): "), crashed[1].error

# Bad arguments of run_ensemble itself.
for arguments, words in [(dict(processes=-1), "processes must be a non-negative integer or None, got -1"),
                         (dict(chunk_size=0), "chunk_size must be a positive integer or None, got 0")]:
    try:
        daec_ensemble.run_ensemble(tank_py, sets, t, **arguments)
    except ValueError as failure:
        assert str(failure) == words, str(failure)
    else:
        raise AssertionError("accepted: %r" % arguments)
try:
    daec_ensemble.run_ensemble(np, sets, t)
except TypeError as failure:
    assert str(failure).startswith("model must be a daec-built Python module or its name"), failure
else:
    raise AssertionError("numpy taken for a model")
print("ok")
)py";

TEST(Ensemble, PoolAndClusterGiveTheSerialMembersInOrder) {
  const std::string dir = make_scratch_dir("ensemble");
  const Build module =
      build_python_module_compiled(source_dir() + "/docs/example/tank.dae", "tank_py", dir);
  ASSERT_TRUE(module.ok) << module.log;
  // Where daec_add_python_module puts it (cmake/DaecFunctions.cmake): beside the module.
  write_file(dir + "/daec_ensemble.py", read_file(source_dir() + "/python/daec_ensemble.py"));
  write_file(dir + "/check.py", kCheck);
  const std::string python = shell_quote(kPython);
  const CommandResult check =
      run_command(python + " " + shell_quote(dir + "/check.py") + " " + shell_quote(dir));
  EXPECT_EQ(0, check.status) << check.out << check.err;
  EXPECT_EQ("ok\n", check.out) << check.err;

  // The worked example of docs/ensembles.md (a LocalCluster of two workers), and its output.
  const CommandResult example =
      run_command(python + " " + shell_quote(source_dir() + "/docs/example/tank_ensemble.py") +
                  " " + shell_quote(dir));
  ASSERT_EQ(0, example.status) << example.out << example.err;
  EXPECT_NE(std::string::npos, read_file(source_dir() + "/docs/ensembles.md").find(example.out))
      << "docs/ensembles.md does not show this output of docs/example/tank_ensemble.py:\n"
      << example.out;
}

}  // namespace
}  // namespace daec::test
