#!/usr/bin/env bash
# A model-library run: converts every bundled model (models/*.dae) plus pendulum chains of several
# sizes (models/pendulum_chain.dae with its `parameter N` changed, one file per size: -D would set
# one size for the whole batch) in one batch, three times — twice with -j 2, once with -j 1 —
# and compares the three output directories byte for byte. Batch mode promises the same bytes
# however many jobs run and however often it runs (docs/command-line.md); this checks it on the whole library.
#   scripts/library_run.sh [OUTDIR]        (default: build/library-run; emptied first)
# Environment: DAEC (default build/daec), CHAINS (default "2 4 8 16 32 64").
# Prints each run's time (daec's own summary line) and a verdict; exits 0 only if all three runs
# converted every model and wrote identical files.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
daec=${DAEC:-$root/build/daec}
out=${1:-$root/build/library-run}
chains=${CHAINS:-"2 4 8 16 32 64"}

if [[ ! -x $daec ]]; then
  echo "library_run.sh: no daec at '$daec' (build it first, or set DAEC)" >&2
  exit 2
fi

rm -rf "$out"
mkdir -p "$out/chains"
for n in $chains; do
  sed "s/^parameter N = [0-9]*/parameter N = $n/" "$root/models/pendulum_chain.dae" \
    > "$out/chains/pendulum_chain$n.dae"
done
inputs=("$root"/models/*.dae "$out"/chains/*.dae)
echo "library run: ${#inputs[@]} models (bundled + chains N = ${chains// /, }), output in $out"

failed=0
# run NAME JOBS: one batch into $out/NAME, its log in $out/NAME.log.
run() {
  local status=0
  "$daec" "${inputs[@]}" --output-dir "$out/$1" -j "$2" > "$out/$1.log" 2>&1 || status=$?
  printf '  %-6s -j %s: %s\n' "$1" "$2" "$(grep '^converted ' "$out/$1.log" | tail -n 1)"
  if ((status != 0)); then
    echo "  $1: daec exited with status $status (see $out/$1.log)"
    failed=1
  fi
}
run j2-a 2
run j2-b 2
run j1 1

# compare A B: identical file lists and bytes.
compare() {
  if diff -r "$out/$1" "$out/$2" > "$out/diff-$1-$2.txt" 2>&1; then
    echo "  $1 = $2"
  else
    echo "  $1 and $2 DIFFER (see $out/diff-$1-$2.txt)"
    failed=1
  fi
}
compare j2-a j2-b
compare j2-a j1

written=$(find "$out/j2-a" -type f -name '*.cpp' | wc -l)
if ((written != ${#inputs[@]})); then
  echo "  j2-a holds $written files for ${#inputs[@]} models"
  failed=1
fi
if ((failed)); then
  echo "verdict: FAILED"
  exit 1
fi
echo "verdict: deterministic — $written files, byte-identical across two -j 2 runs and a -j 1 run"
