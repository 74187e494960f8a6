#!/usr/bin/env python3
"""The correctness oracle's runner: generates random models with known exact solutions and checks
daec's index and its simulator's answer against them. See scripts/oracle/README.md.

    run.py [COUNT] [SEED] [--rtol R] [--atol A] [--threshold X] [-j N] [--out DIR]
           [--sim-args ARGS] [--kind KIND] [--methods M] [--daec PATH] [--daec-time-limit S]
           [--compile-time-limit S] [--tsv FILE] [--keep] [--single-file]

For every seed SEED .. SEED+COUNT-1: generate.py writes DIR/oracle_<seed>/oracle_<seed>.dae; then
    daec MODEL.dae --report-json report.json -o model.cpp --header model.h   (the index must be
    g++ -O2 model.cpp main.cpp build/runtime/libdaec_runtime.a ... -o sim        the header's)
(linked to the build's compiled runtime, a few seconds; with --single-file, or without a build
tree, the single file of `daec --main` built by scripts/compile_simulator.sh, half a minute)
and for each method of --methods (default: the simulator's default method only; `all`: every
method of `./sim --method list`; or a comma-separated list)
    ./sim <the header's simulate arguments> [--method M] --rtol R --atol A --output result.csv
          [--sensitivities P,Q]  <ARGS>
(--sensitivities with radau5, the one method that integrates them, for a model whose header has
`sensitivities:`). Consistent initialization must leave every start the model declares fixed, and
every start its header lists as `written`, where it is (the simulator lists the starts it moved
on stderr, "sim:   NAME: GIVEN -> USED"), and the figure of merit of docs/simulator.md ("The
accuracy target") over every declared variable and output row must be at most X, and so must
that of the sensitivity columns, every one of which must be there. A figure-of-merit failure is
run again 100 times tighter (an error that follows the tolerance is the method's inaccuracy)
and, above 1000, diagnosed by reduced_condition.py. A passing model's directory is removed
(unless --keep); a failing one stays, and its model is printed. Exit status 1 if any model fails
on any method.
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)

import compare  # noqa: E402
import generate  # noqa: E402
import model_file  # noqa: E402
from time_limit import TimeLimitExceeded, within  # noqa: E402

DEFAULT_SEED = 20261201


@dataclass
class Run:
    """One method's run of a model."""
    method: str  # "" for the simulator's default
    fom: float = float("nan")
    worst: str = ""
    sensitivity_fom: float = float("nan")
    steps: str = ""
    moved: dict = field(default_factory=dict)  # start moved by consistent initialization
    failures: list = field(default_factory=list)  # [(category, detail)]


@dataclass
class Outcome:
    seed: int
    kind: str = "?"
    index: int = -1  # expected
    daec_index: int = -1
    fom: float = float("nan")  # the worst over the methods
    worst: str = ""
    steps: str = ""
    moved: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)  # [(category, detail)], method-tagged
    runs: list = field(default_factory=list)  # [Run]
    path: str = ""
    seconds: float = 0.0


def _run(command, timeout, cwd=None):
    """(status, stdout, stderr); status 124 on a timeout. The command runs in a process group of
    its own, which a timeout ends as a whole (g++ leaves its cc1plus running otherwise). A command
    that cannot be started (a daec being rebuilt meanwhile) is status 126, a failure of this
    model, not of the run."""
    try:
        process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, start_new_session=True)
    except OSError as e:
        return 126, "", f"cannot run {command[0]}: {e}"
    try:
        out, err = process.communicate(timeout=timeout)
        return process.returncode, out, err
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return 124, "", f"timed out after {timeout} s"


def _tail(text, lines=6):
    return "\n".join(text.strip().splitlines()[-lines:])


def check_model(seed, options):
    """Everything for one seed, in its own directory; returns an Outcome."""
    start = time.monotonic()
    outcome = Outcome(seed)
    directory = os.path.join(options.out, f"oracle_{seed}")
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    path = os.path.join(directory, f"oracle_{seed}.dae")
    outcome.path = path
    try:
        # The runner's workers are processes of their own, each calling this from its main thread.
        text = within(options.generator_time_limit,
                      lambda: generate.generate(seed, options.kind))
    except generate.GeneratorError as e:
        outcome.failures.append(("generator error", str(e)))
        return outcome
    except TimeLimitExceeded:
        outcome.failures.append(("generator error", f"seed {seed}: generate.py did not finish "
                                 f"in {options.generator_time_limit} s"))
        return outcome
    except Exception as e:  # noqa: BLE001 -- any other exception of the generator is its bug
        outcome.failures.append(("generator error", f"seed {seed}: {type(e).__name__}: {e}"))
        return outcome
    with open(path, "w") as f:
        f.write(text)
    model = model_file.read(text)
    outcome.kind = model.kind
    outcome.index = model.index
    _simulate(model, path, directory, outcome, options)
    outcome.seconds = time.monotonic() - start
    if not outcome.failures and not options.keep:
        shutil.rmtree(directory)
    return outcome


