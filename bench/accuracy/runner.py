#!/usr/bin/python3
"""Runs the accuracy benchmark (called by run.sh, which builds the programs first).

    runner.py PROGRAMS_DIR DAEC [PROBLEM ...]

For every problem (default: all of problems/) and rtol = atol in TOLERANCES it runs, in this
one session:
  - daec's simulator PROGRAMS_DIR/sim_<problem> with its default method and with every method
    `--method list` names (only the default if the simulator has no --method);
  - the IDA peer PROGRAMS_DIR/ida_<problem> (hand-written residual), if there is one;
  - the Radau peer (radau_peer.py) on the Python module PROGRAMS_DIR/python/<problem>.
Each run's figure of merit against references/<problem>.txt, its steps, rhs (residual)
evaluations, Jacobian evaluations and wall time go to results/results.json and
results/results.csv.

Time is CPU time (user + system), which on an otherwise idle machine is the wall time of these
single-threaded runs, and unlike the wall time does not grow when other jobs share the cores.
The C++ programs are timed as processes, less the start-up of the same executable (its --help,
run alternately with the run);
the Radau peer inside Python, around consistent initialization, solve_ivp and the recovery of
the algebraic variables. A run is repeated while its total CPU time is under TIME_BUDGET
(environment, default 0.3 s; at most 30 runs) and the mean counts; the figure of merit, steps
and evaluations are those of the first run, whose wall time is kept as well (wall_seconds).
"""
import json
import os
import platform
import re
import resource
import subprocess
import sys
import time

import benchlib
import radau_peer

TIME_BUDGET = float(os.environ.get("TIME_BUDGET", "0.3"))  # CPU seconds spent timing one run
MAX_RUNS = 30  # repetitions of one run at most
TIME_LIMIT = 600  # seconds for one process run, after which it counts as failed


def child_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(command):
    """(completed process, wall seconds, CPU seconds) of one run of `command`."""
    cpu_before, start = child_cpu(), time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIME_LIMIT)
    except subprocess.TimeoutExpired:
        done = subprocess.CompletedProcess(command, -1, "", f"timed out after {TIME_LIMIT} s")
    return done, time.perf_counter() - start, child_cpu() - cpu_before


def timed_process(command):
    """Runs `command` (command[0] an executable with --help); returns the first run's completed
    process and wall seconds, and the mean CPU seconds of a run less the mean of `--help` (the
    start-up: loading the program and its libraries). The two alternate, so that a change of
    the machine's load affects both alike, while the runs' CPU time is under TIME_BUDGET (at
    most MAX_RUNS pairs)."""
    first, wall = None, None
    runs, total, startup = 0, 0.0, 0.0
    while True:
        done, elapsed, cpu = run_once(command)
        if first is None:
            first, wall = done, elapsed
        if done.returncode != 0:
            return first, wall, 0.0
        startup += run_once([command[0], "--help"])[2]
        total += cpu
        runs += 1
        if total >= TIME_BUDGET or runs >= MAX_RUNS:
            return first, wall, max((total - startup) / runs, 0.0)


def simulator_methods(executable):
    """The methods `--method list` names (first word of each line), the default first; [None]
    (the default, unnamed) if the simulator has no --method."""
    done = subprocess.run([executable, "--method", "list"], capture_output=True, text=True)
    if done.returncode != 0:
        return [None], None
    methods, default = [], None
    for line in done.stdout.splitlines():
        if line.strip():
            name = line.split()[0]
            methods.append(name)
            if "default" in line:
                default = name
    if default in methods:
        methods.remove(default)
        methods.insert(0, default)
    return methods, default


def tolerance_arguments(reference, tol):
    return ["--t-start", repr(reference.t_start), "--t-end", repr(reference.t_end),
            "--rtol", repr(tol), "--atol", repr(tol)]


def failed(error):
    return {"error": error.strip().splitlines()[-1] if error.strip() else "failed"}


def run_simulator(executable, method, reference, tol):
    command = [executable] + tolerance_arguments(reference, tol)
    command += ["--step", repr(reference.t_end - reference.t_start)]
    if method:
        command += ["--method", method]
    done, wall, cpu = timed_process(command)
    if done.returncode != 0:
        return failed(done.stderr)
    stats = benchlib.parse_statistics(done.stderr) or {}
    return {"values": benchlib.last_csv_row(done.stdout), "steps": stats.get("steps"),
            "rhs_evaluations": stats.get("rhs evaluations"),
            "jacobian_evaluations": stats.get("jacobian evaluations"),
            "linear_solver": stats.get("linear solver"), "method": stats.get("method", method),
            "seconds": cpu, "wall_seconds": wall}


def run_ida(executable, reference, tol):
    done, wall, cpu = timed_process([executable] + tolerance_arguments(reference, tol))
    try:
        result = json.loads(done.stdout)
    except json.JSONDecodeError:
        return failed(done.stderr or done.stdout)
    if "error" in result:
        return result
    result["rhs_evaluations"] = result.pop("residual_evaluations")
    result["seconds_in_process"] = result["seconds"]
    result["seconds"] = cpu
    result["wall_seconds"] = wall
    return result


