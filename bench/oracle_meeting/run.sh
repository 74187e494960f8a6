#!/usr/bin/env bash
# The full extended correctness oracle (scripts/oracle/README.md): COUNT random models with known
# exact solutions from SEED on, of every kind (the classic ones and those where features meet:
# promoted unknowns beside written starts, resets, sensitivities, initial equations, conditions on
# algebraic unknowns), each run with every method of the simulator; writes the table of every run
# (bench/oracle_meeting/results.tsv) and its summary (bench/oracle_meeting/RESULTS.md).
#   bench/oracle_meeting/run.sh                 200 models from the default seed, every method
#   COUNT=40 SEED=61200001 JOBS=1 bench/oracle_meeting/run.sh     a slice
# Settings (environment): COUNT (200), SEED (61300001), KIND (all; a kind, `classic`, `meeting` or
# a comma-separated list), METHODS (all; or a comma-separated list, or `default`), JOBS (2),
# RTOL, ATOL (1e-8), THRESHOLD (10), DAEC (build/daec, copied to OUT first so that a rebuild
# during the run does not change it), OUT (build/oracle-meeting), RESULTS (bench/oracle_meeting:
# where results.tsv and RESULTS.md go). About 8 s a model on a loaded two-core machine (each
# simulator linked to the build's compiled runtime), so the 200 take half an hour at JOBS=1.
set -euo pipefail
cd "$(dirname "$0")/../.."

count=${COUNT:-200}
seed=${SEED:-61300001}
kind=${KIND:-all}
methods=${METHODS:-all}
jobs=${JOBS:-2}
out=${OUT:-build/oracle-meeting}
results=${RESULTS:-bench/oracle_meeting}
daec=${DAEC:-build/daec}

mkdir -p "$out" "$results"
cp "$daec" "$out/daec"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
command="COUNT=$count SEED=$seed KIND=$kind METHODS=$methods JOBS=$jobs RTOL=${RTOL:-1e-8} ATOL=${ATOL:-1e-8} THRESHOLD=${THRESHOLD:-10} bench/oracle_meeting/run.sh"
status=0
/usr/bin/python3 scripts/oracle/run.py "$count" "$seed" --kind "$kind" --methods "$methods" \
  -j "$jobs" --out "$out" --daec "$out/daec" --tsv "$out/results.tsv" \
  ${RTOL:+--rtol "$RTOL"} ${ATOL:+--atol "$ATOL"} ${THRESHOLD:+--threshold "$THRESHOLD"} \
  | tee "$out/run.log" || status=$?
cp "$out/results.tsv" "$results/results.tsv"
/usr/bin/python3 bench/oracle_meeting/report.py "$results/results.tsv" --command "$command" \
  --commit "$commit" > "$results/RESULTS.md"
echo "oracle_meeting: wrote $results/results.tsv and $results/RESULTS.md (run log: $out/run.log)"
exit "$status"
