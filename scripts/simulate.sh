#!/usr/bin/env bash
# Generates, builds and runs the standalone simulator of a model in three visible steps:
#   scripts/simulate.sh MODEL.dae [simulator options...]
# 1. build/daec MODEL.dae --main -o build/simulators/STEM.cpp   (the model + a SUNDIALS main)
# 2. g++ -O2 ... -lsundials_cvode -lsundials_ida ... -lklu      (build/simulators/STEM)
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
out="$root/build/simulators"
mkdir -p "$out"

"$root/build/daec" "$model" --main -o "$out/$stem.cpp" >&2
g++ -std=c++17 -O2 -Wall -Wextra -I/usr/include/suitesparse -o "$out/$stem" "$out/$stem.cpp" \
  -lsundials_cvode -lsundials_ida -lsundials_nvecserial -lsundials_sunlinsoldense \
  -lsundials_sunmatrixdense -lsundials_sunlinsolklu -lsundials_sunmatrixsparse -lklu -lm
echo "simulate: built $out/$stem" >&2
exec "$out/$stem" "$@"
