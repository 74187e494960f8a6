#!/usr/bin/python3
"""The robustness benchmark's runner (bench/robustness/README.md).

Builds one simulator per case (daec MODEL -o model.cpp --header model.h, a main of a few lines,
linked to the compiled runtime build/runtime/libdaec_runtime.a, as docs/simulator.md "The
compiled runtime" shows and bench/ordering/run.sh does), then runs every selected method x
tolerance x output grid from that one binary, each under a time limit, and writes results.tsv:
one row per run with its status, the time reached, the steps and the cause of a failure (the first
line of the simulator's `sim: error:` message, and the first `sim: note:` line after it).

    runner.py --root ROOT [--build BUILD] --out DIR   (run.sh calls it; the selection from the
                                                      environment)

Environment: CASES (patterns, see cases()), METHODS, TOLS, GRIDS, JOBS, TIME_LIMIT,
COMPILE_TIME_LIMIT, GENERATE_TIME_LIMIT, ORACLE_SEEDS, CXX.
"""

import argparse
import concurrent.futures
import fnmatch
import os
import re
import shlex
import signal
import subprocess
import sys
import time

# Bundled models: the interval (and any -D) that each model's own docs, tests or benchmarks use.
# A model none of them simulates gets the simulator's default end time, 1 (docs/simulator.md).
BUNDLED = {
    # name: (daec arguments, t_start, t_end, where the interval comes from)
    "ascher_petzold": ([], 0, 1, "tests/e2e/simulator_test.cpp"),
    "bouncing_ball": ([], 0, 3.6, "docs/language.md"),
    "circular_track": ([], 1, 5, "the model's header, tests/e2e/simulator_test.cpp"),
    "coupled_pendulums": ([], 0, 2, "docs/simulator.md"),
    "double_pendulum": ([], 0, 3, "docs/simulator.md, scripts/radau_identity.sh"),
    "example_12_1": ([], 2, 3, "tests/e2e/simulator_test.cpp"),
    "exponential_ode": ([], 0, 2, "tests/e2e/simulator_test.cpp"),
    "fekete": (["-D", "N=3"], 0, 2, "scripts/radau_identity.sh"),
    "impact_pendulum": ([], 0, 2.6, "tests/e2e/when_test.cpp"),
    "implicit_index1": ([], 0, 1.5, "the model's header, tests/e2e/simulator_test.cpp"),
    "index_chain": ([], 0, 2, "tests/e2e/simulator_test.cpp"),
    "pendulum": ([], 0, 5, "scripts/radau_identity.sh"),
    "pendulum_chain": ([], 0, 1, "bench/ordering/run.sh (SIM_T_END)"),
    "reaction_diffusion": ([], 0, 1, "bench/scale.sh (SIM_T_END)"),
    "rlc_circuit": ([], 0, 0.6, "tests/e2e/simulator_test.cpp"),
    "singular_mass_matrix": ([], 0, 2, "tests/e2e/simulator_test.cpp"),
    "table_circuit": ([], 0, 7, "docs/language.md"),
}
# The event models of the tests: tests/data/*.dae with `if` conditions or `when` clauses
# (grep -lE '\bif\b|\bwhen\b' tests/data/*.dae), with the end times of their tests.
EVENTS = {
    "conditions": (0, 1, "no test simulates it (tests/e2e/generated_code_test.cpp): default"),
    "events_chatter": (0, 2, "tests/e2e/events_test.cpp; a sliding mode, meant to fail"),
    "events_circle": (0, 2, "tests/e2e/events_test.cpp"),
    "events_growth": (0, 2, "tests/e2e/events_test.cpp"),
    "half_wave_rectifier": (0, 3, "tests/e2e/events_test.cpp"),
    "wall_pendulum": (0, 6, "tests/e2e/wall_pendulum_test.cpp"),
    "when_ball_relay": (0, 3.62, "tests/e2e/when_test.cpp"),
}
# Problems of the Test Set for IVP Solvers (Bari) written here: model file, interval, and how many
# times TIME_LIMIT a run gets (the 350-equation circuit takes 90 s at 1e-10 with radau5).
TESTSET = {
    "slider_crank": ("bench/robustness/slider_crank.dae", 0, 0.1, 1),
    "two_bit_adder": ("bench/robustness/two_bit_adder.dae", 0, 320, 5),
}
DEFAULT_ORACLE_SEEDS = "73310001-73310050"
ALL_METHODS = ["radau5", "radau5-dae", "bdf", "ida"]
ALL_TOLS = ["1e-4", "1e-6", "1e-8", "1e-10"]
ALL_GRIDS = ["default", "fine", "end"]

