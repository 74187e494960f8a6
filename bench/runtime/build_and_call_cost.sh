#!/usr/bin/env bash
# bench/runtime/build_and_call_cost.sh — what the compiled runtime (libdaec_runtime, runtime/)
# saves and costs:
#   1. build times at -O2 (wall clock, one job): the pendulum's simulator as the CMake package
#      builds it (the model, a main of a few lines, linked to libdaec_runtime) against the single
#      file of daec --main, and the 1,000-link chain's simulator against its model alone;
#      and the same for the Python module: through the package (the model, a module entry point
#      of one line, linked to libdaec_python_runtime) against the single file of --python-module,
#      which compiles the whole binding with the model;
#   2. the cost of the virtual call per rhs evaluation (rhs_call_cost.cpp) against the time of
#      one step of the default method, on the pendulum and the 1,000-link chain.
# Writes bench/runtime/RESULTS.md.
#   bench/runtime/build_and_call_cost.sh [BUILD_DIR]   (default build; needs daec, daec_runtime
#                        and daec_python_runtime built there: ninja daec daec_runtime
#                        daec_python_runtime; PYTHON chooses the interpreter, default
#                        /usr/bin/python3, which must be the one daec_python_runtime was built for)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$source/build}" && pwd)
daec="$build/daec"
library="$build/runtime/libdaec_runtime.a"
python_library="$build/runtime/libdaec_python_runtime.a"
[[ -x $daec && -f $library && -f $python_library ]] ||
  { echo "build daec, daec_runtime and daec_python_runtime in $build first" >&2; exit 1; }
