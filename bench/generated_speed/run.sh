#!/bin/sh
# run.sh — builds and runs the generated-code speed benchmark and writes
# bench/generated_speed/RESULTS.md (plus results.json, the raw Google Benchmark output).
#
#   bench/generated_speed/run.sh [extra Google Benchmark flags, e.g. --benchmark_filter=Rhs]
#
# Environment: DAEC (a daec executable; default: build/daec, built here if missing or stale),
# JOBS (parallel compile jobs, default 2), MIN_TIME (seconds per repetition, default 0.2),
# BUILD_DIR (default: build-bench-generated-speed at the repository root), PROFILE (0: skip the
# callgrind instruction counts of profile.sh, which otherwise run when valgrind is installed).
# Needs cmake, ninja, a C++17 compiler, Google Benchmark (Debian libbenchmark-dev) and python3.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
jobs=${JOBS:-2}
min_time=${MIN_TIME:-0.2}
build=${BUILD_DIR:-$root/build-bench-generated-speed}

if [ -z "${DAEC:-}" ]; then
  if [ ! -f "$root/build/build.ninja" ]; then
    cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDAEC_BUILD_TESTS=OFF
  fi
  ninja -C "$root/build" -j "$jobs" daec
  DAEC=$root/build/daec
fi

mkdir -p "$build"
cmake -S "$here" -B "$build" -G Ninja -DDAEC="$DAEC" > "$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
ninja -C "$build" -j "$jobs" generated_speed

load=$(cut -d' ' -f1-3 /proc/loadavg)
"$build/generated_speed" --benchmark_repetitions=5 --benchmark_display_aggregates_only=true \
  --benchmark_min_time="$min_time" --benchmark_out="$here/results.json" \
  --benchmark_out_format=json "$@" | tee "$build/console.txt"
grep '^check' "$build/console.txt" > "$build/check.txt"

# Instruction counts of the generated chain rhs (exact, unlike times): profile.sh, by callgrind.
: > "$build/profile.md"
if [ "${PROFILE:-1}" != 0 ] && command -v valgrind > /dev/null; then
  echo
  BUILD_DIR=$build "$here/profile.sh" | tee "$build/profile.md"
fi

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
# Uncommitted changes other than this script's own outputs make the figures unreproducible.
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no -- . \
    ':!bench/generated_speed/RESULTS.md' ':!bench/generated_speed/results.json' 2>/dev/null)" ]; then
  commit="$commit (with uncommitted changes)"
fi
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
flags=$(sed -n 's/^BENCH_CXX_FLAGS:[A-Z]*=//p' "$build/CMakeCache.txt")
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)

echo
python3 "$here/summarize.py" "$here/results.json" "$build/check.txt" "$here/RESULTS.md" "$here/NOTES.md" \
  "command=bench/generated_speed/run.sh${*:+ $*}" \
  "commit=$commit" \
  "date=$(date -u '+%Y-%m-%d %H:%M UTC')" \
  "cpu=${cpu:-unknown}" \
  "nproc=$(nproc)" \
  "load=$load" \
  "compiler=$("$cxx" --version | head -n 1)" \
  "flags=$flags" \
  "profile=$build/profile.md" \
  "benchmark=$(dpkg-query -W -f='${Version}' libbenchmark-dev 2>/dev/null || echo unknown)"
echo
echo "wrote $here/RESULTS.md and $here/results.json"
