#!/usr/bin/env python3
"""Writes bench/ordering/RESULTS.md from results.tsv (run.sh): per family a table by N and order,
the ratio of the largest to the smallest value across the orders, the growth exponents fitted
from N = 64 up, and the targets met or missed.

    report.py results.tsv > RESULTS.md
"""
import math
import re
import sys

ORDERS = ["arrays", "bodies", "random"]
# Targets (README.md): across the orders at every N, and growth from N = 64.
MAX_RATIO = 1.5
MAX_EXPONENT = 1.2
CHAIN_1000_SECONDS = 10.0
# The shortest simulation whose time per step is compared or fitted (see load).
MIN_TIMED_SECONDS = 0.1
# d(xdot)/dx of the chain is dense (every acceleration depends on every position): its growth is
# reported, not judged (README.md).
NOT_A_GROWTH_TARGET = {"rhs_jacobian_ns"}
# The costs compared: (column, heading).
COSTS = [
    ("step_us", "time per step (µs)"),
    ("factor_nnz", "factor nonzeros"),
    ("rhs_ns", "rhs (ns)"),
    ("residual_jacobian_ns", "residual Jacobian (ns)"),
    ("rhs_jacobian_ns", "sparse rhs Jacobian (ns)"),
    ("project_ns", "projection (ns)"),
]
FAMILY_NAMES = {"chain": "Pendulum chain (models/pendulum_chain.dae)",
                "rd": "Reaction-diffusion (models/reaction_diffusion.dae)"}


def load(path):
    header, rows, fields = None, [], None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# "):
                header = line[2:]
            elif fields is None:
                fields = line.split("\t")
            elif line:
                row = dict(zip(fields, line.split("\t")))
                for key, value in row.items():
                    try:
                        row[key] = float(value)
                    except ValueError:
                        pass
                row["N"] = int(row["N"])
                # /usr/bin/time counts CPU time in hundredths of a second: below
                # MIN_TIMED_SECONDS a time per step would be mostly that rounding.
                row["step_us"] = (1e6 * row["sim_cpu_s"] / row["steps"]
                                  if row["sim_cpu_s"] >= MIN_TIMED_SECONDS else None)
                rows.append(row)
    return header, rows


def exponent(points):
    """The slope of log(value) against log(N), least squares; None with fewer than 2 points."""
    points = [(math.log(n), math.log(v)) for n, v in points if n >= 64 and isinstance(v, float)
              and v > 0]
    if len(points) < 2:
        return None
    mx = sum(p[0] for p in points) / len(points)
    my = sum(p[1] for p in points) / len(points)
    sxx = sum((p[0] - mx) ** 2 for p in points)
    return sum((p[0] - mx) * (p[1] - my) for p in points) / sxx if sxx > 0 else None


def number(value):
    if not isinstance(value, float):
        return "–"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def family_section(family, rows, verdicts):
    out = [f"## {FAMILY_NAMES.get(family, family)}", ""]
    out.append("| N | order | daec CPU s | rhs ops | method | steps | factor nonzeros | "
               "simulation CPU s | µs per step | rhs ns | residual Jacobian ns | "
               "sparse rhs Jacobian ns | projection ns |")
    out.append("|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    sizes = sorted({r["N"] for r in rows})
    for n in sizes:
        for r in (r for o in ORDERS for r in rows if r["N"] == n and r["order"] == o):
            out.append(f"| {n} | {r['order']} | {number(r['daec_cpu_s'])} | "
                       f"{number(r['rhs_ops'])} | {r['method']} | {number(r['steps'])} | "
                       f"{number(r['factor_nnz'])} | {number(r['sim_cpu_s'])} | "
                       f"{number(r['step_us'])} | {number(r['rhs_ns'])} | "
                       f"{number(r['residual_jacobian_ns'])} | {number(r['rhs_jacobian_ns'])} | "
                       f"{number(r['project_ns'])} |")
    out += ["", "Largest over smallest across the orders (target ≤ "
            f"{MAX_RATIO}):", "", "| N | " + " | ".join(h for _, h in COSTS) + " |",
            "|---:|" + "---:|" * len(COSTS)]
    for n in sizes:
        cells = []
        for key, heading in COSTS:
            values = [r[key] for r in rows if r["N"] == n and isinstance(r[key], float)]
            if len(values) < 2:
                cells.append("–")
                continue
            ratio = max(values) / min(values)
            ok = ratio <= MAX_RATIO
            verdicts.append((ok, f"{family} N = {n}: {heading} ratio {ratio:.2f}"))
            cells.append(f"{ratio:.2f}" + ("" if ok else " **missed**"))
        out.append(f"| {n} | " + " | ".join(cells) + " |")
    out += ["", f"Growth exponent from N = 64 (least squares of log cost on log N; target ≤ "
            f"{MAX_EXPONENT}):", "", "| order | " + " | ".join(h for _, h in COSTS) + " |",
            "|---|" + "---:|" * len(COSTS)]
    for order in ORDERS:
        cells = []
        for key, heading in COSTS:
            e = exponent([(r["N"], r[key]) for r in rows if r["order"] == order])
            if e is None:
                cells.append("–")
                continue
            if key in NOT_A_GROWTH_TARGET:
                cells.append(f"{e:.2f} (no target)")
                continue
            ok = e <= MAX_EXPONENT
            verdicts.append((ok, f"{family} {order}: {heading} grows as N^{e:.2f}"))
            cells.append(f"{e:.2f}" + ("" if ok else " **missed**"))
        out.append(f"| {order} | " + " | ".join(cells) + " |")
    if family == "chain":
        for r in rows:
            if r["N"] == 1000:
                ok = r["sim_cpu_s"] <= CHAIN_1000_SECONDS
                verdicts.append((ok, f"chain N = 1000 {r['order']}: one second of motion in "
                                     f"{r['sim_cpu_s']:.2f} s CPU"))
    out.append("")
    return out


def main():
    header, rows = load(sys.argv[1])
    verdicts, body = [], []
    for family in sorted({r["family"] for r in rows}):
        body += family_section(family, [r for r in rows if r["family"] == family], verdicts)
    missed = [text for ok, text in verdicts if not ok]
    print("# Cost against declaration order\n")
    sizes = ", ".join(str(n) for n in sorted({r["N"] for r in rows}))
    families = " ".join(sorted({r["family"] for r in rows}))
    repeats = re.search(r"\brepeats=(\d+)", header)
    repeats = f"REPEATS={repeats.group(1)} " if repeats else ""
    print("Written by `bench/ordering/run.sh` (see README.md there for what is measured and why); "
          f"this run: `ORDER_N=\"{sizes.replace(', ', ' ')}\" FAMILIES=\"{families}\" "
          f"{repeats}bench/ordering/run.sh`, the other settings at their defaults.")
    print(f"Run: {header}.\n")
    print(f"Times per step come from simulations of at least {MIN_TIMED_SECONDS} s of CPU time "
          "(`/usr/bin/time` counts hundredths of a second); shorter ones show \"–\" and are left "
          "out of the ratios and the fits.\n")
    print(f"**Targets: {len(verdicts) - len(missed)} of {len(verdicts)} met.**" +
          ("" if not missed else " Missed:\n\n" + "\n".join(f"- {m}" for m in missed)) + "\n")
    print("\n".join(body))


if __name__ == "__main__":
    main()
