#!/usr/bin/env bash
# Compiles the C++ that `daec MODEL.dae --main` writes into a simulator executable. The scripts
# and benchmarks that build a single-file simulator call this one; the flags and libraries come
# from daec-config, which CMake writes from cmake/DaecSimulatorLink.cmake (the one list of the
# libraries a simulator links).
#   scripts/compile_simulator.sh SIM.cpp EXECUTABLE [more g++ options...]
# CXX chooses the compiler (default g++), DAEC_CONFIG the daec-config (default build/daec-config
# of this checkout, else daec-config on PATH).
set -euo pipefail

if (($# < 2)); then
  echo "usage: scripts/compile_simulator.sh SIM.cpp EXECUTABLE [g++ options...]" >&2
  exit 2
fi
source=$1
executable=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
config=${DAEC_CONFIG:-$root/build/daec-config}
if [[ ! -x $config ]]; then
  config=$(command -v daec-config) || {
    echo "compile_simulator.sh: no daec-config: build daec (cmake --build build) or set DAEC_CONFIG" >&2
    exit 2
  }
fi
read -r -a cflags <<<"$("$config" --cflags)"
read -r -a libs <<<"$("$config" --libs)"
exec "${CXX:-g++}" -std=c++17 -O2 -Wall -Wextra "${cflags[@]}" "$@" -o "$executable" "$source" \
  "${libs[@]}"
