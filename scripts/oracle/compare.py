#!/usr/bin/env python3
"""Compares a simulator's CSV with the exact solution in an oracle model's header.

    compare.py MODEL.dae RESULT.csv [--rtol R] [--atol A]

prints `fom F (worst: NAME at t = T: V, exact E)` where F is the figure of merit of spec
section 5.1, max |y - exact| / (rtol*|exact| + atol) over every declared variable and every row,
and exits 0; exits 2 with a message if the CSV lacks a variable's column, holds a value that is
not a number, or has no rows.
"""
import argparse
import csv
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import model_file  # noqa: E402
from printing import evaluate_exact  # noqa: E402


class CompareError(Exception):
    pass


def figure_of_merit(model, rows, rtol, atol):
    """(fom, worst name, time, value, exact) over the CSV rows (dicts name -> text)."""
    worst = (0.0, "", math.nan, math.nan, math.nan)
    if not rows:
        raise CompareError("the CSV has no rows")
    for row in rows:
        time = float(row["t"])
        for name, text in model.exact.items():
            if name not in row:
                raise CompareError(f"the CSV has no column '{name}'")
            value = float(row[name])
            exact = evaluate_exact(text, time)
            fom = abs(value - exact) / (rtol * abs(exact) + atol)
            if not fom <= worst[0]:  # also takes nan
                worst = (fom, name, time, value, exact)
    return worst


def compare_files(model_path, csv_path, rtol, atol):
    with open(model_path) as f:
        model = model_file.read(f.read())
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
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
    args = parser.parse_args()
    try:
        print(describe(compare_files(args.model, args.csv, args.rtol, args.atol)))
    except (CompareError, OSError) as e:
        print(f"compare: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
