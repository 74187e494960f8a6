#!/usr/bin/python3
"""Writes the robustness benchmark's RESULTS.md from its results.tsv (bench/robustness/README.md).

    report.py RESULTS.TSV RESULTS.MD

results.tsv starts with `# key=value` lines (command, date, commit, machine; run.sh writes them),
then a header and one row per run (runner.py). RESULTS.md: the command, date, commit and machine;
what was run (a slice or everything); the share of runs that failed per method (and per case
group); the most common causes; and the table of every failed run.
"""

import collections
import re
import sys

from runner import ALL_GRIDS, ALL_METHODS, ALL_TOLS, TESTSET  # the full selection

ALL = {"models": 17, "accuracy": 10, "events": 7, "testset": len(TESTSET), "diode": 2, "oracle": 50}
GRID_TEXT = {"default": "default step (T-T0)/100", "fine": "step (T-T0)/1000",
             "end": "end time only"}
# Cases that must fail, and the words of the cause they must fail with: the sliding mode of
# tests/data/events_chatter.dae ends with the chattering error on every method. Such a run counts
# as a failure only when it does not fail so.
EXPECTED_FAILURES = {"events/events_chatter": "(chattering: neither branch can be followed)"}


def is_failure(row):
    """Whether a run failed: not ok, or for a case that must fail, not failed as it must."""
    expected = EXPECTED_FAILURES.get(row["case"])
    if expected is None:
        return row["status"] != "ok"
    return not (row["status"] == "failed" and expected in row.get("cause", ""))


def read(path):
    """(meta dict, rows as dicts)."""
    meta, rows, header = {}, [], None
    with open(path) as handle:
        for line in handle:
            line = line.rstrip("\n")
            if line.startswith("# ") and "=" in line:
                key, value = line[2:].split("=", 1)
                meta[key] = value
            elif header is None:
                header = line.split("\t")
            elif line:
                rows.append(dict(zip(header, line.split("\t"))))
    return meta, rows


def cause_class(cause):
    """A cause with its numbers and names taken out, so that alike failures count together."""
    text = re.sub(r"'[^']*'", "'…'", cause)
    text = re.sub(r"[-+]?\d+(\.\d+)?([eE][-+]?\d+)?", "N", text)
    return text


def ordered(values, order):
    return [v for v in order if v in values] + sorted(v for v in values if v not in order)


