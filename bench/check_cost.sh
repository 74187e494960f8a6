#!/bin/sh
# bench/check_cost.sh — what `daec --check` costs against `daec -o` on models of many equations.
# --check must cost no more than generating the code; it once kept a dense dependency table (one
# cell per equation and unknown), quadratic in time and memory: 20,000 scalar ODEs took 18.5 s,
# 200,000 did not finish in 300 s. Two families, at each N:
#   ode   N scalar equations written out, x1' = -x1; ... (the text itself is large: 200,000
#         equations make 4.5 MB)
#   dae   one loop over N, x[i]' = -y[i]; y[i] = 2*x[i] (2N unknowns, half of them algebraic, the
#         model sized by -D N=...)
# daec runs without its time limit (--time-limit 0): on a loaded machine the largest `-o` passes
# the default ten minutes of wall time. For each: CPU time (user + system: daec runs in one thread, and on a shared machine the wall time
# stretches with the load), wall time and peak memory of `daec --check` and of
# `daec -o /dev/null`, from /usr/bin/time. Writes the table to stdout; bench/CHECK_COST.md holds
# the last run's.
#   bench/check_cost.sh                  N = 20000 40000 200000 (about 15 minutes on this machine)
#   SIZES="2000 20000" bench/check_cost.sh
# Environment: SIZES, DAEC (default build/daec).
set -eu
cd "$(dirname "$0")/.."
SIZES=${SIZES:-20000 40000 200000}
DAEC=${DAEC:-$(pwd)/build/daec}
[ -x "$DAEC" ] || { echo "check_cost.sh: no daec at $DAEC" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "check_cost.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/daec-check-cost.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

cat > "$work/dae.dae" <<'DAE'
model loopdae;
parameter N = 10;
variable x[N](start = 1), y[N];
equation
  for i in 1:N loop
    x[i]' = -y[i];
    y[i] = 2*x[i];
  end for;
end
DAE

# ode.dae with n scalar equations.
make_ode() {
  awk -v n="$1" 'BEGIN {
    print "model ode;"; printf "variable x1(start = 1)";
    for (i = 2; i <= n; ++i) printf ", x%d(start = 1)", i;
    print ";"; print "equation";
    for (i = 1; i <= n; ++i) printf "  x%d'"'"' = -x%d;\n", i, i;
    print "end" }' > "$work/ode.dae"
}

# "CPU s | wall s | MB" of one daec run (its status must be 0).
measure() {
  /usr/bin/time -f '%U %S %e %M' -o "$work/time.txt" "$DAEC" --time-limit 0 "$@" \
    > /dev/null 2> "$work/err.txt" ||
    { echo "check_cost.sh: daec $* failed:" >&2; cat "$work/err.txt" >&2; exit 1; }
  awk '{ printf "%.2f s | %.2f s | %d MB", $1 + $2, $3, $4 / 1024 }' "$work/time.txt"
}

echo "| family | N | --check CPU | wall | peak | -o CPU | wall | peak |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for n in $SIZES; do
  make_ode "$n"
  echo "| ode | $n | $(measure "$work/ode.dae" --check) | $(measure "$work/ode.dae" -o /dev/null) |"
  echo "| dae | $n | $(measure "$work/dae.dae" -D "N=$n" --check) | $(measure "$work/dae.dae" -D "N=$n" -o /dev/null) |"
done
