#!/usr/bin/env python3
"""The summary of an extended oracle run (bench/oracle_meeting/run.sh) as Markdown.

    report.py RESULTS.tsv [--command TEXT] [--commit HASH] > RESULTS.md

RESULTS.tsv is scripts/oracle/run.py's --tsv: one line per model and method (seed, kind, index,
daec_index, method, status, fom, sensitivity_fom, reasons, seconds; a model that never reached
the simulator has one line, method '-').
"""
import argparse
import csv
import datetime
import os
import platform
import subprocess
import sys
from collections import Counter, defaultdict


def machine():
    cores = os.cpu_count()
    try:
        compiler = subprocess.run(["g++", "--version"], capture_output=True, text=True,
                                  check=False).stdout.splitlines()[0]
    except OSError:
        compiler = "g++ not found"
    return f"{cores} cores, {platform.system()} {platform.release()}, {compiler}"


def reasons_of(text):
    """The failure categories of a reasons cell ('category [method]: detail | ...')."""
    categories = []
    for part in text.split(" | ") if text else []:
        category = part.split(": ", 1)[0]
        if category.endswith("]") and " [" in category:
            category = category[:category.rindex(" [")]
        categories.append(category)
    return categories


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tsv")
    parser.add_argument("--command", default="bench/oracle_meeting/run.sh")
    parser.add_argument("--commit", default="unknown")
    parser.add_argument("--note", default="", help="a paragraph after the header (a slice, ...)")
    args = parser.parse_args()
    with open(args.tsv, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    methods = list(dict.fromkeys(r["method"] for r in rows if r["method"] != "-"))
    kinds = list(dict.fromkeys(r["kind"] for r in rows))
    seeds = list(dict.fromkeys(r["seed"] for r in rows))
    by_seed = defaultdict(list)
    for r in rows:
        by_seed[r["seed"]].append(r)
    passed = [s for s in seeds if all(r["status"] == "ok" for r in by_seed[s])]
    out = []
    w = out.append
    w("# The extended correctness oracle: every kind, every method")
    w("")
    w(f"Command: `{args.command}`  ")
    w(f"Date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC  ")
    w(f"Commit: {args.commit}  ")
    w(f"Machine: {machine()}")
    w("")
    w("Written by `bench/oracle_meeting/report.py` from [`results.tsv`](results.tsv); what the "
      "oracle checks: [`scripts/oracle/README.md`](../../scripts/oracle/README.md).")
    w("")
    if args.note:
        w(args.note)
        w("")
    w(f"**{len(passed)} of {len(seeds)} models passed on every method** "
      f"({', '.join(methods) or 'none simulated'}); seeds {seeds[0] if seeds else '-'} ... "
      f"{seeds[-1] if seeds else '-'}.")
    w("")
    w("## Per kind and method (passed / models)")
    w("")
    w("| kind | models | " + " | ".join(methods) + " | every method |")
    w("| --- | ---: | " + " | ".join("---:" for _ in methods) + " | ---: |")
    for kind in kinds + ["all"]:
        ks = [s for s in seeds if kind == "all" or by_seed[s][0]["kind"] == kind]
        cells = []
        for m in methods:
            ok = sum(1 for s in ks if any(r["method"] == m and r["status"] == "ok"
                                          for r in by_seed[s]))
            cells.append(f"{ok} / {len(ks)}")
        every = sum(1 for s in ks if s in passed)
        name = f"**{kind}**" if kind == "all" else kind
        w(f"| {name} | {len(ks)} | " + " | ".join(cells) + f" | {every} / {len(ks)} |")
    w("")
    w("## Failures by reason and method (runs)")
    w("")
    counts = Counter()
    for r in rows:
        for category in set(reasons_of(r["reasons"])):
            counts[(category, r["method"])] += 1
    categories = sorted({c for c, _ in counts})
    if categories:
        columns = methods + (["-"] if any(m == "-" for _, m in counts) else [])
        w("| reason | " + " | ".join(columns) + " |")
        w("| --- | " + " | ".join("---:" for _ in columns) + " |")
        for c in categories:
            w(f"| {c} | " + " | ".join(str(counts.get((c, m), 0)) for m in columns) + " |")
    else:
        w("None.")
    w("")
    w("## Every failed run")
    w("")
    failed = [r for r in rows if r["status"] != "ok"]
    if failed:
        w("| seed | kind | method | fom | sensitivity fom | reasons |")
        w("| ---: | --- | --- | ---: | ---: | --- |")
        for r in failed:
            reasons = r["reasons"].replace("|", "/")
            if len(reasons) > 300:
                reasons = reasons[:297] + "..."
            w(f"| {r['seed']} | {r['kind']} | {r['method']} | {r['fom']} | "
              f"{r['sensitivity_fom']} | {reasons} |")
    else:
        w("None.")
    w("")
    w("Reproduce one: `/usr/bin/python3 scripts/oracle/generate.py --seed SEED --kind KIND -o "
      "m.dae`, then the steps of scripts/oracle/README.md (\"Reproducing one failure\"), with "
      "`--method METHOD`, and `--sensitivities` as the header's `sensitivities:` line says.")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
