#!/bin/sh
# bench/ordering/run.sh — does the cost of a simulation depend on the order in which a model
# declares its variables and equations? The pendulum chain (models/pendulum_chain.dae) and the
# reaction-diffusion model (models/reaction_diffusion.dae) in three orders each: `arrays` (the
# bundled model, -D N=...), `bodies` (scalars link by link or point by point, as written by hand)
# and `random` (every declaration and equation shuffled with a fixed seed), written by
# write_model.py with the same equations term for term. For each family, N and order: daec's CPU
# time, the operations of the generated rhs, the steps, the entries of the iteration matrix's LU
# factors (the counted work of a solve, from the simulator's statistics line), the CPU time of
# one simulated second with the default method and linear solver, the time per step, and the cost
# of one call of the generated rhs, residual Jacobian, sparse rhs Jacobian and projection
# (driver.cpp --costs); the least of REPEATS, the orders of one N taking turns. Writes
# bench/ordering/results.tsv and, through report.py, RESULTS.md with the ratios across orders,
# the growth exponents from N = 64 and the targets met or missed.
#   bench/ordering/run.sh                                    every N (about 20 minutes, 2 cores)
#   ORDER_N="64 128 256" FAMILIES=chain bench/ordering/run.sh    fewer
#   RENDER_ONLY=yes bench/ordering/run.sh                     RESULTS.md from results.tsv
# Environment (all optional): ORDER_N (default 64 128 256 512 1000 2000), FAMILIES (chain rd),
# SIM_T_END (default 1), REPEATS (simulations and cost runs per row, the least CPU time
# counts; default 4), JOBS (compilers at once, default 2), CXX (default g++), BUILD_DIR
# (default build: its daec and compiled runtime, brought up to date first).
set -eu

cd "$(dirname "$0")/../.."
root=$(pwd)
here=$root/bench/ordering
ORDER_N=${ORDER_N:-64 128 256 512 1000 2000}
FAMILIES=${FAMILIES:-chain rd}
SIM_T_END=${SIM_T_END:-1}
REPEATS=${REPEATS:-4}
JOBS=${JOBS:-2}
CXX=${CXX:-g++}
BUILD_DIR=${BUILD_DIR:-build}
results=$here/results.tsv

render() { /usr/bin/python3 "$here/report.py" "$results" >"$here/RESULTS.md"; }
if [ "${RENDER_ONLY:-no}" = yes ]; then
  render
  exit 0
fi

ninja -C "$BUILD_DIR" daec daec_runtime >/dev/null
DAEC=$root/$BUILD_DIR/daec
RUNTIME=$root/$BUILD_DIR/runtime/libdaec_runtime.a
LIBS=$("$root/$BUILD_DIR/daec-config" --libs)
CFLAGS="$("$root/$BUILD_DIR/daec-config" --cflags) -I$root/include"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# cpu_of FILE: user + system seconds from /usr/bin/time -f "%U %S".
cpu_of() { tail -n 1 "$1" | awk '{ printf "%.2f", $1 + $2 }'; }

# least A B: the smaller of two numbers ("" counts as none).
least() { echo "$1 $2" | awk '{ m = $1; for (i = 2; i <= NF; ++i) if ($i < m) m = $i; print m }'; }

