#!/bin/sh
# bench/accuracy/run.sh — the work-precision benchmark of daec's simulator, the one command:
# builds daec, installs it into build/accuracy/prefix, builds against that installation (CMake
# package, bench/accuracy/CMakeLists.txt) daec's simulator, the Python module and the IDA peer of
# every problem in bench/accuracy/problems/, runs all of them at rtol = atol = 1e-4, 1e-6, 1e-8,
# 1e-10 together with the SciPy Radau peer (runner.py), and writes results/results.json,
# results/results.csv, the plots results/*.png and bench/accuracy/RESULTS.md (report.py).
#
#   bench/accuracy/run.sh [PROBLEM ...]      all problems by default
#
# Environment (optional): BUILD_DIR (daec's build directory, default build), PYTHON (default
# /usr/bin/python3, Debian's, with NumPy, SciPy and matplotlib), JOBS (parallel compile jobs,
# default 2), TIME_BUDGET (CPU seconds spent timing each run, default 0.3). A first run builds
# for about 5 minutes on two cores (daec and 27 programs), then runs for about 4; see README.md.
# Missing Debian packages are installed only by scripts/setup.sh, which says so, and only when
# daec has not been configured yet.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
JOBS=${JOBS:-2}
case $BUILD_DIR in /*) build=$BUILD_DIR ;; *) build=$root/$BUILD_DIR ;; esac
prefix=$build/accuracy/prefix
programs=$build/accuracy/programs

say() { printf 'run.sh: %s\n' "$*" >&2; }
started=$(date +%s)

# --- daec, installed where the benchmark's CMake project finds it ------------------------------
if [ -f "$build/build.ninja" ]; then
  # What the installation holds: daec and the compiled runtimes (the Python one where pybind11 is).
  targets="daec daec_runtime"
  if cmake --build "$build" --target help | grep -q '^daec_python_runtime:'; then
    targets="$targets daec_python_runtime"
  fi
  # shellcheck disable=SC2086 # the targets are separate words
  cmake --build "$build" --target $targets -j "$JOBS" >/dev/null
else
  (cd "$root" && BUILD_DIR=$BUILD_DIR scripts/setup.sh)
fi
cmake --install "$build" --prefix "$prefix" >/dev/null

# --- the programs: simulators, Python modules, IDA peers --------------------------------------
say "building the programs in $programs"
cmake -S "$here" -B "$programs" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DPYTHON_EXECUTABLE="$PYTHON" >"$build/accuracy/configure.log" 2>&1 ||
  { cat "$build/accuracy/configure.log" >&2; exit 1; }
cmake --build "$programs" -j "$JOBS" >"$build/accuracy/build.log" 2>&1 ||
  { tail -n 50 "$build/accuracy/build.log" >&2; exit 1; }
built=$(date +%s)

# --- the runs and the report -------------------------------------------------------------------
cd "$here"
"$PYTHON" runner.py "$programs" "$prefix/bin/daec" "$@"

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
# Uncommitted changes other than the benchmark's own outputs make the figures unreproducible.
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no -- . \
    ':!bench/accuracy/RESULTS.md' ':!bench/accuracy/results' 2>/dev/null)" ]; then
  commit="$commit (with uncommitted changes)"
fi
"$PYTHON" report.py "commit=$commit" "command=bench/accuracy/run.sh${*:+ $*}" \
  "build_seconds=$((built - started))"
say "done in $(($(date +%s) - started)) s"
