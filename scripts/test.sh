#!/usr/bin/env bash
# Sets up, builds and runs the test suite, twice: a Release build with warnings as errors (every
# test), then a build under AddressSanitizer and UndefinedBehaviorSanitizer. This is what CI runs.
#
# The sanitizer pass runs every test of daec itself, of the runtime headers and of the generated
# code (GeneratedCode.*: each bundled model compiled with the sanitizers and checked), but not the
# end-to-end tests that compile a whole simulator or module per test (Simulator, Accuracy, Events,
# Parameters, the oracle slice, the installed package): under the sanitizers each such compile
# takes tens of seconds, they exercise the same runtime that daec_runtime_tests checks there, and
# the Release pass runs them all. FULL_SANITIZER=1 runs every test under the sanitizers too.
set -euo pipefail

cd "$(dirname "$0")/.."

export CTEST_OUTPUT_ON_FAILURE=1
jobs=$(nproc)

# Compile-heavy end-to-end tests, left to the Release pass (see above).
sanitizer_skip='^(package|package_adapters)$|^Simulator\.|^Accuracy\.|^Events\.|^Parameters\.|^Models/Oracle\.'

echo "== Release build (-Werror) =="
BUILD_DIR=build CMAKE_ARGS="-DDAEC_WERROR=ON" scripts/setup.sh
ctest --test-dir build -j "$jobs" --timeout 600

echo "== AddressSanitizer + UndefinedBehaviorSanitizer build =="
BUILD_DIR=build-asan CMAKE_ARGS="-DDAEC_WERROR=ON -DDAEC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug" \
  scripts/setup.sh
skip=()
if [[ "${FULL_SANITIZER:-0}" != 1 ]]; then skip=(-E "$sanitizer_skip"); fi
LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0 ASAN_OPTIONS=detect_leaks=1 \
  UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -j "$jobs" --timeout 900 "${skip[@]}"