MAIN_CPP = """// The robustness benchmark's simulator main (bench/robustness/runner.py).
#include "model.h"
#include <daec/runtime/model_adapter.hpp>
#include <daec/runtime/run.hpp>
int main(int argc, char** argv) {
  return daec::runtime::run(argc, argv, daec::runtime::ModelAdapter<robustness_model::Model>{});
}
"""


class Case:
    """One model with its interval: name, model file, daec arguments, simulator arguments."""

    def __init__(self, name, model, t_start, t_end, daec_args=(), sim_args=(), source="",
                 limit_factor=1):
        self.name, self.model = name, model
        self.t_start, self.t_end = float(t_start), float(t_end)
        self.daec_args, self.sim_args = list(daec_args), list(sim_args)
        self.source = source
        self.limit_factor = limit_factor  # a run's time limit is this times TIME_LIMIT

    def build_key(self):
        """Cases of one model file and daec arguments share one simulator."""
        return (self.model, tuple(self.daec_args))


def read_reference_interval(path):
    """t_start and t_end of bench/accuracy/references/NAME.txt (bench/accuracy/benchlib.py)."""
    values = {}
    with open(path) as handle:
        for line in handle:
            match = re.match(r"\s*(t_start|t_end)\s*=\s*(\S+)", line)
            if match:
                values[match.group(1)] = float(match.group(2))
    return values["t_start"], values["t_end"]


def oracle_seeds(text):
    """'A-B' or 'A,B,C' -> the seeds."""
    seeds = []
    for item in text.replace(" ", ",").split(","):
        if not item:
            continue
        if "-" in item:
            low, high = item.split("-")
            seeds.extend(range(int(low), int(high) + 1))
        else:
            seeds.append(int(item))
    return seeds


def oracle_case(root, out, seed, limit):
    """Generates oracle model SEED (scripts/oracle/generate.py) and reads its header's simulate
    line, as scripts/oracle/run.py does; None (with a message) when generation fails."""
    directory = os.path.join(out, "oracle")
    os.makedirs(directory, exist_ok=True)
    model = os.path.join(directory, f"oracle_{seed}.dae")
    if not os.path.exists(model):
        command = ["/usr/bin/python3", os.path.join(root, "scripts/oracle/generate.py"),
                   "--seed", str(seed), "-o", model + ".tmp"]
        try:
            subprocess.run(command, check=True, capture_output=True, timeout=limit)
        except (subprocess.SubprocessError, OSError) as error:
            print(f"runner: oracle seed {seed}: generation failed: {error}", file=sys.stderr)
            return None
        os.replace(model + ".tmp", model)
    simulate, interval = None, None
    with open(model) as handle:
        for line in handle:
            if line.startswith("// simulate:"):
                simulate = shlex.split(line[len("// simulate:"):])
            elif line.startswith("// interval:"):
                interval = [float(x) for x in line.split(":", 1)[1].split()]
    # The interval goes to the grid options; the rest of the simulate line (--set) is kept.
    args, i = [], 0
    while i < len(simulate):
        if simulate[i] in ("--t-start", "--t-end"):
            i += 2
            continue
        args.append(simulate[i])
        i += 1
    return Case(f"oracle/{seed}", model, interval[0], interval[1], [], args,
                "scripts/oracle/generate.py header")


def all_cases(root, out, selected, seeds, generate_limit):
    """Every case whose name a pattern of SELECTED matches, in a fixed order."""
    def wanted(name):
        return any(name == p or name.startswith(p.rstrip("/") + "/") or fnmatch.fnmatch(name, p)
                   for p in selected)

    cases = []
    for name, (daec_args, t0, t1, source) in sorted(BUNDLED.items()):
        cases.append(Case(f"models/{name}", os.path.join(root, f"models/{name}.dae"), t0, t1,
                          daec_args, [], source))
    problems = os.path.join(root, "bench/accuracy/problems")
    for entry in sorted(os.listdir(problems)):
        if entry.endswith(".dae"):
            name = entry[:-4]
            t0, t1 = read_reference_interval(
                os.path.join(root, "bench/accuracy/references", name + ".txt"))
            cases.append(Case(f"accuracy/{name}", os.path.join(problems, entry), t0, t1, [], [],
                              "bench/accuracy/references"))
    for name, (t0, t1, source) in sorted(EVENTS.items()):
        cases.append(Case(f"events/{name}", os.path.join(root, f"tests/data/{name}.dae"), t0, t1,
                          [], [], source))
    for name, (path, t0, t1, factor) in sorted(TESTSET.items()):
        cases.append(Case(f"testset/{name}", os.path.join(root, path), t0, t1, [], [],
                          "its header", factor))
    diode = os.path.join(root, "bench/robustness/diode_array.dae")
    cases.append(Case("diode/array200", diode, 0, 0.04, ["-D", "N=200"], [], "its header"))
    cases.append(Case("diode/array200-together", diode, 0, 0.04, ["-D", "N=200"],
                      ["--set", "Vpre=0"], "its header"))
    cases = [case for case in cases if wanted(case.name)]
    for seed in seeds:
        if wanted(f"oracle/{seed}"):
            case = oracle_case(root, out, seed, generate_limit)
            if case is not None:
                cases.append(case)
    return cases