# build FAMILY N ORDER: the model in DIR=$work/FAMILY-N-ORDER, generated and compiled into
# DIR/driver; daec's CPU time, the rhs operations and the compile seconds in DIR/build.
build() {
  family=$1 n=$2 order=$3
  dir=$work/$family-$n-$order
  mkdir -p "$dir"
  if [ "$order" = arrays ]; then
    model=models/pendulum_chain.dae
    [ "$family" = rd ] && model=models/reaction_diffusion.dae
    define="-D N=$n"
  else
    /usr/bin/python3 "$here/write_model.py" "$family" "$n" "$order" >"$dir/model.dae"
    model=$dir/model.dae
    define=""
  fi
  split=$((2 + n / 128))
  # shellcheck disable=SC2086 # $define is one option or none
  /usr/bin/time -f "%U %S" -o "$dir/daec.time" "$DAEC" "$model" $define --namespace bench_model \
    -o "$dir/model.cpp" --header "$dir/model.h" --split "$split" >"$dir/daec.log" 2>&1 ||
    { cat "$dir/daec.log" >&2; exit 1; }
  operations=$(sed -n 's/.*(rhs: \([0-9]*\) operations).*/\1/p' "$dir/daec.log")
  sources="$here/driver.cpp $dir/model.cpp"
  k=1
  while [ "$k" -le "$split" ]; do
    sources="$sources $dir/model_$k.cpp"
    k=$((k + 1))
  done
  t0=$(date +%s)
  # shellcheck disable=SC2086 # lists of files and flags
  printf '%s\n' $sources | xargs -P "$JOBS" -I '{}' sh -c \
    "$CXX -std=c++17 -O2 $CFLAGS -I'$dir' -c '{}' -o '$dir/'\$(basename '{}').o" ||
    { echo "ordering: compiling $family $n $order failed" >&2; exit 1; }
  # shellcheck disable=SC2086 # a list of flags
  $CXX -o "$dir/driver" "$dir"/*.o "$RUNTIME" $LIBS
  echo "$(cpu_of "$dir/daec.time") $operations $(($(date +%s) - t0))" >"$dir/build"
}

# simulate DIR: one simulation; keeps the least CPU time in DIR/best and the statistics line.
simulate() {
  dir=$1
  /usr/bin/time -f "%U %S" -o "$dir/sim.time" "$dir/driver" --t-end "$SIM_T_END" --quiet \
    --output /dev/null 2>"$dir/sim.log" || { cat "$dir/sim.log" >&2; exit 1; }
  least "$(cat "$dir/best" 2>/dev/null)" "$(cpu_of "$dir/sim.time")" >"$dir/best.new"
  mv "$dir/best.new" "$dir/best"
}

# costs DIR: the generated functions' costs, the least of this and the earlier calls per column.
costs() {
  dir=$1
  "$dir/driver" --costs | sed 's/^costs //; s/[a-z_]*=//g' >"$dir/costs.new"
  if [ -f "$dir/costs" ]; then
    paste -d ' ' "$dir/costs" "$dir/costs.new" | awk '{ h = NF / 2; line = "";
      for (i = 1; i <= h; ++i) { a = $i; b = $(i + h);
        v = (a == "-") ? a : (a + 0 < b + 0 ? a : b); line = line (i > 1 ? " " : "") v }
      print line }' >"$dir/costs.min"
    mv "$dir/costs.min" "$dir/costs"
  else
    mv "$dir/costs.new" "$dir/costs"
  fi
}

# row FAMILY N ORDER: the line of results.tsv from what build, simulate and costs left.
row() {
  family=$1 n=$2 order=$3
  dir=$work/$family-$n-$order
  set -- $(cat "$dir/build")
  stats=$(grep '^method ' "$dir/sim.log")
  method=$(echo "$stats" | sed 's/^method \([^,]*\), linear solver \([^,]*\),.*/\1+\2/')
  steps=$(echo "$stats" | sed 's/.* steps \([0-9]*\),.*/\1/')
  factors=$(echo "$stats" | sed 's/.* factor nonzeros \([0-9]*\),.*/\1/')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$family" "$n" "$order" "$1" "$2" "$3" \
    "$method" "$steps" "$factors" "$(cat "$dir/best")" "$(tr ' ' '\t' <"$dir/costs")" >>"$results"
  echo "ordering: $family N = $n $order: $(tail -n 1 "$results")" >&2
  rm -rf "$dir"
}

# The header is made before results.tsv is rewritten: the rewrite itself is not a change.
header="# date=$(date -u '+%Y-%m-%d %H:%M UTC') commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' (with uncommitted changes)') machine=$(nproc) cores, $(uname -sr), $($CXX --version | head -n 1) sim_t_end=$SIM_T_END repeats=$REPEATS"
{
  echo "$header"
  printf 'family\tN\torder\tdaec_cpu_s\trhs_ops\tcompile_s\tmethod\tsteps\tfactor_nnz\tsim_cpu_s\trhs_ns\tresidual_jacobian_ns\trhs_jacobian_ns\tproject_ns\n'
} >"$results"
# The orders of one N take turns, REPEATS times, so that a slow spell of the machine (its
# timings vary by a fifth, at times by half, from minute to minute) falls on all three alike;
# the least time of each counts.
orders="arrays bodies random"
for family in $FAMILIES; do
  for n in $ORDER_N; do
    for order in $orders; do build "$family" "$n" "$order"; done
    repeat=1
    while [ "$repeat" -le "$REPEATS" ]; do
      for order in $orders; do simulate "$work/$family-$n-$order"; done
      for order in $orders; do costs "$work/$family-$n-$order"; done
      repeat=$((repeat + 1))
    done
    for order in $orders; do row "$family" "$n" "$order"; done
  done
done
render
echo "ordering: wrote $here/RESULTS.md" >&2
