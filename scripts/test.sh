#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite, twice: a Release build with warnings as errors,
# then a build under AddressSanitizer and UndefinedBehaviorSanitizer. This is what CI runs.
set -euo pipefail

cd "$(dirname "$0")/.."

export CTEST_OUTPUT_ON_FAILURE=1
jobs=$(nproc)

echo "== Release build (-Werror) =="
BUILD_DIR=build CMAKE_ARGS="-DDAEC_WERROR=ON" scripts/setup.sh
ctest --test-dir build -j "$jobs" --timeout 600

echo "== AddressSanitizer + UndefinedBehaviorSanitizer build =="
BUILD_DIR=build-asan CMAKE_ARGS="-DDAEC_WERROR=ON -DDAEC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug" \
  scripts/setup.sh
LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0 ASAN_OPTIONS=detect_leaks=1 \
  UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -j "$jobs" --timeout 900
