#!/usr/bin/env bash
# Fuzzes the whole daec pipeline (fuzz/daec_fuzz.cpp) with libFuzzer for SECONDS (default 300):
# configures and builds build-fuzz with clang, copies the seed corpus (models/, tests/data/ and
# the regression inputs of fuzz/regressions/) into build-fuzz/corpus, runs, and prints the number
# of executions. Exits nonzero if libFuzzer found a crash, a leak or a timeout; the input it
# saved (build-fuzz/artifacts/crash-*, leak-*, timeout-*) reproduces it:
#   ./build-fuzz/fuzz/daec_fuzz build-fuzz/artifacts/crash-...
# Environment: FUZZ_ARGS (extra libFuzzer flags), BUILD_JOBS (build parallelism, default 2).
set -euo pipefail

cd "$(dirname "$0")/.."
seconds=${1:-300}
build=build-fuzz

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DDAEC_FUZZ=ON -DDAEC_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --target daec_fuzz -j "${BUILD_JOBS:-2}"

mkdir -p "$build/corpus" "$build/artifacts"
cp models/*.dae tests/data/*.dae fuzz/regressions/* "$build/corpus/" 2>/dev/null || true
rm -f "$build"/artifacts/{crash,leak,timeout,oom}-*

export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
log="$build/fuzz.log"
status=0
started=$SECONDS
# shellcheck disable=SC2086  # FUZZ_ARGS is a list of flags
"$build/fuzz/daec_fuzz" "$build/corpus" -dict=fuzz/dae.dict -max_total_time="$seconds" \
  -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$build/artifacts/" \
  ${FUZZ_ARGS:-} 2>&1 | tee "$log" | grep -E '^#[0-9]+[[:space:]]+(INITED|DONE|pulse)|ERROR|SUMMARY|stat::' \
  || true
executions=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
echo "fuzz: ${executions:-?} executions in $((SECONDS - started)) s; corpus $(ls "$build/corpus" | wc -l) inputs"
found=$(ls "$build"/artifacts/ 2>/dev/null | grep -E '^(crash|leak|timeout|oom)-' || true)
if [ -n "$found" ]; then
  echo "fuzz: found (reproduce with ./$build/fuzz/daec_fuzz FILE):"
  sed "s|^|  $build/artifacts/|" <<<"$found"
  status=1
fi
exit $status