def run_radau(model, reference, tol):
    """radau_peer.run, repeated like timed_process; its CPU seconds are the mean."""
    runs, total_cpu, first = 0, 0.0, None
    while True:
        result = radau_peer.run(model, reference.t_start, reference.t_end, tol, tol)
        first = first or result
        if "error" in result:
            return first
        total_cpu += result["cpu_seconds"]
        runs += 1
        if total_cpu >= TIME_BUDGET or runs >= MAX_RUNS:
            first["wall_seconds"] = first["seconds"]
            first["seconds"] = total_cpu / runs
            return first


def model_index(daec, problem):
    """The index daec finds (`--check`), or None."""
    done = subprocess.run([daec, os.path.join(benchlib.PROBLEMS_DIR, problem + ".dae"), "--check"],
                          capture_output=True, text=True)
    found = re.search(r"^reduction: index (\d+)", done.stdout, re.M)
    return int(found.group(1)) if found else None


def record(runs, problem, solver, kind, tol, reference, result, **extra):
    entry = {"problem": problem, "solver": solver, "kind": kind, "tol": tol, **extra}
    if "error" in result:
        entry["error"] = result["error"]
    else:
        entry["fom"], entry["worst"] = benchlib.figure_of_merit(result["values"], reference,
                                                                tol, tol)
        for key in ("steps", "rhs_evaluations", "jacobian_evaluations", "seconds",
                    "wall_seconds", "seconds_in_process", "form", "linear_solver"):
            if result.get(key) is not None:
                entry[key] = result[key]
    runs.append(entry)
    shown = (f"fom {entry['fom']:9.3g} ({entry['worst']}), steps {entry.get('steps')}, "
             f"rhs {entry.get('rhs_evaluations')}, {entry.get('seconds', 0) * 1e3:.2f} ms"
             if "fom" in entry else f"FAILED: {entry['error']}")
    print(f"  {problem:22s} {tol:6.0e} {solver:24s} {shown}", flush=True)


def run_problem(runs, programs, daec, problem):
    reference = benchlib.Reference(problem)
    sim = os.path.join(programs, "sim_" + problem)
    ida = os.path.join(programs, "ida_" + problem)
    methods, default = simulator_methods(sim)
    has_ida = os.path.exists(ida)
    model = radau_peer.load_model(os.path.join(programs, "python"), problem)
    for tol in benchlib.TOLERANCES:
        for method in methods:
            is_default = method == methods[0]
            record(runs, problem, f"daec {method or 'simulator'}", "daec", tol, reference,
                   run_simulator(sim, method, reference, tol),
                   method=method, default=is_default)
        if has_ida:
            record(runs, problem, "IDA (hand-written)", "ida", tol, reference,
                   run_ida(ida, reference, tol))
        record(runs, problem, "SciPy Radau", "radau", tol, reference,
               run_radau(model, reference, tol))
    return {"problem": problem, "index": model_index(daec, problem), "t_start": reference.t_start,
            "t_end": reference.t_end, "variables": list(reference.values),
            "reference_source": reference.source(), "reference_notes": reference.comments,
            "default_method": default or methods[0], "methods": methods,
            "description": problem_description(problem)}


def problem_description(problem):
    """The model's description string (`model NAME "description";`)."""
    with open(os.path.join(benchlib.PROBLEMS_DIR, problem + ".dae")) as model:
        found = re.search(r'^model\s+\w+\s+"([^"]*)"', model.read(), re.M)
    return found.group(1) if found else problem


def machine():
    cpu = "unknown"
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return {"cpu": cpu, "cores": os.cpu_count(), "system": platform.platform(),
            "python": platform.python_version(), "load_at_start": os.getloadavg()}


def write_csv(runs, path):
    columns = ["problem", "solver", "tol", "fom", "worst", "steps", "rhs_evaluations",
               "jacobian_evaluations", "seconds", "error"]
    with open(path, "w") as out:
        out.write(",".join(columns) + "\n")
        for run in runs:
            cells = [str(run.get(c, "")) for c in columns]
            out.write(",".join('"' + c.replace('"', "'") + '"' if "," in c else c
                               for c in cells) + "\n")


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    programs, daec = argv[0], argv[1]
    chosen = argv[2:] or benchlib.problems()
    unknown = sorted(set(chosen) - set(benchlib.problems()))
    if unknown:
        sys.exit(f"runner.py: unknown problem(s) {', '.join(unknown)}")
    start = time.perf_counter()
    info = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "machine": machine(),
            "tolerances": list(benchlib.TOLERANCES), "time_budget": TIME_BUDGET}
    runs, problems = [], []
    for problem in chosen:
        print(f"{problem}:", flush=True)
        problems.append(run_problem(runs, programs, daec, problem))
    info["seconds"] = time.perf_counter() - start
    info["machine"]["load_at_end"] = os.getloadavg()
    os.makedirs(benchlib.RESULTS_DIR, exist_ok=True)
    with open(os.path.join(benchlib.RESULTS_DIR, "results.json"), "w") as out:
        json.dump({"run": info, "problems": problems, "runs": runs}, out, indent=1)
    write_csv(runs, os.path.join(benchlib.RESULTS_DIR, "results.csv"))
    print(f"runner: {len(runs)} runs in {info['seconds']:.0f} s; results in "
          f"{os.path.relpath(benchlib.RESULTS_DIR)}/results.json and results.csv")


if __name__ == "__main__":
    main(sys.argv[1:])