python=${PYTHON:-/usr/bin/python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/daec_runtime_bench_XXXXXX")
trap 'rm -rf "$work"' EXIT
cxx=${CXX:-g++}
# The simulator's flags and libraries from daec-config (cmake/DaecSimulatorLink.cmake).
flags="-std=c++17 -O2 -I$source/include $("$build/daec-config" --cflags)"
libs=$("$build/daec-config" --libs)

# "WALL CPU": the seconds a command takes, on the clock and in CPU time (user + system, of the
# compiler and linker processes: what a loaded machine inflates least).
seconds() {
  local TIMEFORMAT='%R %U %S' measured
  measured=$({ time "$@" >/dev/null 2>&1; } 2>&1)
  echo "$measured" | awk '{ printf "%.1f %.1f\n", $1, $2 + $3 }'
}
# The package's simulator main for namespace $1 and header $2.
write_main() {
  printf '#include "%s"\n#include <daec/runtime/model_adapter.hpp>\n#include <daec/runtime/run.hpp>\nint main(int argc, char** argv) {\n  return daec::runtime::run(argc, argv, daec::runtime::ModelAdapter<::%s::Model>{});\n}\n' "$2" "$1"
}
# The package's Python module $3 for namespace $1 and header $2.
write_module() {
  printf '#include "%s"\n#include <daec/adapters/python_module.hpp>\nDAEC_PYTHON_MODULE(%s, ::%s::Model)\n' "$2" "$3" "$1"
}
# generate NAME MODEL [daec arguments]: NAME.cpp, NAME.h and NAME_main.cpp in $work.
generate() {
  local name=$1 model=$2
  shift 2
  "$daec" "$source/$model" -o "$work/$name.cpp" --header "$work/$name.h" --namespace "$name" "$@" \
    >/dev/null 2>&1
  write_main "$name" "$name.h" >"$work/${name}_main.cpp"
  write_module "$name" "$name.h" "${name}_py" >"$work/${name}_module.cpp"
}

cd "$work"
generate pendulum models/pendulum.dae
generate chain models/pendulum_chain.dae -D N=1000
"$daec" "$source/models/pendulum.dae" --main -o single.cpp >/dev/null 2>&1

read -r pendulum_package_wall pendulum_package < <(seconds $cxx $flags pendulum.cpp \
  pendulum_main.cpp "$library" $libs -o pendulum_sim)
read -r pendulum_single_wall pendulum_single < <(seconds $cxx $flags single.cpp $libs -o single_sim)
read -r pendulum_model_wall pendulum_model < <(seconds $cxx $flags -c pendulum.cpp -o pendulum.o)
# Position-independent, so that the Python module links the same object.
read -r chain_model_wall chain_model < <(seconds $cxx $flags -fPIC -c chain.cpp -o chain.o)
# The package's build compiles the model once: the simulator is the model's object, the main and
# the link (what make or ninja redo after a change of the model).
read -r chain_main_wall chain_main < <(seconds $cxx $flags -c chain_main.cpp -o chain_main.o)
read -r chain_link_wall chain_link < <(seconds $cxx chain.o chain_main.o "$library" $libs \
  -o chain_sim)
chain_package=$(echo "$chain_model + $chain_main + $chain_link" | bc -l)
chain_package_wall=$(echo "$chain_model_wall + $chain_main_wall + $chain_link_wall" | bc -l)

# The Python modules, as pybind11_add_module compiles them.
pyflags="-std=c++17 -O2 -shared -fPIC -fvisibility=hidden -I$source/include $("$python-config" --includes)"
suffix=$("$python-config" --extension-suffix)
"$daec" "$source/models/pendulum.dae" --python-module single_py -o single_py.cpp >/dev/null 2>&1
"$daec" "$source/models/pendulum_chain.dae" -D N=1000 --python-module chain_single_py \
  -o chain_single_py.cpp >/dev/null 2>&1
read -r py_package_wall py_package < <(seconds $cxx $pyflags pendulum.cpp pendulum_module.cpp \
  "$python_library" -o "pendulum_py$suffix")
read -r py_single_wall py_single < <(seconds $cxx $pyflags single_py.cpp -o "single_py$suffix")
read -r chain_py_main_wall chain_py_main < <(seconds $cxx $pyflags -c chain_module.cpp \
  -o chain_module.o)
read -r chain_py_link_wall chain_py_link < <(seconds $cxx $pyflags chain.o chain_module.o \
  "$python_library" -o "chain_py$suffix")
chain_py=$(echo "$chain_model + $chain_py_main + $chain_py_link" | bc -l)
chain_py_wall=$(echo "$chain_model_wall + $chain_py_main_wall + $chain_py_link_wall" | bc -l)
read -r chain_py_single_wall chain_py_single < <(seconds $cxx $pyflags chain_single_py.cpp \
  -o "chain_single_py$suffix")
# The modules built are modules: each imports and evaluates its model.
for module in pendulum_py single_py chain_py chain_single_py; do
  "$python" -c "import $module as m; x = m.Model().initial_state(); m.Model().rhs(0.0, x)" ||
    { echo "the module $module does not work" >&2; exit 1; }
done

# call_cost NAME SIMULATOR-ARGUMENTS CALLS: the nanoseconds of rhs and residual, direct and
# virtual, then the steps, rhs evaluations and seconds of a run of the simulator.
call_cost() {
  local name=$1 arguments=$2 calls=$3 start end stats steps rhs
  $cxx $flags -I. -DMODEL_HEADER="\"$name.h\"" -DMODEL_NAMESPACE="$name" "$here/rhs_call_cost.cpp" \
    "$name.o" -o "${name}_cost"
  read -r rhs_direct rhs_virtual residual_direct residual_virtual _ < <("./${name}_cost" "$calls")
  start=$(date +%s.%N)
  stats=$("./${name}_sim" $arguments 2>&1 >/dev/null | grep -o 'steps [0-9]*, rhs evaluations [0-9]*')
  end=$(date +%s.%N)
  steps=$(echo "$stats" | sed 's/steps \([0-9]*\),.*/\1/')
  rhs=$(echo "$stats" | sed 's/.*rhs evaluations \([0-9]*\)/\1/')
  echo "$rhs_direct $rhs_virtual $residual_direct $residual_virtual $steps $rhs $(echo "$end - $start" | bc -l)"
}
read -r p_rd p_rv p_sd p_sv p_steps p_rhs p_time < <(call_cost pendulum "--t-end 10" 2000000)
read -r c_rd c_rv c_sd c_sv c_steps c_rhs c_time < <(call_cost chain "--t-end 0.1" 20000)

row() {  # name what direct virtual steps evaluations seconds
  awk -v name="$1" -v what="$2" -v d="$3" -v v="$4" -v s="$5" -v r="$6" -v t="$7" 'BEGIN {
    step = t / s * 1e6; extra = (v - d) * r / s / 1e3;
    printf "| %s | %s | %.2f | %.2f | %.1f | %.1f | %.3f%% |\n", name, what, d, v, r / s, step,
           100 * extra / step }'
}

