#!/usr/bin/env bash
# bench/robustness/run.sh — the robustness benchmark, the one command: runs every case (the
# bundled models, the problems of bench/accuracy, the event models of tests/data, two Test Set
# problems (slider_crank.dae, two_bit_adder.dae), the diode array of diode_array.dae and 50 oracle
# models) with every method, tolerance and output grid, one
# simulator per case built against the compiled runtime, each run under a time limit, and reports
# the failures: bench/robustness/results.tsv (one row per run, runner.py) and RESULTS.md
# (report.py). bench/robustness/README.md describes the cases and the settings.
#   bench/robustness/run.sh                                         everything
#   CASES="models diode" TOLS="1e-6 1e-10" bench/robustness/run.sh  a slice
#   RENDER_ONLY=yes bench/robustness/run.sh                         RESULTS.md from results.tsv
# Environment (all optional): CASES (names or prefixes: models accuracy events testset diode
# oracle, or e.g. models/pendulum; default all), METHODS (radau5 radau5-dae bdf ida), TOLS (1e-4
# 1e-6 1e-8 1e-10), GRIDS (default fine end), JOBS (runs at once, default 1), TIME_LIMIT (seconds
# per run, default 60), ORACLE_SEEDS (default 73310001-73310050), BUILD_DIR (default build: its
# daec and compiled runtime, brought up to date first), OUT (simulators and scratch, default
# BUILD_DIR/robustness).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-build}
case $BUILD_DIR in /*) build=$BUILD_DIR ;; *) build=$root/$BUILD_DIR ;; esac
OUT=${OUT:-$build/robustness}
export JOBS=${JOBS:-1}
results=$here/results.tsv
command="bench/robustness/run.sh"
for name in CASES METHODS TOLS GRIDS TIME_LIMIT ORACLE_SEEDS; do
  if [[ -n ${!name:-} ]]; then command="$name=\"${!name}\" $command"; fi
done
command="JOBS=$JOBS $command"

render() {
  /usr/bin/python3 "$here/report.py" "$results" "$here/RESULTS.md"
}
if [[ ${RENDER_ONLY:-no} == yes ]]; then
  render
  exit 0
fi

cmake --build "$build" --target daec daec_runtime -j "$JOBS" >/dev/null
started=$(date -u '+%Y-%m-%d %H:%M UTC')
# The commit at the start: what the simulators are built from.
commit=$(git -C "$root" rev-parse --short HEAD)
# Uncommitted changes other than the benchmark's own outputs make the results unreproducible.
if [[ -n $(git -C "$root" status --porcelain --untracked-files=no -- . \
    ':!bench/robustness/RESULTS.md' ':!bench/robustness/results.tsv' 2>/dev/null) ]]; then
  commit="$commit (with uncommitted changes)"
fi
/usr/bin/python3 "$here/runner.py" --root "$root" --build "$build" --out "$OUT"
{
  echo "# command=$command"
  echo "# date=$started"
  echo "# commit=$commit"
  echo "# machine=$(nproc) cores, $(uname -sr), $(g++ --version | head -n 1), load $(cut -d ' ' -f 1-3 /proc/loadavg) at the end"
  cat "$OUT/results.tsv"
} >"$results"
render
echo "robustness: wrote $results and $here/RESULTS.md" >&2
