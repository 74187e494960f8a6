#!/usr/bin/env bash
# The CMake package and the Makefile rule (docs/build-systems.md), tested from outside as a user meets them:
# installs the build tree into a temporary prefix and moves it (the package must be relocatable),
# configures docs/example against it with exactly the commands of docs/build-systems.md (no build
# type, no interpreter named, broken pyenv-like python shims first on PATH), runs the user program
# and the simulator, checks that a changed
# model or a changed daec regenerates the code, that bad calls fail clearly, and finally runs the
# example's Makefile with the installed daec on PATH. Three parts, each a test of its own so that
# CTest runs them side by side and none takes a minute: `core` (the example's user program and
# simulator, rebuilds), `projects` (NAMESPACE and SPLIT, DEFINES, bad calls, the Makefile) and
# `adapters` (the example's programs that use the adapters of docs/adapters.md: Boost.Odeint,
# CVODE, Python).
#   tests/e2e/package_test.sh BUILD_DIR SOURCE_DIR [core|projects|adapters|octave]
#   (CTest: package, package_projects, package_adapters, package_octave: the MEX files of
#   docs/octave.md in Octave)
set -euo pipefail

build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
part=${3:-core}
work=$(mktemp -d "${TMPDIR:-/tmp}/daec_package_XXXXXX")
trap 'rm -rf "$work"' EXIT

step() { echo "== $*"; }
fail() {
  echo "package_test: FAILED: $*" >&2
  exit 1
}
# Runs a command with its output in a log file, shown only if the command fails.
logged() {
  local log=$1
  shift
  "$@" >"$log" 2>&1 || { cat "$log" >&2; fail "$*"; }
}
# A fresh copy of the example's own files (not what a make run may have left in the source tree).
copy_example() {
  mkdir -p "$1"
  cp "$source"/docs/example/{CMakeLists.txt,Makefile,main.cpp,pendulum.dae} "$1"
  cp "$source"/docs/example/{odeint_pendulum.cpp,cvode_pendulum.cpp,scipy_pendulum.py} "$1"
  cp "$source"/docs/example/{growth.dae,ode15s_pendulum.m,ode15s_events.m} "$1"
  cp "$source"/docs/example/{tank.dae,tank_python.py,tank_ensemble.py} "$1"
  cp "$source"/docs/example/{bouncing_ball.dae,ode45_bounce.m} "$1"
}
# The simulator's CSV: the header names every variable and output; 101 rows from 0 to exactly 1.
check_simulation() {
  "$1" --t-end 1 >"$work/sim.csv" 2>"$work/sim.err" || { cat "$work/sim.err" >&2; fail "$1 --t-end 1"; }
  [[ $(head -n 1 "$work/sim.csv") == "t,x,y,u,v,lambda,energy" ]] ||
    fail "$1: CSV header is '$(head -n 1 "$work/sim.csv")'"
  [[ $(wc -l <"$work/sim.csv") -eq 102 ]] || fail "$1: expected 101 rows"
  [[ $(tail -n 1 "$work/sim.csv" | cut -d, -f1) == 1 ]] || fail "$1: the last row is not at t = 1"
}

step "cmake --install into a temporary prefix, then move the prefix"
logged "$work/install.log" cmake --install "$build" --prefix "$work/staging"
for file in bin/daec bin/daec-config lib/cmake/Daec/DaecConfig.cmake \
  lib/cmake/Daec/DaecConfigVersion.cmake lib/cmake/Daec/DaecSimulatorLink.cmake \
  share/daec/python/daec_ensemble.py; do
  [[ -e "$work/staging/$file" ]] || fail "the installation lacks $file"
done
# The compiled runtime (Daec::runtime), in the platform's library directory.
compgen -G "$work/staging/lib*/libdaec_runtime.a" >/dev/null ||
  fail "the installation lacks libdaec_runtime.a"
# The Python binding compiled once (Daec::python_runtime), where pybind11 was found.
compgen -G "$work/staging/lib*/libdaec_python_runtime.a" >/dev/null ||
  fail "the installation lacks libdaec_python_runtime.a"
# daec-config prints the simulator's libraries, and refuses an option it does not know.
[[ $("$work/staging/bin/daec-config" --libs) == *-lsundials_cvode*-lklu* ]] ||
  fail "daec-config --libs does not list the simulator's libraries"
