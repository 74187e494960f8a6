#!/bin/sh
# bench/tables.sh — how interp tables scale (docs/language.md, "Tables: interp"): an RC circuit
# v' + v = interp(t, ts, us) driven by a table of N points on [0, 6] (us = sin(ts)), for each N:
# daec's CPU time for `-o` (the table is one conditional expression: a balanced tree of one
# relation per breakpoint), the generated file's size, the number of conditions, and the
# simulator (built against the compiled runtime, as tests/docs/build_simulator.sh does) on
# [0, 6] at --rtol 1e-10: its CPU time, events, steps, and its largest error against the exact
# solution (piece by piece, as in models/table_circuit.dae). Writes the table to stdout;
# bench/TABLES.md holds the last run's.
#   bench/tables.sh                  N = 10 100 1000
#   SIZES="10 200" bench/tables.sh
# Environment: SIZES, DAEC (default build/daec).
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
SIZES=${SIZES:-10 100 1000}
DAEC=${DAEC:-$root/build/daec}
[ -x "$DAEC" ] || { echo "tables.sh: no daec at $DAEC" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "tables.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/daec-tables.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# table.dae with n points.
make_model() {
  python3 - "$1" > "$work/table.dae" <<'PY'
import math, sys
n = int(sys.argv[1])
ts = [6.0 * k / (n - 1) for k in range(n)]
print("model table;")
print("parameter ts[%d] = {%s};" % (n, ", ".join(repr(x) for x in ts)))
print("parameter us[%d] = {%s};" % (n, ", ".join(repr(math.sin(x)) for x in ts)))
print("variable v(start = 0, fixed = true), u;")
print("equation\n  v' + v = u;\n  u = interp(t, ts, us);\nend")
PY
}

# The largest error of the CSV on stdin (t,v,u) against the exact solution for n points.
max_error() {
  python3 -c '
import csv, math, sys
n = int(sys.argv[1])
ts = [6.0 * k / (n - 1) for k in range(n)]
us = [math.sin(x) for x in ts]
def exact(t):
    v, at = 0.0, 0.0
    for k in range(1, n):
        if at >= t: break
        end = min(ts[k], t)
        b = (us[k] - us[k - 1]) / (ts[k] - ts[k - 1])
        a = us[k - 1] + b * (at - ts[k - 1])
        s = end - at
        v = a + b * (s - 1) + (v - a + b) * math.exp(-s)
        at = end
    return v
rows = list(csv.DictReader(sys.stdin))
print("%.1e" % max(abs(float(r["v"]) - exact(float(r["t"]))) for r in rows))' "$1"
}

cpu() {  # user + system seconds of /usr/bin/time -f "%U %S"
  awk '{ printf "%.2f", $1 + $2 }' "$1"
}

echo "| N | daec -o CPU s | generated KB | conditions | simulation CPU s | events | steps | max error |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for n in $SIZES; do
  make_model "$n"
  /usr/bin/time -f "%U %S" -o "$work/daec.time" "$DAEC" "$work/table.dae" -o "$work/table.cpp" >/dev/null
  kb=$(( $(wc -c < "$work/table.cpp") / 1024 ))
  conditions=$(sed -n 's/.*static constexpr int num_conditions = \([0-9]*\);.*/\1/p' "$work/table.cpp" | head -1)
  (cd "$work" && "$root/tests/docs/build_simulator.sh" table.dae sim)
  /usr/bin/time -f "%U %S" -o "$work/sim.time" "$work/sim" --t-end 6 --step 0.05 --rtol 1e-10 \
    --atol 1e-10 --no-progress > "$work/out.csv" 2> "$work/sim.err"
  stats=$(tail -1 "$work/sim.err")
  events=$(echo "$stats" | sed -n 's/.*events \([0-9]*\).*/\1/p')
  steps=$(echo "$stats" | sed -n 's/.*steps \([0-9]*\).*/\1/p')
  error=$(max_error "$n" < "$work/out.csv")
  echo "| $n | $(cpu "$work/daec.time") | $kb | $conditions | $(cpu "$work/sim.time") | $events | $steps | $error |"
done
