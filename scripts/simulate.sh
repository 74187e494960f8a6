#!/usr/bin/env bash
# Generates, builds and runs the standalone simulator of a model in three visible steps:
#   scripts/simulate.sh MODEL.dae [simulator options...]
# 1. build/daec MODEL.dae --main -o build/simulators/STEM.cpp   (the model + a SUNDIALS main)
# 2. scripts/compile_simulator.sh (g++ -O2 ... -lsundials_cvode ... -lklu) (build/simulators/STEM)
# 3. build/simulators/STEM [options]                             (CSV on stdout, statistics on stderr)
# Options go to the simulator, e.g. --t-end 2 --set g=1 --output run.csv; --help lists them.
set -euo pipefail

if (($# < 1)); then
  echo "usage: scripts/simulate.sh MODEL.dae [simulator options...]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
model=$1
shift
stem=$(basename "$model")
stem=${stem%.*}
mkdir -p "$root/build/simulators"
# Relative to where the script is run from (build/simulators from the repository's root), so that
# what it prints reads the same on every machine.
out=$(realpath --relative-to=. "$root/build/simulators")

"$root/build/daec" "$model" --main -o "$out/$stem.cpp" >&2
"$root/scripts/compile_simulator.sh" "$out/$stem.cpp" "$out/$stem"
echo "simulate: built $out/$stem" >&2
exec "$(realpath "$out/$stem")" "$@"