# The main of a simulator linked to the compiled runtime: the same run() the single file of
# `daec --main` holds, so the answers are the same; only the build takes seconds instead of a
# minute (docs/simulator.md, "The compiled runtime").
LINKED_MAIN = """#include "model.h"
#include <daec/runtime/model_adapter.hpp>
#include <daec/runtime/run.hpp>
int main(int argc, char** argv) {
  return daec::runtime::run(argc, argv, daec::runtime::ModelAdapter<::oracle_model::Model>{});
}
"""


def _compile_command(directory, options):
    """The command that builds ./sim: the model linked to --runtime, or the single file."""
    if options.runtime is None:
        return [os.path.join(ROOT, "scripts", "compile_simulator.sh"), "sim.cpp", "sim"]
    with open(os.path.join(directory, "main.cpp"), "w") as f:
        f.write(LINKED_MAIN)
    config = os.path.join(ROOT, "build", "daec-config")

    def flags(which):
        return subprocess.run([config, which], capture_output=True, text=True,
                              check=True).stdout.split()
    return [os.environ.get("CXX", "g++"), "-std=c++17", "-O2", "-Wall", "-Wextra",
            "-I", os.path.join(ROOT, "include"), *flags("--cflags"), "-o", "sim", "model.cpp",
            "main.cpp", options.runtime, *flags("--libs")]


def _simulate(model, path, directory, outcome, options):
    linked = options.runtime is not None
    target = ["-o", "model.cpp", "--header", "model.h", "--namespace", "oracle_model"] if linked \
        else ["--main", "-o", "sim.cpp"]
    status, out, err = _run([options.daec, path, "--report-json", "report.json", *target,
                             "--time-limit", str(options.daec_time_limit)],
                            options.daec_time_limit + 60, cwd=directory)
    if status != 0:
        outcome.failures.append(("daec error", _tail(out + err)))
        return
    with open(os.path.join(directory, "report.json")) as f:
        outcome.daec_index = json.load(f)["index"]
    if outcome.daec_index != model.index:
        outcome.failures.append(("wrong index", f"daec says {outcome.daec_index}, expected "
                                                f"{model.index}"))
    status, out, err = _run(_compile_command(directory, options), options.compile_time_limit,
                            cwd=directory)
    if status != 0:
        source = "model.cpp" if linked else "sim.cpp"
        size = os.path.getsize(os.path.join(directory, source))
        outcome.failures.append(("compile error", f"({source}: {size:,} bytes) " +
                                 _tail(out + err, 12)))
        return
    methods, default = simulator_methods(directory)
    for method in selected_methods(options.methods, methods):
        run = Run(method)
        _simulate_method(model, path, directory, run, options, method or default)
        outcome.runs.append(run)
        tag = f" [{method}]" if method else ""
        outcome.failures += [(category + tag, detail) for category, detail in run.failures]
    simulated = [r for r in outcome.runs if r.fom == r.fom]
    if simulated:
        worst = max(simulated, key=lambda r: r.fom)
        outcome.fom, outcome.worst = worst.fom, worst.worst
    if outcome.runs:
        outcome.steps, outcome.moved = outcome.runs[0].steps, outcome.runs[0].moved


def simulator_methods(directory):
    """([method names], the default one) from `./sim --method list`."""
    status, out, _ = _run(["./sim", "--method", "list"], 60, cwd=directory)
    names, default = [], "radau5"
    for line in out.splitlines() if status == 0 else []:
        words = line.split()
        if words:
            names.append(words[0])
            if "(default" in line:
                default = words[0]
    return names or ["radau5"], default


def selected_methods(setting, methods):
    """The methods to run: [""] (the default) unless `setting` is `all` or a list."""
    setting = (setting or "").strip()
    if setting in ("", "default"):
        return [""]
    if setting == "all":
        return list(methods)
    return [m.strip() for m in setting.split(",") if m.strip()]


