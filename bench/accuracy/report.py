#!/usr/bin/python3
"""Writes bench/accuracy/RESULTS.md and its work-precision plots from results/results.json.

    report.py [key=value ...]     # commit=..., command=..., build_seconds=... for the header

The error of a run is max_i |y_i - ref_i| / (|ref_i| + 1) at the end point over every declared
variable: the figure of merit of docs/simulator.md ("The accuracy target") times the tolerance (rtol = atol), comparable across
tolerances. Plots: error against time and against steps, one panel per problem
(results/work_precision_time.png, results/work_precision_steps.png).
"""
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import benchlib  # noqa: E402

HERE = benchlib.HERE
RESULTS_MD = os.path.join(HERE, "RESULTS.md")
PEERS = ("ida", "radau")
# Times below this (seconds) are not compared: the start-up subtracted from a process's CPU time
# varies by a few tenths of a millisecond.
TIME_FLOOR = 1e-3
# Errors below this are drawn at it (an exact answer has error 0, which a log scale cannot show).
ERROR_FLOOR = 1e-16
# One colour per solver in every panel: daec's methods first, then the peers.
SOLVER_COLOURS = {"IDA (hand-written)": "tab:green", "SciPy Radau": "tab:red"}
DAEC_COLOURS = ("tab:blue", "tab:orange", "tab:purple", "tab:brown", "tab:pink")


def shown(run):
    """The solver's name in a problem's table and plot: daec's default method marked."""
    return run["solver"] + (" (default)" if run.get("default") else "")


def error_of(run):
    return run["fom"] * run["tol"] if "fom" in run else None


def ok(run):
    return "fom" in run and math.isfinite(run["fom"])


def fmt_fom(run):
    if "error" in run:
        return "failed"
    return f"{run['fom']:.3g}"


def fmt_tol(tol):
    """1e-4, not 0.0001."""
    mantissa, exponent = f"{tol:e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent)}"


def fmt_ms(seconds):
    ms = seconds * 1e3
    return f"{ms:.3g}" if ms >= 0.01 else "< 0.01"


def fmt_int(value):
    return "" if value is None else f"{value:,}"


def short_error(text, limit=160):
    return text if len(text) <= limit else text[:limit - 3] + "..."


# ----- interpolation on a work-precision curve --------------------------------------------------

def work_at(runs, error, key):
    """The work `key` a solver needs for `error`, interpolated log-log between its runs (by
    error); ('=', w) inside its range, ('<=', w) or ('>=', w) beyond its loosest or tightest
    run, None without usable runs."""
    points = sorted((error_of(r), r[key]) for r in runs
                    if ok(r) and r.get(key) and error_of(r) > 0)
    if not points:
        return None
    if error >= points[-1][0]:
        return ("<=", min(w for _, w in points))
    if error <= points[0][0]:
        return (">=", points[0][1])
    for (e0, w0), (e1, w1) in zip(points, points[1:]):
        if e0 <= error <= e1:
            if e1 == e0:
                return ("=", min(w0, w1))
            f = (math.log(error) - math.log(e0)) / (math.log(e1) - math.log(e0))
            return ("=", math.exp(math.log(w0) + f * (math.log(w1) - math.log(w0))))
    return None


def fmt_work(found, unit):
    if found is None:
        return "n/a"
    relation, work = found
    text = fmt_ms(work) if unit == "ms" else f"{work:,.0f}"
    return text if relation == "=" else f"{relation} {text}"


# ----- the report ------------------------------------------------------------------------------

def runs_of(data, problem, kind=None, default=None):
    return [r for r in data["runs"] if r["problem"] == problem
            and (kind is None or r["kind"] == kind)
            and (default is None or r.get("default") == default)]


def header(data, args):
    run, machine = data["run"], data["run"]["machine"]
    build = args.get("build_seconds")
    total = f"{run['seconds']:.0f} s of runs" + (f" after {build} s of building" if build else "")
    load = ", ".join(f"{x:.1f}" for x in machine["load_at_start"])
    return [
        "# Accuracy benchmark: results",
        "",
        f"Command: `{args.get('command', 'bench/accuracy/run.sh')}` ({total}). "
        f"Date: {run['date']}. Commit: {args.get('commit', 'unknown')}.",
        f"Machine: {machine['cpu']}, {machine['cores']} cores, {machine['system']}, Python "
        f"{machine['python']}; load average at the start {load} (a shared machine: times are "
        "CPU times, see below).",
        "",
        "Every problem is integrated from its start to its end point at rtol = atol in "
        f"{{{', '.join(fmt_tol(t) for t in run['tolerances'])}}} by daec's simulator (each "
        "method it offers, the default first), by IDA on a hand-written residual of the model as "
        "written (peers/ida/) and by SciPy's Radau IIA on daec's reduced ODE (radau_peer.py), "
        "all in this run. **Figure of merit** (docs/simulator.md, 'The accuracy target'): max over every declared variable of "
        "|y - ref| / (rtol |ref| + atol) at the end point; target <= 10. **Error** (plots): the "
        "figure of merit times the tolerance, max |y - ref| / (|ref| + 1). **Steps** and "
        "**rhs evaluations** as each solver counts them (IDA: residual evaluations, those of its "
        "difference-quotient Jacobian included; Radau: right-hand-side evaluations, with the "
        "generated Jacobian). **Time**: CPU time of the run in milliseconds (C++ programs: of "
        "the process less its start-up; Radau: inside Python, so its times carry the "
        "interpreter's overhead per step and are not comparable with the C++ ones), the mean "
        f"of repeated runs (up to {run['time_budget']} s each). **Wall**: the wall-clock time "
        "of the first run (C++: the whole process, start-up included; Radau: the Python call), "
        "on this shared machine inflated by the other jobs.",
        "",
    ]


