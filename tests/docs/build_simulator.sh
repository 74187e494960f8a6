#!/usr/bin/env bash
# Builds the simulator of a model for a page's commands (a doc-test "setup", tests/docs/doc_commands.py):
#   tests/docs/build_simulator.sh MODEL.dae EXECUTABLE
# as daec_add_simulator does (docs/simulator.md, "The compiled runtime"): the model's code and
# header, a main of a few lines, linked to the build's compiled runtime. It behaves as the single
# file of `daec --main` and builds in seconds instead of half a minute, which the suite's time
# needs. The paths are those of the page's sandbox: build/ and include/ beside tests/.
set -euo pipefail

if (($# != 2)); then
  echo "usage: tests/docs/build_simulator.sh MODEL.dae EXECUTABLE" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
model=$1
executable=$2
work=$(mktemp -d "${executable}.build.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$root/build/daec" "$model" --namespace doc_simulator -o "$work/model.cpp" \
  --header "$work/model.h" >/dev/null
cat >"$work/main.cpp" <<'MAIN'
#include "model.h"
#include <daec/runtime/model_adapter.hpp>
#include <daec/runtime/run.hpp>
int main(int argc, char** argv) {
  return daec::runtime::run(argc, argv, daec::runtime::ModelAdapter<::doc_simulator::Model>{});
}
MAIN
read -r -a cflags <<<"$("$root/build/daec-config" --cflags)"
read -r -a libs <<<"$("$root/build/daec-config" --libs)"
"${CXX:-g++}" -std=c++17 -O2 -I "$root/include" "${cflags[@]}" -o "$executable" \
  "$work/model.cpp" "$work/main.cpp" "$root/build/runtime/libdaec_runtime.a" "${libs[@]}"