def simulator_flags():
    """The compiler flags and libraries of a simulator, from daec-config (asked once)."""
    config = os.path.join(BUILD_DIR, "daec-config")
    cflags = subprocess.run([config, "--cflags"], capture_output=True, text=True).stdout.split()
    libs = subprocess.run([config, "--libs"], capture_output=True, text=True).stdout.split()
    return cflags, libs


def build(root, out, case, compile_limit, flags):
    """The simulator of CASE in its own directory; (executable, None) or (None, error line).
    FLAGS: (cflags, libs) of simulator_flags()."""
    slug = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.basename(case.model) + "_" +
                  "_".join(case.daec_args))
    directory = os.path.join(out, "build", slug)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "main.cpp"), "w") as handle:
        handle.write(MAIN_CPP)
    daec = os.path.join(BUILD_DIR, "daec")
    cflags, libs = flags
    steps = [
        ("daec", [daec, case.model, *case.daec_args, "--namespace", "robustness_model",
                  "-o", "model.cpp", "--header", "model.h"]),
        ("g++", [os.environ.get("CXX", "g++"), "-std=c++17", "-O2", *cflags,
                 "-I" + os.path.join(root, "include"), "-I.", "model.cpp", "main.cpp",
                 os.path.join(BUILD_DIR, "runtime/libdaec_runtime.a"), "-o", "sim", *libs]),
    ]
    for what, command in steps:
        try:
            result = subprocess.run(command, cwd=directory, capture_output=True, text=True,
                                    timeout=compile_limit)
        except subprocess.TimeoutExpired:
            return None, f"{what}: time limit ({compile_limit:g} s)"
        if result.returncode != 0:
            lines = [line for line in (result.stderr + result.stdout).splitlines() if line.strip()]
            errors = [line for line in lines if "error" in line] or lines or ["(no message)"]
            return None, f"{what} failed: {errors[0]}"
    return os.path.join(directory, "sim"), None


def grid_args(case, grid):
    """The output grid: the simulator's default step ((T - T0)/100), (T - T0)/1000, or one row at
    the end time only (--output-times T)."""
    if grid == "default":
        return ["--t-end", repr(case.t_end)]
    if grid == "fine":
        return ["--t-end", repr(case.t_end), "--step", repr((case.t_end - case.t_start) / 1000)]
    if grid == "end":
        return ["--t-end", repr(case.t_end), "--output-times", repr(case.t_end)]
    raise ValueError(grid)


# The simulators running now: each runs in a session of its own (so that a time limit kills it
# and nothing else), so a signal to the runner must pass them on.
LIVE = set()


def stop(signum, _frame):
    """Kills the running simulators, then ends the runner by the same signal."""
    for pid in list(LIVE):
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


PROGRESS = re.compile(r"sim: t = (\S+) of \S+ \([^)]*\), (\d+) steps")


def run_one(case, executable, method, tol, grid, limit, scratch):
    """One run; the row of results.tsv as a dict."""
    command = [executable, "--t-start", repr(case.t_start), *grid_args(case, grid),
               "--rtol", tol, "--atol", tol, "--method", method, "--quiet", "--progress",
               "--output", "/dev/null", *case.sim_args]
    row = {"case": case.name, "method": method, "tol": tol, "grid": grid, "t_end": repr(case.t_end)}
    limit *= case.limit_factor
    err_path = os.path.join(scratch, f"{os.getpid()}_{abs(hash((case.name, method, tol, grid)))}.err")
    start = time.monotonic()
    timed_out = False
    with open(err_path, "wb") as err:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err,
                                   start_new_session=True)
        LIVE.add(process.pid)
        try:
            code = process.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # its own session: this run only
            process.wait()
            code, timed_out = None, True
        LIVE.discard(process.pid)
    seconds = time.monotonic() - start
    with open(err_path, "rb") as handle:
        handle.seek(max(0, os.path.getsize(err_path) - 65536))
        text = handle.read().decode("utf-8", "replace")
    os.remove(err_path)
    lines = [line for line in re.split(r"[\r\n]", text) if line.strip()]
    progress = [m for m in (PROGRESS.search(line) for line in lines) if m]
    stats = [line for line in lines if line.startswith("method ")]
    errors = [line for line in lines if line.startswith("sim: error:")]
    # The integrator's own words (docs/simulator.md "When a run fails"): the first note after
    # the error, e.g. "Radau5: step size too small at t = ...: h = ...; last failure: ...".
    notes = [line[len("sim: note: "):] for line in lines[lines.index(errors[0]) + 1:]
             if line.startswith("sim: note:")] if errors else []
    steps = "-"
    if stats:
        match = re.search(r"\bsteps (\d+)", stats[-1])
        steps = match.group(1) if match else "-"
    elif progress:
        steps = progress[-1].group(2)
    reached = "-"
    if timed_out:
        status, cause = "time limit", f"time limit ({limit:g} s)"
        if progress:
            reached = progress[-1].group(1)
    elif code == 0:
        status, cause, reached = "ok", "", repr(case.t_end)
    else:
        status = {1: "failed", 2: "usage error"}.get(code, f"crashed ({code})")
        if code is not None and code < 0:
            status = f"crashed (signal {-code})"
        cause = errors[0][len("sim: error: "):] if errors else (lines[-1] if lines else "")
        match = re.search(r"\bat t = ([-+0-9.eE]+)", cause)
        if match:
            reached = match.group(1)
        elif progress:
            reached = progress[-1].group(1)
    row.update(status=status, t_reached=reached, steps=steps, seconds=f"{seconds:.2f}",
               cause=cause.replace("\t", " "), note=(notes[0] if notes else "").replace("\t", " "))
    return row


