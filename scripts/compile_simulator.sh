#!/usr/bin/env bash
# Compiles the C++ that `daec MODEL.dae --main` writes into a simulator executable. This is the one
# place that knows the compiler flags and the SUNDIALS libraries the simulator links; simulate.sh
# and the correctness oracle (scripts/oracle/) use it.
#   scripts/compile_simulator.sh SIM.cpp EXECUTABLE [more g++ options...]
# CXX chooses the compiler (default g++).
set -euo pipefail

if (($# < 2)); then
  echo "usage: scripts/compile_simulator.sh SIM.cpp EXECUTABLE [g++ options...]" >&2
  exit 2
fi
source=$1
executable=$2
shift 2
# The same libraries as kSimulatorLibraries in tests/e2e_util.h (the end-to-end tests' line).
exec "${CXX:-g++}" -std=c++17 -O2 -Wall -Wextra -I/usr/include/suitesparse "$@" \
  -o "$executable" "$source" \
  -lsundials_cvode -lsundials_ida -lsundials_nvecserial -lsundials_sunlinsoldense \
  -lsundials_sunmatrixdense -lsundials_sunlinsolklu -lsundials_sunmatrixsparse -lklu -lm
