#!/usr/bin/env python3
"""Compares a simulator's CSV with the exact solution in an oracle model's header.

    compare.py MODEL.dae RESULT.csv [--rtol R] [--atol A] [--sensitivities] [--stderr FILE]

prints `fom F (worst: NAME at t = T: V, exact E)` where F is the figure of merit of spec
section 5.1, max |y - exact| / (rtol*|exact| + atol) over every declared variable (and output the
header gives an exact solution for) and every row, and exits 0; exits 2 with a message if the CSV
lacks a variable's column, holds a value that is not a number, or has no rows.

Where the solution jumps or kinks (the header's `instants:`), a row within 1e-6*(t1 - t0) of an
instant is compared with the exact solution on either side of it (the better one counts): which
side a row at the instant itself shows is the simulator's choice, and it locates the instant to
its own accuracy. Where the header gives an `alternative` solution (start conditions with two
solutions and nothing to prefer either), the better of the two counts.

--sensitivities (for a model whose header has `sensitivities:`, run with `--sensitivities`) also
prints `sensitivity fom F (worst: d(v)/d(p) at t = T: V, exact E)`, the figure of merit of the
columns d(v)/d(p) against the header's exact derivatives, each with its own scale
(rtol*|exact| + atol), and `sensitivity columns missing: ...` (exit status 1) for every declared
variable and output whose column the CSV lacks (spec 4.2 asks for all of them).

--stderr FILE (the simulator's standard error) prints `start moved: NAME: GIVEN -> USED` for a
start the model declares fixed or lists as `written` that consistent initialization moved, and
exits 1.
"""
import argparse
import csv
import math
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import model_file  # noqa: E402
from printing import Near, evaluate_exact  # noqa: E402


class CompareError(Exception):
    pass


def _window(model):
    return 1e-6 * (model.t1 - model.t0)


def _times(model, time):
    """The times to evaluate the exact solution at for a row at `time`: the time itself, or a
    Near on each side of an instant within the window."""
    for text in model.instants:
        s = float(text)
        if abs(time - s) <= _window(model):
            return [Near(time, s, -1), Near(time, s, +1)]
    return [time]


def _worst(model, rows, rtol, atol, exact, names=None):
    """(fom, name, time, value, exact) over the rows for the columns `names` (default: exact's)
    with the exact texts `exact` {column: text}."""
    worst = (0.0, "", math.nan, math.nan, math.nan)
    if not rows:
        raise CompareError("the CSV has no rows")
    for row in rows:
        time = float(row["t"])
        best = None
        for at in _times(model, time):
            row_worst = (0.0, "", math.nan, math.nan, math.nan)
            for name in names if names is not None else exact:
                if name not in row:
                    raise CompareError(f"the CSV has no column '{name}'")
                value = float(row[name])
                exact_value = evaluate_exact(exact[name], at)
                fom = abs(value - exact_value) / (rtol * abs(exact_value) + atol)
                if not fom <= row_worst[0]:  # also takes nan
                    row_worst = (fom, name, time, value, exact_value)
            if best is None or row_worst[0] < best[0]:
                best = row_worst
        if not best[0] <= worst[0]:
            worst = best
    return worst


def figure_of_merit(model, rows, rtol, atol):
    """(fom, worst name, time, value, exact) over the CSV rows (dicts name -> text); the better of
    the exact solution and the alternative one, if the header gives one."""
    worst = _worst(model, rows, rtol, atol, model.exact)
    if model.alternative:
        other = _worst(model, rows, rtol, atol, {**model.exact, **model.alternative})
        if other[0] < worst[0]:
            worst = other
    return worst


def sensitivity_columns(model):
    """Every column d(v)/d(p) spec 4.2 asks for: every declared variable and output (the names the
    header gives exact solutions for) and every parameter of `sensitivities:`."""
    return [f"d({name})/d({p})" for p in model.sensitivities for name in model.exact]


def sensitivity_figure_of_merit(model, rows, rtol, atol):
    """(missing columns, worst) of the sensitivity columns; worst as figure_of_merit's, over the
    columns present (None if there are none)."""
    if not rows:
        raise CompareError("the CSV has no rows")
    columns = sensitivity_columns(model)
    missing = [c for c in columns if c not in rows[0]]
    present = [c for c in columns if c in rows[0]]
    if not present:
        return missing, None
    return missing, _worst(model, rows, rtol, atol, model.sensitivity, present)


_MOVED = re.compile(r"^sim:   (?P<name>\S+): (?P<given>\S+) -> (?P<used>\S+)$")


def moved_starts(err):
    """{name: (given, used)} from the lines after "sim: consistent initialization at t = T changed N
    starts (...):", one "sim:   NAME: GIVEN -> USED" per start (none under --quiet)."""
    moved, listing = {}, False
    for line in err.splitlines():
        if line.startswith("sim: consistent initialization at t = "):
            listing = True
        elif listing and (m := _MOVED.match(line)):
            moved[m.group("name")] = (m.group("given"), m.group("used"))
        else:
            listing = False
    return moved


def moved_kept_starts(model, err):
    """[(kind, name, given, used)] for the fixed and written starts that moved."""
    moved = moved_starts(err)
    return [(kind, name) + moved[name] for kind, names in (("fixed", model.fixed),
                                                           ("written", model.written))
            for name in names if name in moved]


def read_rows(csv_path):
    with open(csv_path, newline="") as f:
        return list(csv.DictReader(f))


def compare_files(model_path, csv_path, rtol, atol):
    with open(model_path) as f:
        model = model_file.read(f.read())
    rows = read_rows(csv_path)
    try:
        return figure_of_merit(model, rows, rtol, atol)
    except ValueError as e:
        raise CompareError(f"{csv_path}: {e}") from e


def describe(worst):
    fom, name, time, value, exact = worst
    return f"fom {fom:.3g} (worst: {name} at t = {time:.6g}: {value:.17g}, exact {exact:.17g})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("csv")
    parser.add_argument("--rtol", type=float, default=1e-8)
    parser.add_argument("--atol", type=float, default=1e-8)
    parser.add_argument("--sensitivities", action="store_true",
                        help="compare the sensitivity columns too")
    parser.add_argument("--stderr", help="the simulator's standard error: no fixed or written "
                        "start may have moved")
    args = parser.parse_args()
    status = 0
    try:
        with open(args.model) as f:
            model = model_file.read(f.read())
        rows = read_rows(args.csv)
        print(describe(figure_of_merit(model, rows, args.rtol, args.atol)))
        if args.sensitivities:
            missing, worst = sensitivity_figure_of_merit(model, rows, args.rtol, args.atol)
            if worst is not None:
                print("sensitivity " + describe(worst))
            if missing:
                print(f"sensitivity columns missing: {', '.join(missing)} ({len(missing)} of "
                      f"{len(sensitivity_columns(model))})")
                status = 1
        if args.stderr:
            with open(args.stderr) as f:
                for kind, name, given, used in moved_kept_starts(model, f.read()):
                    print(f"start moved: {kind} {name}: {given} -> {used}")
                    status = 1
    except (CompareError, OSError, ValueError) as e:
        print(f"compare: error: {e}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