if "$work/staging/bin/daec-config" --static 2>"$work/config.err"; then
  fail "daec-config accepted --static"
fi
grep -qF "daec-config: unknown option '--static'" "$work/config.err" ||
  fail "daec-config did not name the unknown option: $(cat "$work/config.err")"
mv "$work/staging" "$work/prefix"
prefix=$work/prefix

generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi

# A PATH as pyenv leaves it: `python3`, `python` and `python3.6` first on it, shims that fail for
# a version that is not active. The example must configure and build regardless.
mkdir "$work/shims"
for shim in python python3 python3.6; do
  printf '#!/bin/sh\necho "pyenv: %s: command not found" >&2\nexit 127\n' "$shim" >"$work/shims/$shim"
  chmod +x "$work/shims/$shim"
done
shimmed_path="$work/shims:$PATH"

if [[ $part != projects ]]; then
  step "docs/build-systems.md's commands, as written: configure and build docs/example"
  copy_example "$work/example"
  # No generator, no build type, no interpreter: what the docs show (parallelism from the
  # environment, which does not change the commands).
  cd "$work"
  logged "$work/configure.log" env PATH="$shimmed_path" \
    cmake -S example -B build -DCMAKE_PREFIX_PATH="$prefix"
  grep -qxF "Daec_DIR:PATH=$prefix/lib/cmake/Daec" "$work/build/CMakeCache.txt" ||
    fail "the example did not find the moved package"
  grep -qF "daec: Python modules are built for /usr/bin/python3 (Python" "$work/configure.log" ||
    { cat "$work/configure.log" >&2; fail "the configuration did not name Debian's Python"; }
  grep -qF "daec: no CMAKE_BUILD_TYPE set: generated code is compiled with -O2" \
    "$work/configure.log" || fail "the configuration did not say that it optimises"
fi

# The lines docs/$1 shows as printed by the command `$2` (the block after the line "$ $2").
doc_output() {
  awk -v command="\$ $2" '$0 == command { on = 1; next } on && /^```/ { exit } on' "$source/docs/$1"
}

if [[ $part == octave ]]; then
  step "the Octave MEX files of docs/octave.md: the docs' scripts print what the page shows"
  logged "$work/build.log" env CMAKE_BUILD_PARALLEL_LEVEL=2 cmake --build build \
    --target pendulum_mex growth ball
  [[ -f "$work/build/pendulum_mex.mex" && -f "$work/build/growth.mex" &&
    -f "$work/build/ball.mex" ]] ||
    fail "daec_add_mex wrote no MEX file"
  # As docs/octave.md runs them: --no-history, without which Octave 7.3 ends with an error line
  # where ~/.local/share/octave does not exist (the page says so).
  octave=(octave-cli --no-history)
  # ode45_bounce.m fails unless the first bounces are within 1e-6 s of their closed form.
  for script in ode15s_pendulum ode15s_events ode45_bounce; do
    (cd "$work/build" && "${octave[@]}" "../example/$script.m") >"$work/$script.out" 2>&1 ||
      { cat "$work/$script.out" >&2; fail "octave-cli $script.m"; }
    expected=$(doc_output octave.md "cd build-example && octave-cli --no-history ../docs/example/$script.m")
    [[ -n "$expected" ]] || fail "docs/octave.md shows no output of $script.m"
    diff <(echo "$expected") "$work/$script.out" ||
      fail "$script.m printed other text than docs/octave.md shows"
  done

  step "the index-3 circular track with ode15s and the sparse Jacobian reaches its exact solution"
  mkdir "$work/track"
  cp "$source/models/circular_track.dae" "$work/track"
  printf 'cmake_minimum_required(VERSION 3.20)\nproject(track LANGUAGES CXX)\n%s\n%s\n' \
    'find_package(Daec CONFIG REQUIRED)' \
    'daec_add_mex(track circular_track.dae NAMESPACE arevalo)' >"$work/track/CMakeLists.txt"
  # From t = 1 to 2 at rtol = atol = 1e-6 and 1e-8 (the tightest Octave's ode15s takes): the
  # end point, projected, against x = sin(t^2), y = cos(t^2), u = 2t cos(t^2), v = -2t sin(t^2).
  cat >"$work/track/check.m" <<'OCTAVE'
