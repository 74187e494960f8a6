#!/usr/bin/env bash
# Sets up a Debian machine to build daec and builds it into build/ (the binary is build/daec).
#   scripts/setup.sh            install missing packages, configure and build (Release)
#   BUILD_DIR=dir CMAKE_ARGS="..." scripts/setup.sh   another build directory / extra options
# Installs only what is missing, with apt-get (as root, or through sudo); silent when all is there.
set -euo pipefail

cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config
  libginac-dev libcln-dev libboost-program-options-dev libfmt-dev libgtest-dev
  nlohmann-json3-dev  # the JSON report
  libudunits2-dev  # the unit checker (src/units/)
  libsundials-dev libsuitesparse-dev  # the simulator: CVODE, IDA and the KLU sparse solver
  libboost-dev pybind11-dev python3-dev  # the adapters of include/daec/ (Boost.Odeint, Python)
  python3-numpy python3-scipy python3-matplotlib  # the Python module's tests and the peers
  python3-distributed  # Dask, for daec_ensemble on a cluster (docs/ensembles.md) and its test
  clang  # the end-to-end tests compile the generated code with clang++ as well as g++
  python3 python3-sympy  # the correctness oracle's generator (tests/e2e/oracle_test.cpp)
  octave liboctave-dev  # the MEX adapter (docs/octave.md) and its test, package_octave
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build_dir=${BUILD_DIR:-build}
# shellcheck disable=SC2086 # CMAKE_ARGS is a list of options
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release ${CMAKE_ARGS:-} >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
