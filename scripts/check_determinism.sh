#!/usr/bin/env bash
# Checks that daec's output is the same from run to run: compiles every bundled model (models/,
# tests/data/, tests/data/runtime/) several times, each run a process of its own (so that the
# addresses, which GiNaC's hashes follow, move), with and without dummy variables, and compares
# the generated C++, the JSON report and the messages byte for byte. See docs/testing.md,
# "Determinism".
#   scripts/check_determinism.sh [RUNS] [MODEL.dae...]
# RUNS defaults to 5; the models default to all bundled ones. DAEC chooses the binary (default
# build/daec of this checkout). Prints one line per model and option set; exits 1 if any output
# differs between runs.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
daec=${DAEC:-$root/build/daec}
runs=${1:-5}
shift $(($# > 0 ? 1 : 0))
if [[ ! -x $daec ]]; then
  echo "check_determinism.sh: no daec at $daec: build it (ninja -C build daec) or set DAEC" >&2
  exit 2
fi
if (($# > 0)); then
  models=("$@")
else
  mapfile -t models < <(cd "$root" && ls models/*.dae tests/data/*.dae tests/data/runtime/*.dae)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
option_sets=("" "--dummies never")
failed=0
for model in "${models[@]}"; do
  for options in "${option_sets[@]}"; do
    hashes=()
    for ((run = 0; run < runs; ++run)); do
      rm -f "$work"/out.cpp "$work"/report.json
      # shellcheck disable=SC2086 # the option set is split into words on purpose
      (cd "$root" && timeout 300 "$daec" "$model" $options -o "$work/out.cpp" \
        --report-json "$work/report.json" >"$work/messages" 2>&1)
      echo "exit $?" >>"$work/messages"
      hashes+=("$(cat "$work"/messages "$work"/out.cpp "$work"/report.json 2>/dev/null | md5sum)")
    done
    distinct=$(printf '%s\n' "${hashes[@]}" | sort -u | wc -l)
    label="$model${options:+ $options}"
    if ((distinct == 1)); then
      echo "same     $label"
    else
      echo "DIFFERS  $label ($distinct different outputs in $runs runs)"
      failed=1
    fi
  done
done
exit $failed
