#!/usr/bin/env bash
# Generates, builds and runs the simulator of a model:
#   scripts/simulate.sh MODEL.dae [simulator options...]
# 1. build/daec MODEL.dae -o build/simulators/STEM.cpp --header build/simulators/STEM.h
# 2. g++ -O2 STEM.cpp STEM_main.cpp build/runtime/libdaec_runtime.a ...  (build/simulators/STEM)
#    the model and a main of a few lines, linked to the build's compiled runtime (docs/simulator.md,
#    "The compiled runtime"): seconds, where the single file of `daec --main` takes half a minute
# 3. build/simulators/STEM [options]            (CSV on stdout, statistics on stderr)
# Steps 1 and 2 run only when the simulator is not up to date: build/simulators/STEM.key holds a
# hash of what it was built from (the model's text, the daec binary, the runtime library and
# headers, the compiler and its flags), and a run whose hash is the same starts the simulator at
# once. Without a build tree (no build/runtime/libdaec_runtime.a) it compiles the single file of
# `daec MODEL.dae --main` with scripts/compile_simulator.sh instead.
# Options go to the simulator, e.g. --t-end 2 --set g=1 --output run.csv; --help lists them.
# CXX chooses the compiler (default g++).
set -euo pipefail

if (($# < 1)); then
  echo "usage: scripts/simulate.sh MODEL.dae [simulator options...]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
model=$1
shift
if [[ ! -f $model ]]; then
  echo "simulate: cannot read the model '$model'" >&2
  exit 2
fi
stem=$(basename "$model")
stem=${stem%.*}
mkdir -p "$root/build/simulators"
# Relative to where the script is run from (build/simulators from the repository's root), so that
# what it prints reads the same on every machine.
out=$(realpath --relative-to=. "$root/build/simulators")
executable="$out/$stem"
daec="$root/build/daec"
[[ -x $daec ]] || daec=$(command -v daec) || {
  echo "simulate: no daec: build it (cmake --build build) or put it on PATH" >&2
  exit 2
}
runtime="$root/build/runtime/libdaec_runtime.a"
config="$root/build/daec-config"
[[ -x $config ]] || config=$(command -v daec-config) || config=
compiler=${CXX:-g++}
flags="-std=c++17 -O2"

# What the simulator is built from: a change in any of it rebuilds it.
key() {
  {
    echo "model $model"
    sha256sum <"$model"
    sha256sum <"$daec"
    echo "compiler $compiler $flags"
    command -v "$compiler" || true
    [[ -n $config ]] && "$config" --cflags --libs
    if [[ -f $runtime ]]; then
      sha256sum <"$runtime"
      find "$root/include/daec" -type f -name '*.hpp' -print0 | sort -z | xargs -0 cat | sha256sum
    else
      echo "single file"
    fi
  } | sha256sum | cut -d' ' -f1
}
wanted=$(key)
if [[ -x $executable && -f $executable.key && $(cat "$executable.key") == "$wanted" ]]; then
  echo "simulate: $executable is up to date (same model, daec and runtime)" >&2
  exec "$(realpath "$executable")" "$@"
fi

rm -f "$executable.key"
# Built under another name and renamed into place, so that a run of the same model at the same
# time never starts a half-written simulator.
building="$executable.building.$$"
trap 'rm -f "$building"' EXIT
if [[ -f $runtime && -n $config ]]; then
  "$daec" "$model" --namespace daec_simulated -o "$out/$stem.cpp" --header "$out/$stem.h" >&2
  cat >"$out/${stem}_main.cpp" <<MAIN
#include "$stem.h"
#include <daec/runtime/model_adapter.hpp>
#include <daec/runtime/run.hpp>
int main(int argc, char** argv) {
  return daec::runtime::run(argc, argv, daec::runtime::ModelAdapter<::daec_simulated::Model>{});
}
MAIN
  read -r -a cflags <<<"$("$config" --cflags)"
  read -r -a libs <<<"$("$config" --libs)"
  # shellcheck disable=SC2086 # $flags is a list of options
  "$compiler" $flags -I "$root/include" "${cflags[@]}" -o "$building" "$out/$stem.cpp" \
    "$out/${stem}_main.cpp" "$runtime" "${libs[@]}"
  mv -f "$building" "$executable"
  echo "simulate: built $executable (linked to build/runtime/libdaec_runtime.a)" >&2
else
  "$daec" "$model" --main -o "$out/$stem.cpp" >&2
  "$root/scripts/compile_simulator.sh" "$out/$stem.cpp" "$building"
  mv -f "$building" "$executable"
  echo "simulate: built $executable (the single file of daec --main: no build tree)" >&2
fi
echo "$wanted" >"$executable.key"
exec "$(realpath "$executable")" "$@"