def _simulate_method(model, path, directory, run, options, method):
    """One method's run and every check of it (run.failures)."""
    sensitivities = model.sensitivities if method == "radau5" else []
    csv = f"result{'_' + run.method if run.method else ''}.csv"
    status, err, worst = _solve(model, path, directory, options.rtol, options.atol, options,
                                csv, run.method, sensitivities)
    run.steps = statistics(err)
    run.moved = moved_starts(err)
    for kind, names in (("fixed", model.fixed), ("written", model.written)):
        moved = [name for name in names if name in run.moved]
        if moved:
            run.failures.append((f"{kind} start moved", ", ".join(
                f"{name}: {' -> '.join(run.moved[name])}" for name in moved)))
    if status != 0:
        errors = [line for line in err.splitlines() if line.startswith("sim: error:")]
        run.failures.append(("simulation failure", "\n".join(errors[:1] + [_tail(err)])))
        return
    run.fom = worst[0]
    run.worst = compare.describe(worst)
    if not worst[0] <= options.threshold:
        moved = "; consistent initialization moved " + (", ".join(
            f"{name} {given} -> {used}" for name, (given, used) in run.moved.items())
            if run.moved else "no start")
        run.failures.append(("figure of merit", run.worst + moved + _diagnosis(
            model, path, directory, worst[0], options, run.method, sensitivities)))
    if sensitivities:
        rows = compare.read_rows(os.path.join(directory, csv))
        missing, sensitivity = compare.sensitivity_figure_of_merit(model, rows, options.rtol,
                                                                   options.atol)
        if missing:
            run.failures.append(("sensitivity column missing", ", ".join(missing) +
                                 f" ({len(missing)} of {len(compare.sensitivity_columns(model))})"))
        if sensitivity is not None:
            run.sensitivity_fom = sensitivity[0]
            if not sensitivity[0] <= options.threshold:
                run.failures.append(("sensitivity figure of merit", compare.describe(sensitivity)))


def statistics(err):
    """The simulator's statistics line on stderr: "method radau5, linear solver dense, steps 212,
    ..." (or, before the methods, "steps 212, ..."); "" if there is none. The other lines (the
    starts consistent initialization moved, all beginning "sim:", a failure's message) are
    skipped."""
    return next((line for line in err.splitlines() if line.startswith(("steps ", "method "))), "")


moved_starts = compare.moved_starts


def _solve(model, path, directory, rtol, atol, options, csv="result.csv", method="",
           sensitivities=()):
    """Runs the simulator at (rtol, atol): (status, stderr, worst) with compare.py's worst."""
    arguments = shlex.split(model.simulate) + (["--method", method] if method else []) + [
        "--rtol", repr(rtol), "--atol", repr(atol), "--output", csv] + (
        ["--sensitivities", ",".join(sensitivities)] if sensitivities else []) + shlex.split(
        options.sim_args)
    status, _, err = _run(["./sim"] + arguments, 600, cwd=directory)
    if status != 0:
        return status, err, None
    try:
        return 0, err, compare.compare_files(path, os.path.join(directory, csv), rtol, atol)
    except compare.CompareError as e:
        return 1, f"{err}{e}", None


def _diagnosis(model, path, directory, fom, options, method="", sensitivities=()):
    """What a figure-of-merit failure is: the same run 100 times tighter (an error that follows
    the tolerance is the method's inaccuracy), and for a large error daec's algebraic system along
    the exact solution (reduced_condition.py)."""
    tight = options.rtol / 100, options.atol / 100
    status, _, worst = _solve(model, path, directory, *tight, options, "result_tight.csv", method,
                              sensitivities)
    text = (f"; at rtol {tight[0]:g}, atol {tight[1]:g}: " +
            (f"fom {worst[0]:.3g}" if status == 0 else "the simulation fails"))
    if fom > 1000:
        if path not in _CONDITION:  # the same for every method: computed once
            try:
                import reduced_condition

                (condition, at), (residual, _) = reduced_condition.profile(path, options.daec, 201)
                _CONDITION[path] = (f"; daec's A Z = b on the exact solution: condition number "
                                    f"up to {condition:.3g} (t = {at:.4g}), invariants up to "
                                    f"{residual:.2g}")
            except (OSError, subprocess.CalledProcessError) as e:
                _CONDITION[path] = f"; reduced_condition.py failed: {e}"
        text += _CONDITION[path]
    return text


_CONDITION = {}  # model path -> reduced_condition.py's diagnosis


def _run_text(r):
    text = f"fom {r.fom:.2g}"
    if r.sensitivity_fom == r.sensitivity_fom:
        text += f", sensitivity fom {r.sensitivity_fom:.2g}"
    return text