cat >"$here/RESULTS.md" <<RESULTS
# The compiled runtime: build time and call cost

Generated by \`bench/runtime/build_and_call_cost.sh\` (do not edit by hand); $cxx -O2, one job,
wall clock, on a machine shared with other work ($(nproc) cores).

## Build time

Seconds of CPU (user + system; the wall clock in parentheses, inflated by the other work).

| What is compiled | CPU s (wall) |
|---|---|
| pendulum: simulator through the package (model + main, linked to libdaec_runtime) | $pendulum_package ($pendulum_package_wall) |
| pendulum: single file of \`daec --main\` (runtime pasted in) | $pendulum_single ($pendulum_single_wall) |
| pendulum: model alone (\`-c\`) | $pendulum_model ($pendulum_model_wall) |
| 1,000-link chain: model alone (\`-c\`) | $chain_model ($chain_model_wall) |
| 1,000-link chain: simulator through the package (model, main, link) | $chain_package ($chain_package_wall) |

Targets: the pendulum's simulator through the package in at most 2 s; the chain's simulator at
most 2 s more than its model alone.

The Python module (\`-shared -fPIC -fvisibility=hidden\`, as pybind11_add_module builds it):
the package's module compiles the model and an entry point that includes only Python.h; the single
file is what every module compiled before the binding was compiled once (the whole pybind11
binding, about 5 s of CPU of pybind11's headers alone).

| What is compiled | CPU s (wall) |
|---|---|
| pendulum: module through the package (model + DAEC_PYTHON_MODULE, linked to libdaec_python_runtime) | $py_package ($py_package_wall) |
| pendulum: single file of \`daec --python-module\` (binding pasted in) | $py_single ($py_single_wall) |
| 1,000-link chain: module through the package (model, DAEC_PYTHON_MODULE, link) | $chain_py ($chain_py_wall) |
| 1,000-link chain: single file of \`daec --python-module\` | $chain_py_single ($chain_py_single_wall) |

## The virtual call per model evaluation

The runtime calls the model through \`daec::runtime::System\` (a virtual call, then the
generated function). "direct" and "virtual" are nanoseconds per evaluation of the function the
default method calls (rhs for radau5 on the pendulum, residual for radau5-dae on the chain;
rhs_call_cost.cpp, the fastest of five rounds); the extra cost per step is their difference times
the evaluations per step, against the measured time of a step of the whole simulator (including
its Jacobians, LU and output). A negative difference is below the timer's noise.

| model | function | direct ns | virtual ns | evaluations per step | µs per step | extra per step |
|---|---|---|---|---|---|---|
$(row "pendulum (--t-end 10)" rhs "$p_rd" "$p_rv" "$p_steps" "$p_rhs" "$p_time")
$(row "1,000-link chain (--t-end 0.1)" residual "$c_sd" "$c_sv" "$c_steps" "$c_rhs" "$c_time")

Target: under 2% of a step's time.
RESULTS
cat "$here/RESULTS.md"