x0 = track('initial_state');
exact = [sin(4); cos(4); 4*cos(4); -4*sin(4)];
for tol = [1e-6 1e-8]
  opts = odeset('RelTol', tol, 'AbsTol', tol, 'Jacobian', @(t, x) track('jacobian', t, x));
  [t, x] = ode15s(@(t, x) track('rhs', t, x), [1 2], x0, opts);
  x2 = track('project', 2, x(end, :)');
  merit = max(abs(x2 - exact) ./ (tol * abs(exact) + tol));
  printf('tol %g: %d steps, figure of merit %.1f\n', tol, numel(t) - 1, merit);
  if merit > 50, exit(1); end
end
% docs/octave.md: ode15s stops at the start for AbsTol 1e-9, whatever the model (x'' = -x).
try
  [t9, x9] = ode15s(@(t, x) [x(2); -x(1)], [0 1], [0; 1], odeset('RelTol', 1e-6, 'AbsTol', 1e-9));
  exit(6);
catch failure
  if isempty(strfind(failure.message, 'IDASolve failed')), exit(7); end
end
J = track('jacobian', 1, x0);
if ! issparse(J) || any(size(J) != [4 4]), exit(2); end
[xdot, z] = track('rhs', 1, x0);
if abs(z(1) + 4) > 1e-12, exit(3); end   % lambda(1) = -4 t^2
try
  track('rhs', 1, [1 2 3]);
  exit(4);
catch failure
  if ! strcmp(failure.identifier, 'daec:usage'), exit(5); end
end
OCTAVE
  logged "$work/track-configure.log" cmake -S "$work/track" -B "$work/track-build" \
    -DCMAKE_PREFIX_PATH="$prefix"
  logged "$work/track-build.log" cmake --build "$work/track-build"
  (cd "$work/track-build" && "${octave[@]}" ../track/check.m) >"$work/track.out" 2>&1 ||
    { cat "$work/track.out" >&2; fail "the circular track in Octave (exit status $?)"; }
  cat "$work/track.out"
  step "package test (octave) passed"
  exit 0
fi

if [[ $part == adapters ]]; then
  step "the whole example builds (optimised); the adapters reach the published x(1)"
  logged "$work/build.log" env PATH="$shimmed_path" CMAKE_BUILD_PARALLEL_LEVEL=2 \
    cmake --build build
  grep -q "daec: generating pendulum_py from pendulum.dae" "$work/build.log" ||
    fail "no code for pendulum_py"
  for target in pendulum_model pendulum_sim pendulum_py; do
    grep -q -- "-O2" "$work/build/CMakeFiles/$target.dir/flags.make" ||
      fail "$target is compiled without -O2: $(grep CXX_FLAGS "$work/build/CMakeFiles/$target.dir/flags.make")"
  done
  logged "$work/odeint.log" "$work/build/pendulum_odeint"
  logged "$work/cvode.log" "$work/build/pendulum_cvode"
  logged "$work/scipy.log" /usr/bin/python3 "$work/example/scipy_pendulum.py" "$work/build" \
    "$work/pendulum.png"
  cat "$work/odeint.log" "$work/cvode.log" "$work/scipy.log"
  grep -q "model_error: rhs failed at t = 0: the state 'x' is not finite" "$work/odeint.log" ||
    fail "the odeint adapter did not name the failure"
  grep -q "RuntimeError: rhs failed at t = 0: the state 'x' is not finite" "$work/scipy.log" ||
    fail "the Python module did not raise the failure as RuntimeError"
  [[ $(head -c 4 "$work/pendulum.png" | od -An -c | tr -d ' ') == "211PNG" ]] ||
    fail "scipy_pendulum.py wrote no PNG"
  step "the spec's example (section 8) compiles as written against the installation"
  # The public include paths <daec/odeint.hpp> and <daec/sundials.hpp>, with nothing but the
  # installation's include directory and the model's code from the installed daec.
  mkdir "$work/spec"
  logged "$work/spec/daec.log" "$prefix/bin/daec" "$source/docs/example/pendulum.dae" \
    -o "$work/spec/pendulum.cpp" --header "$work/spec/pendulum.h"
  read -r -a spec_cflags <<<"$("$prefix/bin/daec-config" --cflags)"
  read -r -a spec_libs <<<"$("$prefix/bin/daec-config" --libs)"
  logged "$work/spec/compile.log" g++ -std=c++17 -O1 -I "$prefix/include" -I "$work/spec" \
    "${spec_cflags[@]}" "$source/tests/e2e/spec_adapters_example.cpp" "$work/spec/pendulum.cpp" \
    -o "$work/spec/spec_example" "${spec_libs[@]}"
  logged "$work/spec/run.log" "$work/spec/spec_example"
  cat "$work/spec/run.log"
  grep -q "cvode_rhs found" "$work/spec/run.log" || fail "the spec's example did not run"
  # Model.simulate through the package: the module links the simulator (SUNDIALS, KLU).
  logged "$work/tank.log" /usr/bin/python3 "$work/example/tank_python.py" "$work/build"
  # daec_ensemble from the installation, copied beside the module (docs/ensembles.md), on a pool
  # and a LocalCluster of two workers.
  [[ -f "$work/build/daec_ensemble.py" ]] || fail "daec_ensemble.py is not beside tank_py"
  logged "$work/ensemble.log" /usr/bin/python3 "$work/example/tank_ensemble.py" "$work/build"
  step "a Python other than the one the binding was built for is refused by name"
  mkdir "$work/other-python"
  cp "$source/docs/example/pendulum.dae" "$work/other-python"
  printf 'cmake_minimum_required(VERSION 3.20)\nproject(other LANGUAGES CXX)\n%s\n%s\n%s\n' \
    'find_package(Daec CONFIG REQUIRED)' 'set(DAEC_PYTHON_VERSION 2.7)' \
    'daec_add_python_module(p pendulum.dae)' >"$work/other-python/CMakeLists.txt"
  if cmake -S "$work/other-python" -B "$work/other-python-build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DPython3_EXECUTABLE=/usr/bin/python3 >"$work/other-python.log" 2>&1; then
    fail "a module for another Python version was accepted"
  fi
  tr -s ' \n' ' ' <"$work/other-python.log" |
    grep -qF "but daec's Python binding was built for Python 2.7" ||
    { cat "$work/other-python.log" >&2; fail "the other Python version was not named"; }
  step "package test (adapters) passed"
  exit 0
fi

if [[ $part == core ]]; then
  # The targets of docs/build-systems.md; the adapters' programs are the other part's.
  core_targets=(--target pendulum_energy pendulum_sim)
  logged "$work/build.log" env PATH="$shimmed_path" cmake --build "$work/build" -j 2 \
    "${core_targets[@]}"
  for target in pendulum_model pendulum_sim; do
    grep -q "daec: generating $target from pendulum.dae" "$work/build.log" || fail "no code for $target"
  done
  [[ -f "$work/build/daec_generated/pendulum_model/pendulum.h" ]] || fail "no generated header"
  # The simulator compiles the model and its few-line main, and links the compiled runtime.
  grep -q "daec_generated/pendulum_sim/main.cpp" "$work/build.log" ||
    fail "pendulum_sim was not built from the model and a main linked to Daec::runtime"

  step "run the user program and the simulator"
  logged "$work/energy.log" "$work/build/pendulum_energy"
  cat "$work/energy.log"
  check_simulation "$work/build/pendulum_sim"
  "$work/build/pendulum_sim" --t-end 2 >"$work/sim2.csv" 2>/dev/null || fail "pendulum_sim --t-end 2"

  step "rebuild: nothing to do; a touched model or daec regenerates"
  logged "$work/noop.log" cmake --build "$work/build" -j 2 "${core_targets[@]}"
  if grep -q "daec: generating" "$work/noop.log"; then fail "an unchanged model was regenerated"; fi
  touch "$work/example/pendulum.dae"
  logged "$work/model.log" cmake --build "$work/build" -j 2 "${core_targets[@]}"
  grep -q "daec: generating pendulum_model" "$work/model.log" || fail "a changed model not regenerated"
  grep -q "daec: generating pendulum_sim" "$work/model.log" || fail "a changed model not regenerated"
  touch "$prefix/bin/daec"
  logged "$work/daec.log" cmake --build "$work/build" -j 2 "${core_targets[@]}"
  grep -q "daec: generating pendulum_model" "$work/daec.log" || fail "a changed daec regenerated nothing"
  logged "$work/rerun.log" "$work/build/pendulum_energy"
  step "package test (core) passed"
  exit 0
fi

step "daec_add_model with NAMESPACE and SPLIT"
mkdir "$work/ns"
cp "$source/docs/example/pendulum.dae" "$work/ns"
cat >"$work/ns/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(ns LANGUAGES CXX)
find_package(Daec CONFIG REQUIRED)
daec_add_model(pend pendulum.dae NAMESPACE mech::pend SPLIT 2)
add_executable(use use.cpp)
target_link_libraries(use PRIVATE pend)
daec_add_simulator(pend_sim pendulum.dae SPLIT 3)
CMAKE
cat >"$work/ns/use.cpp" <<'CPP'
#include "pendulum.h"
int main() {
  using Model = mech::pend::Model;
  Model model;
  double x[Model::num_states], xdot[Model::num_states];
  model.initial_state(x);
  return model.rhs(0.0, x, xdot, nullptr) == 0 && Model::num_states == 4 ? 0 : 1;
}
CPP
logged "$work/ns-configure.log" cmake -S "$work/ns" -B "$work/ns-build" "${generator[@]}" \
  -DCMAKE_PREFIX_PATH="$prefix"
logged "$work/ns-build.log" cmake --build "$work/ns-build"
logged "$work/ns-run.log" "$work/ns-build/use"
for part in pend/pendulum_1.cpp pend/pendulum_2.cpp pend_sim/pendulum_3.cpp; do
  [[ -f "$work/ns-build/daec_generated/$part" ]] || fail "SPLIT wrote no $part"
done
ar t "$work/ns-build/libpend.a" | grep -q 'pendulum_2\.cpp\.o' || fail "SPLIT parts not built"
check_simulation "$work/ns-build/pend_sim"

step "daec_add_model and daec_add_simulator with DEFINES: one array model, two sizes"
mkdir "$work/sizes"
cp "$source/models/pendulum_chain.dae" "$work/sizes"
cat >"$work/sizes/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(sizes LANGUAGES CXX)
find_package(Daec CONFIG REQUIRED)
daec_add_model(chain3 pendulum_chain.dae DEFINES N=3)
daec_add_model(chain5 pendulum_chain.dae SPLIT 2 DEFINES N=5 g=1.62)
daec_add_simulator(chain3_sim pendulum_chain.dae DEFINES N=3)
# Both generated headers are called pendulum_chain.h: one program per size.
foreach(n 3 5)
  add_executable(use${n} use.cpp)
  target_compile_definitions(use${n} PRIVATE LINKS=${n})
  target_link_libraries(use${n} PRIVATE chain${n})
endforeach()
CMAKE
cat >"$work/sizes/use.cpp" <<'CPP'
#include <cstring>
#include "pendulum_chain.h"
int main() {
  using Model = pendulum_chain::Model;
  double g = LINKS == 5 ? 1.62 : 9.81;
  bool sizes = Model::num_states == 4 * LINKS && Model::num_parameters == 3;
  bool names = std::strcmp(Model::state_names[LINKS - 1], LINKS == 5 ? "x[5]" : "x[3]") == 0;
  return sizes && names && Model().p[2] == g ? 0 : 1;
}
CPP
logged "$work/sizes-configure.log" cmake -S "$work/sizes" -B "$work/sizes-build" "${generator[@]}" \
  -DCMAKE_PREFIX_PATH="$prefix"
logged "$work/sizes-build.log" cmake --build "$work/sizes-build"
[[ -f "$work/sizes-build/daec_generated/chain5/pendulum_chain_2.cpp" ]] || fail "SPLIT 2 with DEFINES wrote no part 2"
logged "$work/sizes-run3.log" "$work/sizes-build/use3"
logged "$work/sizes-run5.log" "$work/sizes-build/use5"
"$work/sizes-build/chain3_sim" --t-end 0.1 --set 'x[3]=3' >"$work/chain.csv" 2>"$work/chain.err" ||
  { cat "$work/chain.err" >&2; fail "chain3_sim --t-end 0.1 --set 'x[3]=3'"; }
header="t,x[1],x[2],x[3],y[1],y[2],y[3],u[1],u[2],u[3],v[1],v[2],v[3],l[1],l[2],l[3]"
[[ $(head -n 1 "$work/chain.csv") == "$header" ]] ||
  fail "chain3_sim: CSV header is '$(head -n 1 "$work/chain.csv")'"

step "two Python modules in one directory configure (the Python search is not redone per call)"
mkdir "$work/two-modules"
cp "$source/docs/example/pendulum.dae" "$work/two-modules"
printf 'cmake_minimum_required(VERSION 3.20)\nproject(two LANGUAGES CXX)\n%s\n%s\n%s\n' \
  'find_package(Daec CONFIG REQUIRED)' 'daec_add_python_module(p1 pendulum.dae)' \
  'daec_add_python_module(p2 pendulum.dae MODULE second)' >"$work/two-modules/CMakeLists.txt"
logged "$work/two-modules.log" env PATH="$shimmed_path" cmake -S "$work/two-modules" \
  -B "$work/two-modules-build" -DCMAKE_PREFIX_PATH="$prefix"

step "bad calls of daec_add_model / daec_add_simulator stop with a clear message"
expect_configure_error() {
  local call=$1 message=$2
  rm -rf "$work/bad" "$work/bad-build"
  mkdir "$work/bad"
  cp "$source/docs/example/pendulum.dae" "$work/bad"
  printf 'cmake_minimum_required(VERSION 3.20)\nproject(bad LANGUAGES NONE)\n%s\n%s\n' \
    'find_package(Daec CONFIG REQUIRED)' "$call" >"$work/bad/CMakeLists.txt"
  if cmake -S "$work/bad" -B "$work/bad-build" -DCMAKE_PREFIX_PATH="$prefix" >"$work/bad.log" 2>&1
  then
    fail "'$call' was accepted"
  fi
  # CMake wraps long messages: compare with the line breaks and indentation taken out.
  tr -s ' \n' ' ' <"$work/bad.log" | grep -qF "$message" || {
    cat "$work/bad.log" >&2
    fail "'$call' did not say: $message"
  }
}
expect_configure_error 'daec_add_model(lonely)' \
  'daec_add_model(lonely): no model file given; usage: daec_add_model(TARGET MODEL.dae [NAMESPACE NS] [SPLIT N] [DEFINES NAME=VALUE...])'
expect_configure_error 'daec_add_model(m pendulum.dae NAMESPAC ns)' \
  "daec_add_model: unexpected arguments 'NAMESPAC ns'; usage: daec_add_model(TARGET MODEL.dae [NAMESPACE NS] [SPLIT N] [DEFINES NAME=VALUE...])"
expect_configure_error 'daec_add_model(m pendulum.dae DEFINES N)' \
  "daec_add_model: DEFINES takes NAME=VALUE, not 'N'"
expect_configure_error 'daec_add_simulator(s pendulum.dae DEFINES)' \
  'daec_add_simulator: DEFINES needs a value'
expect_configure_error 'daec_add_simulator(s pendulum.dae NAMESPACE)' \
  'daec_add_simulator: NAMESPACE needs a value'
expect_configure_error 'daec_add_model(m pendulum.dae SPLIT two)' \
  "daec_add_model: SPLIT must be a whole number from 0 to 256, not 'two'"
expect_configure_error 'daec_add_python_module(p pendulum.dae MODULE)' \
  'daec_add_python_module: MODULE needs a value; usage: daec_add_python_module(TARGET MODEL.dae [MODULE name] [NAMESPACE NS] [DEFINES NAME=VALUE...])'
expect_configure_error 'daec_add_python_module(p pendulum.dae MODULE 3d)' \
  "daec_add_python_module(p): MODULE '3d' is not a Python identifier"
expect_configure_error 'daec_add_model(m missing.dae)' \
  "daec_add_model(m missing.dae): model file not found: $work/bad/missing.dae"

step "the Makefile, with the installed daec on PATH"
copy_example "$work/make"
grep -qxF '%.cpp: %.dae ; daec $< -o $@' "$work/make/Makefile" || fail "the Makefile lacks the rule"
export PATH="$prefix/bin:$PATH"
logged "$work/make.log" make -C "$work/make" -j 2
[[ -f "$work/make/pendulum.cpp" ]] || fail "make did not keep pendulum.cpp"
logged "$work/make-energy.log" "$work/make/pendulum_energy"
check_simulation "$work/make/pendulum_sim"
make -q -C "$work/make" || fail "make has work left after a build"
touch "$work/make/pendulum.dae"
if make -q -C "$work/make"; then fail "make does not see the changed model"; fi
logged "$work/remake.log" make -C "$work/make" -j 2
grep -q "daec pendulum.dae -o pendulum.cpp" "$work/remake.log" || fail "make did not regenerate"

step "package test (projects) passed"
