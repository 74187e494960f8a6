#!/bin/sh
# bench/integrators/run.sh — times the Radau5 integrator with dense LU and with KLU on the heat
# equation at several sizes (radau5_bench.cpp, Google Benchmark). Needs g++ and the Debian
# packages libbenchmark-dev and libsuitesparse-dev (installed with apt-get if missing, as
# scripts/setup.sh does). Extra arguments go to the benchmark, e.g. --benchmark_filter=Klu.
set -eu

cd "$(dirname "$0")/../.."
missing=""
for package in libbenchmark-dev libsuitesparse-dev g++; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing="$missing $package"
done
if [ -n "$missing" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

binary=$(mktemp)
trap 'rm -f "$binary"' EXIT
g++ -std=c++17 -O2 -DNDEBUG -Iinclude -Itests -I/usr/include/suitesparse \
  bench/integrators/radau5_bench.cpp -o "$binary" -lbenchmark -lpthread -lklu
"$binary" "$@"