def progress_line(k, count, o):
    head = f"[{k}/{count}] seed {o.seed} index {o.index} ({o.kind})"
    if len(o.runs) > 1:  # every method: one status each, then what failed
        status = "ok" if not o.failures else "FAILED"
        parts = [f"{r.method} {'ok' if not r.failures else 'FAILED'} ({_run_text(r)})"
                 for r in o.runs]
        lines = [f"{head} {status}: " + "; ".join(parts) + f" ({o.seconds:.1f} s)"]
        lines += [f"    {category}: {detail.splitlines()[0] if detail else ''}"
                  for category, detail in o.failures]
        return "\n".join(lines)
    if not o.failures:
        run = o.runs[0] if o.runs else Run("")
        return f"{head} ok ({_run_text(run)}; {o.steps or 'no statistics'}; {o.seconds:.1f} s)"
    reasons = "; ".join(f"{category}: {detail.splitlines()[0] if detail else ''}"
                        for category, detail in o.failures)
    return f"{head} FAILED: {reasons}"


def summary(outcomes, options):
    failed = [o for o in outcomes if o.failures]
    lines = [f"{len(outcomes) - len(failed)}/{len(outcomes)} passed (rtol {options.rtol:g}, "
             f"atol {options.atol:g}, threshold {options.threshold:g}"
             + (f", simulator arguments '{options.sim_args}')" if options.sim_args else ")")]
    foms = [o.fom for o in outcomes if o.fom == o.fom]
    if foms:
        worst = max(outcomes, key=lambda o: o.fom if o.fom == o.fom else -1)
        lines.append(f"worst figure of merit {worst.fom:.3g} (seed {worst.seed}); median "
                     f"{sorted(foms)[len(foms) // 2]:.3g} over {len(foms)} simulated models")
    methods = [r.method for r in outcomes[0].runs] if outcomes else []
    if len(methods) > 1:
        per_method = []
        for method in methods:
            runs = [(o, r) for o in outcomes for r in o.runs if r.method == method]
            broken = {o.seed for o in outcomes if any(c in ("daec error", "compile error",
                                                            "generator error", "wrong index")
                                                      for c, _ in o.failures)}
            passed = sum(1 for o, r in runs if not r.failures and o.seed not in broken)
            per_method.append(f"{method} {passed}/{len(outcomes)}")
        lines.append("passed per method: " + ", ".join(per_method))
    categories = {}
    for o in failed:
        for category, _ in o.failures:
            categories[category] = categories.get(category, 0) + 1
    if categories:
        lines.append("failures by reason: " + ", ".join(f"{c} {n}" for c, n in
                                                        sorted(categories.items())))
    for o in sorted(failed, key=lambda o: o.seed):
        lines.append(f"  {o.path} (index {o.index}, {o.kind}):")
        for category, detail in o.failures:
            lines.append(f"    {category}: {detail.splitlines()[0] if detail else ''}")
    return "\n".join(lines)