BUILD_DIR = None  # daec's build directory, from --build
COLUMNS = ["case", "method", "tol", "grid", "status", "t_reached", "t_end", "steps", "seconds",
           "cause", "note"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True)
    parser.add_argument("--build", help="daec's build directory (default ROOT/build)")
    parser.add_argument("--out", required=True)
    options = parser.parse_args()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, stop)
    env = os.environ
    selected = env.get("CASES", "models accuracy events testset diode oracle").split()
    methods = env.get("METHODS", " ".join(ALL_METHODS)).split()
    tols = env.get("TOLS", " ".join(ALL_TOLS)).split()
    grids = env.get("GRIDS", " ".join(ALL_GRIDS)).split()
    jobs = int(env.get("JOBS", "1"))
    limit = float(env.get("TIME_LIMIT", "60"))
    compile_limit = float(env.get("COMPILE_TIME_LIMIT", "600"))
    seeds = oracle_seeds(env.get("ORACLE_SEEDS", DEFAULT_ORACLE_SEEDS))
    for grid in grids:
        if grid not in ALL_GRIDS:
            sys.exit(f"runner: unknown grid '{grid}' (the grids: {' '.join(ALL_GRIDS)})")
    os.makedirs(options.out, exist_ok=True)
    scratch = os.path.join(options.out, "scratch")
    os.makedirs(scratch, exist_ok=True)

    generate_limit = float(env.get("GENERATE_TIME_LIMIT", "300"))
    global BUILD_DIR
    BUILD_DIR = options.build or os.path.join(options.root, "build")
    cases = all_cases(options.root, options.out, selected, seeds, generate_limit)
    if not cases:
        sys.exit(f"runner: no case matches CASES='{' '.join(selected)}'")
    print(f"runner: {len(cases)} cases x {len(methods)} methods x {len(tols)} tolerances x "
          f"{len(grids)} grids = {len(cases) * len(methods) * len(tols) * len(grids)} runs",
          file=sys.stderr)
    results_path = os.path.join(options.out, "results.tsv")
    rows = []
    executables = {}
    flags = simulator_flags()
    with open(results_path + ".partial", "w") as partial:
        partial.write("\t".join(COLUMNS) + "\n")
        for case in cases:
            key = case.build_key()
            if key not in executables:
                started = time.monotonic()
                executables[key] = build(options.root, options.out, case, compile_limit, flags)
                print(f"runner: built {case.name} in {time.monotonic() - started:.1f} s"
                      + (f": {executables[key][1]}" if executables[key][1] else ""),
                      file=sys.stderr)
            executable, error = executables[key]
            runs = [(m, tol, g) for m in methods for tol in tols for g in grids]
            if executable is None:
                case_rows = [dict(case=case.name, method=m, tol=tol, grid=g, status="build error",
                                  t_reached="-", t_end=repr(case.t_end), steps="-", seconds="0",
                                  cause=error, note="")
                             for m, tol, g in runs]
            else:
                with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
                    case_rows = list(pool.map(
                        lambda r: run_one(case, executable, r[0], r[1], r[2], limit, scratch),
                        runs))
            failed = sum(row["status"] != "ok" for row in case_rows)
            print(f"runner: {case.name}: {len(case_rows) - failed} of {len(case_rows)} runs ok",
                  file=sys.stderr)
            for row in case_rows:
                partial.write("\t".join(str(row[c]) for c in COLUMNS) + "\n")
            partial.flush()
            rows.extend(case_rows)
    os.replace(results_path + ".partial", results_path)
    print(f"runner: wrote {results_path}", file=sys.stderr)


if __name__ == "__main__":
    main()
