#!/usr/bin/env python3
"""The largest error of a simulation's CSV against reference.py's, each value on the scale
1 + |reference value|, over the reference's times and columns (the times must be among the
simulation's rows).

usage: compare.py SIMULATION.csv REFERENCE.csv   prints the error and the column and time of it
"""
import csv
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    simulated = {round(float(r["t"]), 9): r for r in csv.DictReader(open(sys.argv[1]))}
    worst = (0.0, "-", 0.0)
    for row in csv.DictReader(open(sys.argv[2])):
        t = round(float(row["t"]), 9)
        if t not in simulated:
            sys.exit(f"compare.py: no row at t = {t} in {sys.argv[1]}")
        for name, value in row.items():
            if name == "t":
                continue
            error = abs(float(simulated[t][name]) - float(value)) / (1 + abs(float(value)))
            worst = max(worst, (error, name, t))
    print(f"{worst[0]:.1e} ({worst[1]} at t = {worst[2]:g})")


if __name__ == "__main__":
    main()