def verdict_section(data):
    lines = ["## Verdict", "",
             "### Target 1: daec's default method within 10 at every tolerance", "",
             "| problem | index | default method | " +
             " | ".join(fmt_tol(t) for t in data["run"]["tolerances"]) + " | met |",
             "|---|---|---|" + "---|" * len(data["run"]["tolerances"]) + "---|"]
    met_count = 0
    for p in data["problems"]:
        runs = runs_of(data, p["problem"], "daec", True)
        cells = [fmt_fom(r) for r in runs]
        met = all(ok(r) and r["fom"] <= benchlib.TARGET for r in runs)
        met_count += met
        lines.append(f"| {p['problem']} | {p['index']} | {p['default_method']} | " +
                     " | ".join(cells) + f" | {'yes' if met else '**no**'} |")
    lines += ["", f"Met on {met_count} of {len(data['problems'])} problems.", ""]
    lines += methods_table(data)
    lines += [
              "### Target 2: no more work than the best peer needs for the same error", "",
              "For every run of daec's default method: the work IDA and Radau need for the same "
              "error, interpolated (log-log) on their work-precision curves in this run. `<= w`: "
              "daec's error is larger than the peer's at its loosest tolerance (the peer needs at "
              "most w); `>= w`: smaller than the peer's at its tightest (the peer needs at least "
              "w). The verdict compares rhs evaluations (machine-independent) with the best "
              "peer: yes, no (daec needs that many times more), or undecided when the bounds do "
              "not tell. Times in ms; the Radau times are Python's, so time is compared with IDA "
              "only (both C++, the same compiler flags), and not when both are under 1 ms (too "
              "short: the start-up subtracted varies by a few tenths of a millisecond).", "",
              "| problem | tol | daec error | daec rhs | IDA res. | Radau rhs | evaluations: "
              "no more than the best peer | daec ms | IDA ms | Radau ms | time: no more than IDA |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    for p in data["problems"]:
        peers = {k: runs_of(data, p["problem"], k) for k in PEERS}
        for r in runs_of(data, p["problem"], "daec", True):
            if not ok(r):
                lines.append(f"| {p['problem']} | {fmt_tol(r['tol'])} | failed |" + " |" * 8)
                continue
            e = error_of(r)
            times = {k: work_at(peers[k], e, "seconds") for k in PEERS}
            evals = {k: work_at(peers[k], e, "rhs_evaluations") for k in PEERS}
            lines.append(
                f"| {p['problem']} | {fmt_tol(r['tol'])} | {e:.2g} | {r['rhs_evaluations']:,} | "
                f"{fmt_work(evals['ida'], '')} | {fmt_work(evals['radau'], '')} | "
                f"{compare(r['rhs_evaluations'], evals.values())} | {fmt_ms(r['seconds'])} | "
                f"{fmt_work(times['ida'], 'ms')} | {fmt_work(times['radau'], 'ms')} | "
                f"{compare(r['seconds'], [times['ida']], TIME_FLOOR)} |")
    lines.append("")
    return lines


def methods_table(data):
    """The largest figure of merit over the tolerances of every solver, per problem: which
    method would meet target 1 if it were the default."""
    solvers = list(dict.fromkeys(r["solver"] for r in data["runs"]))
    lines = ["Every solver's largest figure of merit over the four tolerances (bold: over 10; "
             "failed: some run failed):", "",
             "| problem | " + " | ".join(solvers) + " |",
             "|---|" + "---|" * len(solvers)]
    for p in data["problems"]:
        cells = []
        for solver in solvers:
            runs = [r for r in runs_of(data, p["problem"]) if r["solver"] == solver]
            if not runs:
                cells.append("")
            elif not all(ok(r) for r in runs):
                cells.append("failed")
            else:
                worst = max(r["fom"] for r in runs)
                cells.append(f"{worst:.3g}" if worst <= benchlib.TARGET else f"**{worst:.3g}**")
        lines.append(f"| {p['problem']} | " + " | ".join(cells) + " |")
    return lines + [""]


def compare(work, peer_works, floor=0.0):
    """daec's `work` against the best of the peers' (relation, work) at the same error: "yes"
    (no more), "no (Nx)" (N times more), "undecided", or "n/a" without peer data."""
    known = [w for w in peer_works if w is not None]
    if not known:
        return "n/a"
    if work < floor and all(w < floor for _, w in known):
        return "(too short)"
    lower = min(w if rel in ("=", ">=") else 0.0 for rel, w in known)
    upper = min(w if rel in ("=", "<=") else math.inf for rel, w in known)
    if work <= lower:
        return "yes"
    if work > upper:
        return f"no ({work / upper:.3g}x)" if upper > 0 else "no"
    return "undecided"


def problem_section(data, p):
    lines = [f"### {p['problem']}", "",
             f"{p['description']}. daec `--check` finds index {p['index']}; t in "
             f"[{p['t_start']:g}, {p['t_end']:g}], {len(p['variables'])} declared variables. "
             f"Reference: {p['reference_source']}.",
             ""]
    forms = sorted({(r["solver"], r["form"]) for r in runs_of(data, p["problem"])
                    if r.get("form")})
    for solver, form in forms:
        lines.append(f"- {solver}: {form}")
    lines += ["", "| tol | solver | figure of merit (worst variable) | steps | rhs evaluations | "
                  "Jacobians | time [ms] | wall [ms] |", "|---|---|---|---|---|---|---|---|"]
    for tol in data["run"]["tolerances"]:
        for r in (r for r in runs_of(data, p["problem"]) if r["tol"] == tol):
            if not ok(r):
                why = short_error(r.get("error", "not finite"))
                lines.append(f"| {fmt_tol(tol)} | {shown(r)} | failed: {why} | | | | | |")
                continue
            lines.append(f"| {fmt_tol(tol)} | {shown(r)} | {r['fom']:.3g} ({r['worst']}) | "
                         f"{fmt_int(r.get('steps'))} | {fmt_int(r.get('rhs_evaluations'))} | "
                         f"{fmt_int(r.get('jacobian_evaluations'))} | {fmt_ms(r['seconds'])} | "
                         f"{fmt_ms(r['wall_seconds'])} |")
    lines.append("")
    return lines


# ----- plots -------------------------------------------------------------------------------------

def colours(data):
    """A fixed colour per solver label across all panels."""
    mapping, daec = dict(SOLVER_COLOURS), [r["solver"] for r in data["runs"] if r["kind"] == "daec"]
    for solver in dict.fromkeys(daec):
        mapping[solver] = DAEC_COLOURS[len([s for s in mapping if s not in SOLVER_COLOURS])
                                       % len(DAEC_COLOURS)]
    return mapping


def plot(data, key, label, path, floor):
    """One panel per problem: `key` against the error, one line per solver; errors below
    ERROR_FLOOR and work below `floor` (not measurable) are drawn at the floor."""
    problems = data["problems"]
    colour = colours(data)
    columns = 3
    rows = (len(problems) + columns - 1) // columns
    figure, axes = plt.subplots(rows, columns, figsize=(5 * columns, 4 * rows), squeeze=False)
    for ax, p in zip(axes.flat, problems):
        runs = runs_of(data, p["problem"])
        for solver in dict.fromkeys(r["solver"] for r in runs):
            mine = [r for r in runs if r["solver"] == solver]
            points = [(max(error_of(r), ERROR_FLOOR), max(r[key], floor)) for r in mine
                      if ok(r) and r.get(key) is not None]
            if points:
                xs, ys = zip(*points)
                ax.plot(xs, ys, marker="o", label=shown(mine[0]), color=colour[solver],
                        linestyle="-" if "daec" in solver else "--")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{p['problem']} (index {p['index']})")
        ax.set_xlabel("error max |y - ref| / (|ref| + 1)")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(problems):]:
        ax.set_visible(False)
    figure.suptitle(f"Work-precision: {label} against error at the end point "
                    f"(rtol = atol = 1e-4 ... 1e-10; error < {ERROR_FLOOR:g} and {label} < "
                    f"{floor:g} drawn there)")
    figure.tight_layout(rect=(0, 0, 1, 0.97))
    figure.savefig(path, dpi=80)
    plt.close(figure)


def main(argv):
    args = dict(a.split("=", 1) for a in argv if "=" in a)
    with open(os.path.join(benchlib.RESULTS_DIR, "results.json")) as source:
        data = json.load(source)
    plot(data, "seconds", "time [s] (CPU)",
         os.path.join(benchlib.RESULTS_DIR, "work_precision_time.png"), 1e-5)
    plot(data, "steps", "steps", os.path.join(benchlib.RESULTS_DIR, "work_precision_steps.png"),
         1)
    lines = header(data, args) + verdict_section(data)
    lines += ["## Work-precision plots", "",
              "![error against time](results/work_precision_time.png)", "",
              "![error against steps](results/work_precision_steps.png)", "",
              "## Per problem", ""]
    for p in data["problems"]:
        lines += problem_section(data, p)
    with open(RESULTS_MD, "w") as out:
        out.write("\n".join(lines))
    print(f"report: wrote {os.path.relpath(RESULTS_MD)} and the plots in "
          f"{os.path.relpath(benchlib.RESULTS_DIR)}/")


if __name__ == "__main__":
    main(sys.argv[1:])