def main():
    meta, rows = read(sys.argv[1])
    out = []
    put = out.append
    cases = sorted({row["case"] for row in rows})
    methods = ordered({row["method"] for row in rows}, ALL_METHODS)
    tols = ordered({row["tol"] for row in rows}, ALL_TOLS)
    grids = ordered({row["grid"] for row in rows}, ALL_GRIDS)
    groups = collections.Counter(case.split("/")[0] for case in cases)
    complete = (all(groups.get(g, 0) >= n for g, n in ALL.items()) and methods == ALL_METHODS
                and tols == ALL_TOLS and grids == ALL_GRIDS)
    failed = [row for row in rows if is_failure(row)]

    put("# Robustness of the simulator: every case, method, tolerance and output grid")
    put("")
    put(f"Command: `{meta.get('command', '?')}`  ")
    put(f"Date: {meta.get('date', '?')}  ")
    put(f"Commit (daec and its runtime): {meta.get('commit', '?')}  ")
    put(f"Machine: {meta.get('machine', '?')}")
    put("")
    put("Written by `bench/robustness/report.py` from [`results.tsv`](results.tsv); what the "
        "benchmark does: [`README.md`](README.md).")
    put("")
    if complete:
        put("**The full benchmark**: every case, method, tolerance and grid.")
    else:
        put("**This is a slice of the benchmark, not the full run.** It ran:")
        put("")
        for group in ALL:
            put(f"- {group}: {groups.get(group, 0)} of {ALL[group]} cases"
                + (f" ({', '.join(c.split('/', 1)[1] for c in cases if c.startswith(group + '/'))})"
                   if 0 < groups.get(group, 0) < ALL[group] else ""))
        put(f"- methods: {', '.join(methods)}" + ("" if methods == ALL_METHODS else
                                                   f" (of {', '.join(ALL_METHODS)})"))
        put(f"- rtol = atol: {', '.join(tols)}" + ("" if tols == ALL_TOLS else
                                                   f" (of {', '.join(ALL_TOLS)})"))
        put(f"- output grids: {', '.join(GRID_TEXT.get(g, g) for g in grids)}"
            + ("" if grids == ALL_GRIDS else " (of all three)"))
    put("")
    put(f"{len(rows)} runs, **{len(failed)} failed** "
        f"({100.0 * len(failed) / max(1, len(rows)):.1f} %).")
    put("")
    expected = sorted(case for case in EXPECTED_FAILURES if case in cases)
    if expected:
        put("Cases that must fail, counted as failed only where they do not fail as they must: "
            + "; ".join(f"`{case}` (`{EXPECTED_FAILURES[case]}`)" for case in expected) + ".")
        put("")

    put("## Failed runs per method")
    put("")
    put("| method | runs | failed | share | failed: by error | by time limit | other |")
    put("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for method in methods:
        mine = [row for row in rows if row["method"] == method]
        bad = [row for row in mine if is_failure(row)]
        errors = sum(row["status"] == "failed" for row in bad)
        timeouts = sum(row["status"] == "time limit" for row in bad)
        put(f"| {method} | {len(mine)} | {len(bad)} | {100.0 * len(bad) / max(1, len(mine)):.1f} % "
            f"| {errors} | {timeouts} | {len(bad) - errors - timeouts} |")
    put("")
    put("Per case group and method (failed / runs):")
    put("")
    put("| group | " + " | ".join(methods) + " |")
    put("| --- |" + " ---: |" * len(methods))
    for group in sorted(groups):
        cells = []
        for method in methods:
            mine = [row for row in rows
                    if row["method"] == method and row["case"].split("/")[0] == group]
            cells.append(f"{sum(is_failure(row) for row in mine)} / {len(mine)}")
        put(f"| {group} | " + " | ".join(cells) + " |")
    put("")
    put("Per tolerance and grid (failed / runs, all methods):")
    put("")
    put("| rtol = atol | " + " | ".join(GRID_TEXT.get(g, g) for g in grids) + " |")
    put("| --- |" + " ---: |" * len(grids))
    for tol in tols:
        cells = []
        for grid in grids:
            mine = [row for row in rows if row["tol"] == tol and row["grid"] == grid]
            cells.append(f"{sum(is_failure(row) for row in mine)} / {len(mine)}")
        put(f"| {tol} | " + " | ".join(cells) + " |")
    put("")

    put("## Causes")
    put("")
    put("The failed runs by cause, numbers and quoted names replaced by `N` and `'…'`, most "
        "common first, with the cases they hit:")
    put("")
    put("| runs | cause | cases (methods) |")
    put("| ---: | --- | --- |")
    by_cause = collections.defaultdict(list)
    for row in failed:
        by_cause[cause_class(row["cause"]) or row["status"]].append(row)
    for cause, hit in sorted(by_cause.items(), key=lambda item: (-len(item[1]), item[0])):
        where = collections.defaultdict(set)
        for row in hit:
            where[row["case"]].add(row["method"])
        text = "; ".join(f"{case} ({', '.join(ordered(ms, ALL_METHODS))})"
                         for case, ms in sorted(where.items()))
        cause = cause.replace("|", "\\|")
        put(f"| {len(hit)} | {cause} | {text} |")
    put("")

    put("## Every failed run")
    put("")
    if not failed:
        put("None.")
    else:
        put("| model | method | rtol = atol | grid | time reached (of T) | steps | status | cause "
            "| the simulator's note |")
        put("| --- | --- | ---: | --- | ---: | ---: | --- | --- | --- |")
        order = {m: i for i, m in enumerate(methods)}
        tol_order = {t: i for i, t in enumerate(tols)}
        grid_order = {g: i for i, g in enumerate(grids)}
        for row in sorted(failed, key=lambda r: (r["case"], order[r["method"]],
                                                 tol_order[r["tol"]], grid_order[r["grid"]])):
            if "t_end" in row:
                ends = {row["t_end"]}
            else:  # results.tsv without the column: the end time of the case's finished runs
                ends = {r["t_reached"] for r in rows
                        if r["case"] == row["case"] and r["status"] == "ok"}
            end = f" (of {next(iter(ends))})" if len(ends) == 1 else ""
            cause = row["cause"].replace("|", "\\|")
            note = row.get("note", "").replace("|", "\\|")
            put(f"| {row['case']} | {row['method']} | {row['tol']} | {row['grid']} | "
                f"{row['t_reached']}{end} | {row['steps']} | {row['status']} | {cause} | {note} |")
    put("")
    with open(sys.argv[2], "w") as handle:
        handle.write("\n".join(out))


if __name__ == "__main__":
    main()
