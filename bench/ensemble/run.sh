#!/bin/sh
# bench/ensemble/run.sh — the throughput of daec_ensemble (docs/ensembles.md): 1,000 simulations
# of the bundled pendulum (models/pendulum.dae, g varied from 5 to 15 m/s2, 2 s each) run one by
# one in this process, on a local process pool of 1 and 2 workers, and on a Dask LocalCluster of
# 1 and 2 worker processes, each with the default chunks and with one member per task; every run
# is checked to give the serial numbers bit for bit. Builds the model's Python module (-O2, on
# the build tree's compiled binding) and writes bench/ensemble/RESULTS.md (bench.py).
#   bench/ensemble/run.sh                 about a minute on two cores
# Environment (all optional): MEMBERS (default 1000), REPEATS (runs per row, the least wall time
# counts; default 3), BUILD_DIR (default build: its daec and daec_python_runtime, brought up to
# date first), CXX (default g++).
set -eu

cd "$(dirname "$0")/../.."
root=$(pwd)
here=$root/bench/ensemble
BUILD_DIR=${BUILD_DIR:-build}
CXX=${CXX:-g++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

ninja -C "$BUILD_DIR" daec daec_python_runtime >/dev/null
# The module as daec_add_python_module builds it (cmake/DaecFunctions.cmake): the model, a
# one-line entry point and the compiled binding; daec_ensemble.py beside it.
"$root/$BUILD_DIR/daec" models/pendulum.dae --namespace pendulum_py -o "$work/model.cpp" \
  --header "$work/pendulum_py.h" >/dev/null
cat >"$work/module.cpp" <<'MODULE'
#include "pendulum_py.h"

#include <daec/adapters/python_module.hpp>

DAEC_PYTHON_MODULE(pendulum_py, ::pendulum_py::Model)
MODULE
config=$root/$BUILD_DIR/daec-config
suffix=$(/usr/bin/python3-config --extension-suffix)
# shellcheck disable=SC2046 # the flags are lists
"$CXX" -std=c++17 -O2 -shared -fPIC -fvisibility=hidden -fvisibility-inlines-hidden \
  $(/usr/bin/python3-config --includes) -I"$root/include" $("$config" --cflags) \
  "$work/model.cpp" "$work/module.cpp" -o "$work/pendulum_py$suffix" \
  "$root/$BUILD_DIR/runtime/libdaec_python_runtime.a" $("$config" --libs)
cp "$root/python/daec_ensemble.py" "$work/"

MEMBERS=${MEMBERS:-1000} REPEATS=${REPEATS:-3} /usr/bin/python3 "$here/bench.py" "$work" \
  >"$work/RESULTS.md"
mv "$work/RESULTS.md" "$here/RESULTS.md"
echo "wrote bench/ensemble/RESULTS.md"