def options_from(argv):
    env = os.environ.get
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", nargs="?", type=int, default=int(env("COUNT", "200")),
                        help="how many models (default 200)")
    parser.add_argument("seed", nargs="?", type=int, default=int(env("SEED", DEFAULT_SEED)),
                        help=f"the first model's seed (default {DEFAULT_SEED})")
    parser.add_argument("--rtol", type=float, default=float(env("RTOL", "1e-8")),
                        help="the simulator's relative tolerance (default 1e-8)")
    parser.add_argument("--atol", type=float, default=float(env("ATOL", "1e-8")),
                        help="the simulator's absolute tolerance (default 1e-8)")
    parser.add_argument("--threshold", type=float, default=float(env("THRESHOLD", "10")),
                        help="the largest figure of merit that passes (default 10)")
    parser.add_argument("-j", "--jobs", type=int, default=int(env("JOBS", "2")),
                        help="models checked at once (default 2)")
    parser.add_argument("--out", default=env("OUT", os.path.join(ROOT, "build", "oracle")),
                        help="the work directory (default build/oracle)")
    parser.add_argument("--sim-args", default=env("SIM_ARGS", ""),
                        help="extra simulator arguments, e.g. '--method radau5'")
    parser.add_argument("--kind", default=env("KIND") or None,
                        help="only models of this kind, group (classic, meeting) or "
                             "comma-separated list of kinds")
    parser.add_argument("--methods", default=env("METHODS", ""),
                        help="the methods to run each model with: the default method (default), "
                             "'all' (every one of ./sim --method list) or a comma-separated list")
    parser.add_argument("--tsv", default=env("TSV") or None,
                        help="also write one line per model and method to this file")
    parser.add_argument("--daec", default=env("DAEC", os.path.join(ROOT, "build", "daec")),
                        help="the daec under test (default build/daec)")
    parser.add_argument("--daec-time-limit", type=int, default=int(env("DAEC_TIME_LIMIT", "60")),
                        help="daec's --time-limit in seconds")
    parser.add_argument("--compile-time-limit", type=int,
                        default=int(env("COMPILE_TIME_LIMIT", "300")),
                        help="seconds for compiling one simulator")
    parser.add_argument("--generator-time-limit", type=int,
                        default=int(env("GENERATOR_TIME_LIMIT", "120")),
                        help="seconds for generating one model (a few seconds as a rule)")
    parser.add_argument("--keep", action="store_true", help="keep passing models' directories")
    parser.add_argument("--single-file", action="store_true",
                        help="build each simulator from the single file of daec --main, not "
                             "linked to the build's compiled runtime (build/runtime/"
                             "libdaec_runtime.a, used when it is there)")
    options = parser.parse_args(argv)
    if options.kind:
        try:
            generate.kinds_of(options.kind)
        except ValueError as e:
            parser.error(str(e))
    options.out = os.path.abspath(options.out)
    options.daec = os.path.abspath(options.daec)
    runtime = os.path.join(ROOT, "build", "runtime", "libdaec_runtime.a")
    options.runtime = None if options.single_file or not os.path.exists(runtime) else runtime
    return options


def main(argv):
    options = options_from(argv)
    if not os.access(options.daec, os.X_OK):
        print(f"oracle: error: no daec at {options.daec} (build it, or give --daec)",
              file=sys.stderr)
        return 2
    os.makedirs(options.out, exist_ok=True)
    if options.runtime is not None:
        # A copy, as bench/oracle_meeting/run.sh copies daec: a rebuild during the run changes
        # neither.
        copy = os.path.join(options.out, "libdaec_runtime.a")
        shutil.copyfile(options.runtime, copy)
        options.runtime = copy
    seeds = range(options.seed, options.seed + options.count)
    outcomes = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=options.jobs) as pool:
        futures = {pool.submit(check_model, seed, options): seed for seed in seeds}
        for k, future in enumerate(concurrent.futures.as_completed(futures), 1):
            try:
                o = future.result()
            except Exception as e:  # noqa: BLE001 -- the run goes on; the model failed
                o = Outcome(futures[future])
                o.failures.append(("runner error", f"{type(e).__name__}: {e}"))
            outcomes.append(o)
            print(progress_line(k, options.count, o), flush=True)
            if o.failures:
                for category, detail in o.failures:
                    if "\n" in detail:
                        print("    " + detail.replace("\n", "\n    "))
                if os.path.exists(o.path):
                    with open(o.path) as f:
                        print(f"--- {o.path}\n{f.read()}---", flush=True)
    print(summary(outcomes, options))
    if options.tsv:
        write_tsv(options.tsv, outcomes)
    return 1 if any(o.failures for o in outcomes) else 0


TSV_COLUMNS = ["seed", "kind", "index", "daec_index", "method", "status", "fom",
               "sensitivity_fom", "reasons", "seconds"]


def write_tsv(path, outcomes):
    """One line per model and method (a model that never reached the simulator: one line with
    method '-'); reasons as 'category: first line' joined by ' | '."""
    def clean(text):
        return text.replace("\t", " ").replace("\n", " ")

    with open(path, "w") as f:
        f.write("\t".join(TSV_COLUMNS) + "\n")
        for o in sorted(outcomes, key=lambda o: o.seed):
            from_runs = [(c + (f" [{r.method}]" if r.method else ""), d)
                         for r in o.runs for c, d in r.failures]
            common = [f for f in o.failures if f not in from_runs]  # daec, compile, index
            runs = o.runs or [Run("-")]
            for r in runs:
                failures = common + r.failures
                reasons = " | ".join(f"{c}: {clean(d.splitlines()[0]) if d else ''}"
                                     for c, d in failures)
                f.write("\t".join([str(o.seed), o.kind, str(o.index), str(o.daec_index),
                                   r.method or "default", "ok" if not failures else "FAILED",
                                   f"{r.fom:.3g}", f"{r.sensitivity_fom:.3g}", reasons,
                                   f"{o.seconds:.1f}"]) + "\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
