#!/usr/bin/env bash
# Checks that a change of the Radau5 code (include/daec/integrators/radau5*.hpp) changes no bit of
# its results:
#   scripts/radau_identity.sh record DIR   # before the change: the reference outputs into DIR
#   scripts/radau_identity.sh check DIR    # after it: the same runs, compared byte for byte
# The runs: the simulators of several bundled models (built against the build tree's
# daec_runtime, as the end-to-end tests build them) with --method radau5 and radau5-dae at
# rtol 1e-4, 1e-6, 1e-8 and 1e-10, their CSV output and statistics line; and
# scripts/radau_identity/driver.cpp, Radau5 run directly on tests/runtime/radau5_problems.h with every
# counter of its statistics. BUILD (default build) is the build tree; daec and daec_runtime are
# rebuilt there first (ninja -j1).
set -euo pipefail

if (($# != 2)) || [[ $1 != record && $1 != check ]]; then
  echo "usage: scripts/radau_identity.sh record|check DIR" >&2
  exit 2
fi
mode=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD:-$root/build}"
out="$dir/$mode"
work="$dir/work"
rm -rf "$out" "$work"
mkdir -p "$out" "$work"

ninja -C "$build" -j1 daec daec_runtime >/dev/null
libraries="-lsundials_cvode -lsundials_ida -lsundials_nvecserial -lsundials_sunlinsoldense
  -lsundials_sunmatrixdense -lsundials_sunlinsolklu -lsundials_sunmatrixsparse -lklu -lm"

# model file | daec arguments | simulator arguments | name
models=(
  "models/pendulum.dae||--t-end 5|pendulum"
  "models/double_pendulum.dae||--t-end 3|double_pendulum"
  "models/fekete.dae|-D N=3|--t-end 2|fekete3"
  "models/rlc_circuit.dae|||rlc_circuit"
  "models/reaction_diffusion.dae||--linear-solver klu|reaction_diffusion_klu"
  "models/singular_mass_matrix.dae|||singular_mass_matrix"
  "tests/data/half_wave_rectifier.dae|||half_wave_rectifier"
  "tests/data/events_growth.dae|||events_growth"
)
runs=0
for entry in "${models[@]}"; do
  IFS='|' read -r model daec_arguments sim_arguments name <<<"$entry"
  # shellcheck disable=SC2086
  "$build/daec" "$root/$model" $daec_arguments -o "$work/$name.cpp" --header "$work/$name.h"
  space=$(sed -n 's/^namespace \([A-Za-z_0-9]*\) .*/\1/p' "$work/$name.h" | head -n 1)
  cat >"$work/${name}_main.cpp" <<MAIN
#include "$name.h"
#include <daec/runtime/model_adapter.hpp>
#include <daec/runtime/run.hpp>
int main(int argc, char** argv) {
  return daec::runtime::run(argc, argv, daec::runtime::ModelAdapter<::$space::Model>{});
}
MAIN
  # shellcheck disable=SC2086
  g++ -std=c++17 -O2 -I "$root/include" -I/usr/include/suitesparse "$work/$name.cpp" \
    "$work/${name}_main.cpp" "$build/runtime/libdaec_runtime.a" -o "$work/$name" $libraries
  for method in radau5 radau5-dae; do
    for rtol in 1e-4 1e-6 1e-8 1e-10; do
      run="$out/$name-$method-$rtol"
      # shellcheck disable=SC2086
      "$work/$name" --method "$method" --rtol "$rtol" $sim_arguments --output "$run.csv" \
        2>"$run.stats" || echo "exit status $?" >>"$run.stats"
      runs=$((runs + 1))
    done
  done
done

# shellcheck disable=SC2086
g++ -std=c++17 -O2 -I "$root/include" -I "$root/tests/runtime" -I/usr/include/suitesparse \
  "$root/scripts/radau_identity/driver.cpp" -o "$work/driver" -lklu
"$work/driver" >"$out/driver.txt"
runs=$((runs + $(grep -c ' stats ' "$out/driver.txt")))

if [[ $mode == record ]]; then
  echo "radau_identity: recorded $runs runs in $out"
  exit 0
fi
if diff -r "$dir/record" "$out" >"$dir/differences.txt"; then
  echo "radau_identity: all $runs runs identical to $dir/record"
else
  echo "radau_identity: DIFFERENT from $dir/record (see $dir/differences.txt)" >&2
  exit 1
fi
