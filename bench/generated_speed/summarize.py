#!/usr/bin/env python3
"""summarize.py — turns the Google Benchmark JSON of generated_speed into the Markdown report.

Usage: summarize.py RESULTS.json CHECK.log OUT.md NOTES.md KEY=VALUE...
The KEY=VALUE pairs (command, commit, date, cpu, nproc, compiler, flags, load, benchmark) describe
the run; profile=FILE adds the Markdown output of profile.sh.
Prints the summary table to stdout and writes OUT.md (the summary, the check, NOTES.md verbatim).
Times are the medians of the repetitions (CPU time of the benchmark thread, ns per call).
Standard library only.
"""
import json
import math
import re
import sys

FUNCS = [("Rhs", "rhs"), ("RhsJacobian", "rhs_jacobian"), ("Invariants", "invariants")]
LARGE_N = 32  # from here on the rhs code no longer fits the L1 instruction cache
FIT_MIN_N = 8


def model_key(model):
    m = re.fullmatch(r"chain(\d+)", model)
    return (1, int(m.group(1))) if m else (0, 0)


def fit_exponent(points):
    """Least-squares slope of log(time) against log(N)."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    if len(xs) < 2:
        return float("nan")
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx


def fmt_ns(t):
    if t is None:
        return "–"
    if t >= 1e6:
        return f"{t / 1e6:.3g} ms"
    if t >= 1e3:
        return f"{t / 1e3:.3g} µs"
    return f"{t:.3g} ns"


def main():
    json_path, check_path, out_path, notes_path = sys.argv[1:5]
    meta = dict(arg.split("=", 1) for arg in sys.argv[5:])
    data = json.load(open(json_path))
    unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    median, cv = {}, {}
    for b in data["benchmarks"]:
        if b.get("run_type") != "aggregate":
            continue
        m = re.fullmatch(r"BM_(Generated|HandWritten)(\w+?)/(\w+)", b["run_name"])
        if not m:
            continue
        key = (m.group(1), m.group(2), m.group(3))
        if b["aggregate_name"] == "median":
            median[key] = b["cpu_time"] * unit[b["time_unit"]]
        elif b["aggregate_name"] == "cv":
            cv[key] = b["cpu_time"]
    models = sorted({k[2] for k in median}, key=model_key)

    lines = []
    out = lines.append
    out("| model | N | generated `rhs` | hand-written `rhs` | hand / generated | "
        "generated `rhs_jacobian` | hand-written `rhs_jacobian` | hand / generated | "
        "generated `invariants` | hand-written `invariants` |")
    out("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    slower = []
    for model in models:
        n = model_key(model)[1] if model.startswith("chain") else "–"
        row = [f"`{model}`", str(n)]
        for func, _ in FUNCS:
            g, h = median.get(("Generated", func, model)), median.get(("HandWritten", func, model))
            row += [fmt_ns(g), fmt_ns(h)]
            if func != "Invariants":
                row.append(f"{h / g:.2f}×" if g and h else "–")
            if func == "Rhs" and g and h and g > h:
                slower.append((model, g / h))
        out("| " + " | ".join(row) + " |")
    out("")
    out("Medians of 5 repetitions, CPU time per call (CPU rather than wall time, so that other "
        "processes on a shared machine do not inflate it). \"hand / generated\" above 1 means the "
        "generated code is faster by that factor.")
    worst_cv = max(cv.values()) if cv else float("nan")
    out(f"Largest coefficient of variation over the repetitions: {100 * worst_cv:.1f} %.")
    out("")

    out(f"**Growth in N on the chain** (least squares of log time on log N, N ≥ {FIT_MIN_N}; "
        "1 is linear, 3 is the dense LU's cubic):")
    out("")
    out("| function | generated | hand-written |")
    out("| --- | ---: | ---: |")
    exponents = {}
    for func, label in FUNCS:
        row = [f"`{label}`"]
        for who in ("Generated", "HandWritten"):
            pts = [(model_key(m)[1], median[(who, func, m)]) for m in models
                   if model_key(m)[0] == 1 and model_key(m)[1] >= FIT_MIN_N and (who, func, m) in median]
            e = fit_exponent(pts)
            exponents[(who, func)] = e
            row.append(f"{e:.2f}")
        out("| " + " | ".join(row) + " |")
    out("")
    out("`rhs_jacobian` returns a dense (4N)² matrix, so N² is its floor; `invariants` does no solve.")
    out("")
    per_link = [(model_key(m)[1], median[("Generated", "Rhs", m)]) for m in models
                if model_key(m)[0] == 1 and ("Generated", "Rhs", m) in median]
    if per_link:
        out("Generated `rhs` time per link: " +
            ", ".join(f"{fmt_ns(t / n)} at N = {n}" for n, t in per_link) + ".")
        large = [(n, t) for n, t in per_link if n >= LARGE_N]
        if len(large) >= 2:
            out(f"Fitted exponent over N ≥ {LARGE_N} only (code larger than the 32 KiB L1 "
                f"instruction cache, see the notes): {fit_exponent(large):.2f}.")
        out("")

    profile = ""
    if meta.get("profile"):
        try:
            profile = open(meta["profile"]).read().strip()
        except OSError:
            pass
    m = re.search(r"Fitted exponent of instructions per call vs N \(N >= 8\): ([0-9.]+)", profile)
    e_ir = float(m.group(1)) if m else None
    if profile:
        out("**Instructions per call of the generated chain `rhs`** (valgrind callgrind, "
            "`bench/generated_speed/profile.sh`; exact counts, immune to machine load; simulated "
            "32 KiB L1i, 512 KiB L2):")
        out("")
        out(profile)
        out("")

    e_rhs = exponents[("Generated", "Rhs")]
    out("**Targets**:")
    out("")
    if slower:
        worst = ", ".join(f"`{m}` ({r:.2f}× the hand-written time)" for m, r in slower)
        out(f"- Generated `rhs` no slower than the hand-written one: **missed** on {worst}.")
    else:
        ratios = [median[("HandWritten", "Rhs", m)] / median[("Generated", "Rhs", m)] for m in models]
        out(f"- Generated `rhs` no slower than the hand-written one: **met** on every model "
            f"(the generated code is {min(ratios):.2f}× to {max(ratios):.2f}× faster).")
    verdict = "met" if e_rhs <= 1.2 else "missed"
    out(f"- Generated `rhs` cost linear in N on the chain (fitted exponent ≤ 1.2): **{verdict}**, "
        f"exponent {e_rhs:.2f} (hand-written dense LU: {exponents[('HandWritten', 'Rhs')]:.2f})"
        + (f"; in instructions per call the exponent is {e_ir:.2f}." if e_ir is not None else "."))
    summary = "\n".join(lines)
    print(summary)

    check = open(check_path).read().strip()
    try:
        notes = open(notes_path).read().strip()
    except OSError:
        notes = ""
    with open(out_path, "w") as f:
        f.write("# Generated-code speed: daec versus a hand-written dense-LU RHS\n\n")
        f.write("Produced by `" + meta.get("command", "bench/generated_speed/run.sh") + "` "
                ". Do not edit by hand: rerun the command; the commentary comes "
                "from `bench/generated_speed/NOTES.md`.\n\n")
        f.write(f"- Date: {meta.get('date', '?')}\n")
        f.write(f"- Commit: {meta.get('commit', '?')}\n")
        f.write(f"- Machine: {meta.get('cpu', '?')}, {meta.get('nproc', '?')} CPUs "
                f"(load average at start: {meta.get('load', '?')})\n")
        f.write(f"- Compiler: {meta.get('compiler', '?')}, flags `{meta.get('flags', '?')}` for the "
                "generated and the hand-written code alike, one executable\n")
        f.write(f"- Google Benchmark {meta.get('benchmark', '?')}; raw results: "
                "`bench/generated_speed/results.json`\n\n")
        f.write("## What is compared\n\n")
        f.write("- **Generated**: `daec MODEL.dae --namespace NS`, the `Model` member functions "
                "`rhs` (with `z = nullptr`), `rhs_jacobian` and `invariants`.\n")
        f.write("- **Hand-written** (`handwritten.cpp`): the final system of docs/method.md §7 "
                "`A(X) Z = b(X)` (section 12.2; Z = multipliers and accelerations), assembled "
                "into a dense matrix, factored by a textbook LU with partial pivoting, then "
                "`X' = [velocities; accelerations]`. Its `rhs_jacobian` is analytic: "
                "`dZ/dX = -A⁻¹ ∂(A Z - b)/∂X`, one solve per state with the same factors.\n")
        f.write("- Models: `models/coupled_pendulums.dae` (with l2 = 1.25, m2 = 1.5 to make the "
                "linkage a generic four-bar) and the N-link chain of `models/pendulum_chain.dae -D N=...`. The state "
                "is consistent (all invariants vanish) and generic (links at varied angles, "
                "turning at varied rates).\n\n")
        f.write("## Results\n\n")
        f.write(summary + "\n\n")
        f.write("## Agreement check (run before timing)\n\n```\n" + check + "\n```\n")
        if notes:
            f.write("\n" + notes + "\n")


if __name__ == "__main__":
    main()
