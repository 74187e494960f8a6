#!/usr/bin/env bash
# Sets up, builds and runs the test suite, twice: a Release build with warnings as errors (every
# test, one process each through CTest), then a build under AddressSanitizer and
# UndefinedBehaviorSanitizer. This is what CI runs.
#
# The sanitizer pass runs every test of daec itself, of the runtime headers and of the generated
# code (GeneratedCode.*: each bundled model and the chains compiled with the sanitizers and
# checked), in a few processes (GoogleTest shards) rather than one per test: a sanitized process
# takes half a second to start and to check for leaks at exit, which over 700 tests was most of
# the run. It leaves to the Release pass the end-to-end tests that compile a whole simulator or
# module per test (Simulator, Accuracy, Events, When, Hybrid, Tables, Parameters, PythonModule,
# Ordering, the oracle slice, the installed package, the largest generated models): under the
# sanitizers each such compile takes tens of seconds, and they exercise the runtime that
# daec_runtime_tests checks there. The sanitized build leaves out the files of those suites.
# FULL_SANITIZER=1 runs every test under the sanitizers too, one process each (slow).
set -euo pipefail

cd "$(dirname "$0")/.."

export CTEST_OUTPUT_ON_FAILURE=1
jobs=$(nproc)

# Each phase's wall time, so that a run near its budget shows where the time went.
phase_start=$SECONDS
phase_done() {
  echo "== $1: $((SECONDS - phase_start)) s (total $SECONDS s)"
  phase_start=$SECONDS
}

echo "== Release build (-Werror) =="
# Both builds compile in batches of files (DAEC_UNITY_BUILD): about half the compile time.
BUILD_DIR=build CMAKE_ARGS="-DDAEC_WERROR=ON -DDAEC_UNITY_BUILD=ON" scripts/setup.sh
phase_done "Release build"
ctest --test-dir build -j "$jobs" --timeout 600
phase_done "Release tests"

echo "== AddressSanitizer + UndefinedBehaviorSanitizer build =="
# Line tables only (-g1): all the sanitizers' reports use, and a fifth less compile time than -g.
# Without the release-only suites (below) unless every test is to run under the sanitizers.
release_only_tests=OFF
if [[ "${FULL_SANITIZER:-0}" == 1 ]]; then release_only_tests=ON; fi
BUILD_DIR=build-asan CMAKE_ARGS="-DDAEC_WERROR=ON -DDAEC_UNITY_BUILD=ON -DDAEC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DDAEC_RELEASE_ONLY_TESTS=$release_only_tests" scripts/setup.sh
phase_done "sanitizer build"
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
if [[ "${FULL_SANITIZER:-0}" == 1 ]]; then
  ctest --test-dir build-asan -j "$jobs" --timeout 900
  exit
fi

# Left to the Release pass (see above): the suites of DAEC_RELEASE_ONLY_TEST_SOURCES
# (tests/CMakeLists.txt) are not in this build; these are the tests of files that are.
release_only='Models/Oracle.*'
release_only+=':GeneratedCode.PendulumChainsBySparseJacobians'
release_only+=':GeneratedCode.ReactionDiffusionWithoutDenseJacobians:GeneratedCode.PartsAndPartFiles'
release_only+=':GeneratedCode.WarningFreeAtO2WithEmptyTables'  # a warning check at -O2, no run
# Eight reductions of one model (59 s sanitized); the sanitized daec reduces it in
# Cli.OutputIsTheSameFromRunToRun.
release_only+=':Reduction.RingModulatorReducesForEveryDiodeLaw'
# The work counters' growth from N = 200 to 1,600 (90 s sanitized): they count the same work in
# either build, and the sanitized tests reach every stage they count.
release_only+=':WorkGrowth.*'
# The exploding chain at N = 7 under the default size limit: 4 s of reduction before the limit
# stops its code; the sanitized daec meets the same limit in the other Limits tests.
release_only+=':Limits.DefaultSizeLimitStopsTheCodeOfNSeven'

# Twenty-four shards, $jobs at a time: GoogleTest deals the tests out in turn, so with one shard per
# core the few that compile a model under the sanitizers can pile up in one of them (484 s
# against 218 s at two shards); smaller shards taken from a queue even the cores out (at eight,
# three shards of about 200 s against five of 45 to 86 s still left one core idle at the end;
# at sixteen, the last shard still ran alone for 87 s).
shards=24
run_shard() {
  local status=0
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$1 timeout 1800 \
    build-asan/tests/daec_tests --gtest_filter="-$release_only" --gtest_brief=1 \
    >"build-asan/daec_tests.shard$1.log" 2>&1 || status=$?
  echo "$status" >"build-asan/daec_tests.shard$1.status"
}
rm -f build-asan/daec_tests.shard*.status build-asan/daec_tests.shard*.log
(
  running=0
  for ((shard = 0; shard < shards; ++shard)); do
    if ((running == jobs)); then
      wait -n
      running=$((running - 1))
    fi
    run_shard "$shard" &
    running=$((running + 1))
  done
  wait
) &
queue=$!
timeout 900 build-asan/tests/daec_runtime_tests --gtest_brief=1
wait "$queue"
failed=0
for ((shard = 0; shard < shards; ++shard)); do
  cat "build-asan/daec_tests.shard$shard.log"
  status=$(cat "build-asan/daec_tests.shard$shard.status" 2>/dev/null || echo "not run")
  if [[ "$status" != 0 ]]; then
    echo "daec_tests shard $shard of $shards failed (exit status $status)"
    failed=1
  fi
done
((failed == 0))
ctest --test-dir build-asan --timeout 900 -R '^radau5_example$'
phase_done "sanitizer tests"
