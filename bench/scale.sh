#!/bin/sh
# bench/scale.sh — daec on large models: the N-link pendulum chain
# (models/pendulum_chain.dae) and the reaction-diffusion model (models/reaction_diffusion.dae,
# a method-of-lines PDE with an algebraic equilibrium at every point) from N = 2 to 10,000, each
# sized by daec -D N=.... For
# each N: daec's wall and CPU time and peak memory, the size of the generated code (written with
# --split, so that it compiles in parallel), the time and peak memory of compiling it with
# g++ -O2 (the files JOBS at a time), and the time to simulate a fixed interval with the KLU
# linear solver where the simulator has one (--linear-solver klu; "n/a" otherwise). Fits the
# growth exponents from N = 64 up, draws the plots bench/scale_*.png and writes bench/SCALE.md
# (machine, date, commit, tables, each target met or missed). About 25 minutes on two cores.
# The measurements stay in bench/scale/ (one TSV per family and run.txt), from which
# RENDER_ONLY=yes writes the plots and SCALE.md again without measuring.
#   bench/scale.sh                                      everything
#   CHAIN_N="64 128 256" RD_N="64 128" bench/scale.sh   fewer sizes
#   RENDER_ONLY=yes bench/scale.sh                      SCALE.md from bench/scale/*.tsv
# Environment (all optional): CHAIN_N, RD_N (the sizes), COMPILE_MAX_N (compile the generated
# code up to this N; default 2000), SIM_MAX_N (simulate up to this N; default 1000), SIM_T_END
# (the interval simulated, from 0; default 1), JOBS (compilers at once; default 2), CXX (default
# g++), SIM_CFLAGS and SIM_LIBS (a simulator's include flags and libraries; default what
# daec-config prints, BUILD_DIR/daec-config, written by CMake from cmake/DaecSimulatorLink.cmake),
# DAEC (a daec binary; default BUILD_DIR/daec, brought up to date first), BUILD_DIR (default
# build), OUT (default bench/SCALE.md).
# Installs what it needs and is missing (time, gnuplot-nox) with apt-get. Models and code go to
# a temporary directory that is removed at the end.
set -eu

cd "$(dirname "$0")/.."
root=$(pwd)

CHAIN_N=${CHAIN_N:-2 8 64 128 256 512 1000 2000 5000 10000}
RD_N=${RD_N:-2 8 64 128 256 512 1000 2000 5000 10000}
COMPILE_MAX_N=${COMPILE_MAX_N:-2000}
SIM_MAX_N=${SIM_MAX_N:-1000}
SIM_T_END=${SIM_T_END:-1}
JOBS=${JOBS:-2}
CXX=${CXX:-g++}
BUILD_DIR=${BUILD_DIR:-build}
OUT=${OUT:-bench/SCALE.md}
DATA=${DATA:-bench/scale}
RENDER_ONLY=${RENDER_ONLY:-no}

say() { printf '%s\n' "$*" >&2; }

if [ "$RENDER_ONLY" != yes ]; then
# --- packages -----------------------------------------------------------------------------------
missing=''
for package in time gnuplot-nox; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing="$missing $package"
done
if [ -n "$missing" ]; then
  say "scale.sh: installing$missing"
  sudo=''
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  # shellcheck disable=SC2086 # a list of package names
  $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# --- daec ---------------------------------------------------------------------------------------
if [ -z "${DAEC:-}" ]; then
  if [ -x "$BUILD_DIR/daec" ]; then
    cmake --build "$BUILD_DIR" --target daec >/dev/null
  else
    BUILD_DIR=$BUILD_DIR scripts/setup.sh
  fi
  DAEC=$root/$BUILD_DIR/daec
fi
case $DAEC in /*) ;; *) DAEC=$root/$DAEC ;; esac
[ -x "$DAEC" ] || { say "scale.sh: no daec at $DAEC"; exit 2; }
config=$root/$BUILD_DIR/daec-config
if [ -z "${SIM_CFLAGS:-}" ] || [ -z "${SIM_LIBS:-}" ]; then
  [ -x "$config" ] || { say "scale.sh: no daec-config at $config (configure $BUILD_DIR)"; exit 2; }
fi
SIM_CFLAGS=${SIM_CFLAGS:-$("$config" --cflags)}
SIM_LIBS=${SIM_LIBS:-$("$config" --libs)}

work=$(mktemp -d "${TMPDIR:-/tmp}/daec-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
started=$(date +%s)
load_start=$(cut -d ' ' -f 1-3 /proc/loadavg)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=''
[ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || dirty=' (with uncommitted changes)'

# --- measuring ----------------------------------------------------------------------------------
# timed FILE COMMAND...: runs COMMAND (stdout and stderr to FILE.log) and writes
# "wall_s cpu_s peak_rss_kb" to FILE: wall time from date (ns), CPU time (user + system) and peak
# memory from GNU time. Returns COMMAND's status.
timed() {
  file=$1
  shift
  t0=$(date +%s%N)
  status=0
  /usr/bin/time -f '%U %S %M' -o "$file.time" "$@" >"$file.log" 2>&1 || status=$?
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" 'END { printf "%.2f %.2f %s\n", (b - a) / 1e9, $1 + $2, $3 }' \
    "$file.time" >"$file"
  return "$status"
}

# The part files for N: about one per 128 links or points (a megabyte of chain code), at least 2.
split_count() { echo $((2 + $1 / 128)); }

# compile_all DIR FILE...: compiles the files JOBS at a time with $CXX -O2; prints
# "wall_s cpu_s peak_rss_kb" (wall of the whole, CPU summed, memory of the largest compiler).
compile_all() {
  dir=$1
  shift
  t0=$(date +%s%N)
  printf '%s\n' "$@" | xargs -P "$JOBS" -I '{}' sh -c \
    '/usr/bin/time -f "%U %S %M" -o "{}.time" '"$CXX"' -std=c++17 -O2 '"$SIM_CFLAGS"' -c "{}" -o "{}.o"' ||
    { say "scale.sh: compiling in $dir failed"; exit 1; }
  t1=$(date +%s%N)
  for file in "$@"; do tail -n 1 "$file.time"; done |
    awk -v a="$t0" -v b="$t1" '{ cpu += $1 + $2; if ($3 > mem) mem = $3 }
      END { printf "%.2f %.2f %d\n", (b - a) / 1e9, cpu, mem }'
}

# Whether daec's simulator can be told to use KLU (the lead's runtime adds --linear-solver).
klu_simulator=no
probe=$work/probe
mkdir "$probe"
if "$DAEC" models/pendulum_chain.dae -D N=2 --main -o "$probe/sim.cpp" >/dev/null 2>&1 &&
  # shellcheck disable=SC2086 # a list of flags
  $CXX -std=c++17 -O1 $SIM_CFLAGS -o "$probe/sim" "$probe/sim.cpp" $SIM_LIBS >/dev/null 2>&1 &&
  "$probe/sim" --help 2>&1 | grep -q -- '--linear-solver'; then
  klu_simulator=yes
fi
say "scale.sh: $("$DAEC" --version | head -n 1) at $DAEC; simulator with KLU: $klu_simulator"

# row FAMILY N: one line of the family's table, "N equations daec_wall daec_cpu daec_mem bytes
# compile_wall compile_cpu compile_mem sim_wall sim_cpu" ("-" where not measured, "n/a" without
# KLU).
row() {
  family=$1 n=$2
  dir=$work/$family$n
  mkdir -p "$dir"
  cp "models/$family.dae" "$dir/model.dae"
  # Five equations per link (x', y', u', v', rod), three per point (a', b', equilibrium).
  per_element=3
  [ "$family" = pendulum_chain ] && per_element=5
  equations=$((per_element * n))
  split=$(split_count "$n")
  if ! timed "$dir/daec" "$DAEC" "$dir/model.dae" -D "N=$n" -o "$dir/model.cpp" --split "$split"; then
    say "scale.sh: daec failed on $family $n"
    cat "$dir/daec.log" >&2
    exit 1
  fi
  files="$dir/model.cpp"
  k=1
  while [ "$k" -le "$split" ]; do
    files="$files $dir/model_$k.cpp"
    k=$((k + 1))
  done
  # shellcheck disable=SC2086 # a list of files
  bytes=$(cat $files | wc -c | tr -d ' ')
  compile='- - -'
  if [ "$n" -le "$COMPILE_MAX_N" ]; then
    # shellcheck disable=SC2086 # a list of files
    compile=$(compile_all "$dir" $files)
  fi
  rm -f "$dir"/*.o
  simulation='n/a n/a'
  if [ "$klu_simulator" = yes ] && [ "$n" -le "$SIM_MAX_N" ]; then
    simulation=$(simulate "$dir" "$split" "$n")
  elif [ "$klu_simulator" = yes ]; then
    simulation='- -'
  fi
  say "  $family N = $n: daec $(cat "$dir/daec") (s, s, KB), $bytes bytes, compile $compile, simulation $simulation"
  printf '%s %s %s %s %s %s\n' "$n" "$equations" "$(cat "$dir/daec")" "$bytes" "$compile" \
    "$simulation"
  rm -rf "$dir"
}

# simulate DIR SPLIT N: the simulator built from DIR/model.dae at size N; prints the wall and CPU
# seconds it takes for 0 .. SIM_T_END with --linear-solver klu, or "failed failed".
simulate() {
  dir=$1 split=$2 n=$3
  "$DAEC" "$dir/model.dae" -D "N=$n" --main -o "$dir/sim.cpp" --split "$split" >/dev/null 2>&1 ||
    { echo failed failed; return; }
  sources="$dir/sim.cpp"
  k=1
  while [ "$k" -le "$split" ]; do
    sources="$sources $dir/sim_$k.cpp"
    k=$((k + 1))
  done
  # shellcheck disable=SC2086 # lists of files and flags
  compile_all "$dir" $sources >/dev/null &&
    $CXX -o "$dir/sim" $(for s in $sources; do printf '%s.o ' "$s"; done) $SIM_LIBS 2>/dev/null ||
    { echo failed failed; return; }
  if timed "$dir/run" "$dir/sim" --t-end "$SIM_T_END" --linear-solver klu --output /dev/null; then
    cut -d ' ' -f 1-2 "$dir/run"
  else
    echo failed failed
  fi
}

for family in pendulum_chain reaction_diffusion; do
  case $family in
    pendulum_chain) sizes=$CHAIN_N ;;
    *) sizes=$RD_N ;;
  esac
  say "scale.sh: $family, N = $sizes"
  : >"$work/$family.tsv"
  for n in $sizes; do row "$family" "$n" >>"$work/$family.tsv"; done
done
elapsed=$(($(date +%s) - started))
load_end=$(cut -d ' ' -f 1-3 /proc/loadavg)
mkdir -p "$DATA"
cp "$work/pendulum_chain.tsv" "$work/reaction_diffusion.tsv" "$DATA/"
cat >"$DATA/run.txt" <<EOF
date=$(date -u '+%Y-%m-%d %H:%M UTC')
commit=$commit$dirty
elapsed=$elapsed
load_start=$load_start
load_end=$load_end
sim_t_end=$SIM_T_END
EOF
fi
[ -f "$DATA/run.txt" ] || { say "scale.sh: no measurements in $DATA (run without RENDER_ONLY)"; exit 2; }
run_value() { sed -n "s/^$1=//p" "$DATA/run.txt"; }
run_date=$(run_value date) commit=$(run_value commit) elapsed=$(run_value elapsed)
# A line run.txt may carry about how the run differed from this script (note=...).
run_note=$(run_value note)
load_start=$(run_value load_start) load_end=$(run_value load_end) SIM_T_END=$(run_value sim_t_end)

# --- fits, targets ------------------------------------------------------------------------------
# fit FILE COLUMN: least-squares slope of log(COLUMN) against log(N) over N >= 64.
fit() {
  awk -v c="$2" '$1 >= 64 && $c + 0 > 0 { x = log($1); y = log($c); n++; sx += x; sy += y;
      sxx += x * x; sxy += x * y }
    END { if (n < 2) print "n/a"; else printf "%.2f\n", (n * sxy - sx * sy) / (n * sxx - sx * sx) }' "$1"
}
# value FILE N COLUMN: the column's value at N ("-" if N was not measured).
value() { awk -v n="$2" -v c="$3" '$1 == n { v = $c } END { print (v == "" ? "-" : v) }' "$1"; }
# verdict VALUE LIMIT: met / missed / not measured.
verdict() {
  awk -v v="$1" -v l="$2" 'BEGIN { if (v == "-" || v == "n/a" || v == "") print "not measured";
    else if (v + 0 <= l + 0) print "met"; else print "missed" }'
}

chain=$DATA/pendulum_chain.tsv
rd=$DATA/reaction_diffusion.tsv
exponents() {
  printf '%s %s %s %s %s %s %s %s %s\n' "$(fit "$1" 3)" "$(fit "$1" 4)" "$(fit "$1" 5)" \
    "$(fit "$1" 6)" "$(fit "$1" 7)" "$(fit "$1" 8)" "$(fit "$1" 9)" "$(fit "$1" 10)" \
    "$(fit "$1" 11)"
}
chain_exp=$(exponents "$chain")
rd_exp=$(exponents "$rd")
worst_exp=$(printf '%s\n%s\n' "$chain_exp" "$rd_exp" | tr ' ' '\n' | grep -v n/a | sort -g | tail -n 1)

c1_wall=$(value "$chain" 1000 3) c1_cpu=$(value "$chain" 1000 4) c1_mem=$(value "$chain" 1000 5)
c1_cwall=$(value "$chain" 1000 7) c1_ccpu=$(value "$chain" 1000 8) c1_cmem=$(value "$chain" 1000 9)
c1_swall=$(value "$chain" 1000 10) c1_scpu=$(value "$chain" 1000 11)
c10_wall=$(value "$chain" 10000 3) c10_cpu=$(value "$chain" 10000 4)
c10_mem=$(value "$chain" 10000 5)
# The compilers' CPU time spread over the JOBS cores: the build's wall time on an idle machine.
c1_cidle=$(awk -v c="$c1_ccpu" -v j="$JOBS" 'BEGIN { if (c == "-") print "-"; else printf "%.1f", c / j }')
mb() { awk -v k="$1" 'BEGIN { if (k == "-") print "-"; else printf "%.0f", k / 1024 }'; }
# The compilers run JOBS at a time: their peak is at most JOBS times the largest one's.
c1_cmem_total=$(awk -v k="$c1_cmem" -v j="$JOBS" 'BEGIN { if (k == "-") print "-"; else printf "%.0f", k * j / 1024 }')

# --- plots --------------------------------------------------------------------------------------
plot() {
  name=$1 ylabel=$2 column=$3 column2=$4 title2=$5
  gnuplot <<EOF
set terminal pngcairo size 800,520 font "sans,10"
set output "$root/bench/$name"
set logscale xy
set key top left
set grid
set xlabel "N (links of the chain, points of the reaction-diffusion model)"
set ylabel "$ylabel"
plot "$chain" using 1:(\$$column > 0 ? \$$column : 1/0) with linespoints title "chain", \
     "$rd" using 1:(\$$column > 0 ? \$$column : 1/0) with linespoints title "reaction-diffusion", \
     "$chain" using 1:(\$$column2 > 0 ? \$$column2 : 1/0) with linespoints dashtype 2 title "chain, $title2", \
     "$rd" using 1:(\$$column2 > 0 ? \$$column2 : 1/0) with linespoints dashtype 2 title "reaction-diffusion, $title2"
EOF
}
plot scale_daec.png "daec: seconds (wall; dashed: CPU)" 3 4 "CPU"
plot scale_compile.png "g++ -O2, $JOBS at a time: seconds (wall; dashed: CPU)" 7 8 "CPU"
plot scale_size.png "generated code: bytes (dashed: daec peak memory, KB)" 6 5 "daec memory (KB)"

# --- SCALE.md -----------------------------------------------------------------------------------
table() {
  printf '| N | equations | daec wall s | daec CPU s | daec peak MB | code MB | compile wall s | compile CPU s | compiler peak MB | simulation wall s | simulation CPU s |\n'
  printf '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'
  awk '{ mem = ($5 == "-") ? "-" : sprintf("%.0f", $5 / 1024);
         cmem = ($9 == "-") ? "-" : sprintf("%.0f", $9 / 1024);
         printf "| %s | %s | %s | %s | %s | %.2f | %s | %s | %s | %s | %s |\n",
           $1, $2, $3, $4, mem, $6 / 1e6, $7, $8, cmem, $10, $11 }' "$1"
  printf '| exponent, N >= 64 | | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' $2
}
cpu=$(grep -m 1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
memory=$(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo)
{
  cat <<EOF
# Large models: the scale benchmark

Written by \`bench/scale.sh\` on $run_date, daec commit $commit, in
$((elapsed / 60)) min $((elapsed % 60)) s. Machine: $(nproc) cores ($cpu), $memory,
$(uname -sr); $($CXX --version | head -n 1). Load average $load_start at the start and
$load_end at the end: the machine is shared, so wall times stretch with the load, and CPU times
(user + system) are the steadier figures. daec and the simulator run in one thread, so their CPU
time is their wall time on an idle machine, and the targets are judged on it; the build's is
its compilers' CPU time spread over the $JOBS cores.

Each row: the model \`models/<family>.dae\`, compiled by
\`daec model.dae -D N=... -o model.cpp --split K\` with K = 2 + N/128 part files; "code MB" counts them
all. The code is compiled with \`$CXX -std=c++17 -O2 -c\`, $JOBS files at a time ("compile wall"
is the whole; "compile CPU" sums the compilers; "compiler peak" is the largest one's, so the
build's peak is at most $JOBS times it), up to N = $COMPILE_MAX_N. "simulation" is
\`sim --t-end $SIM_T_END --linear-solver klu\` with daec's simulator and its default method
(\`radau5-dae\` for these models), wall and CPU time. Exponents: least squares of log(column) against log(N) over
N >= 64.
${run_note:+
$run_note
}
## Targets

| target | measured | verdict |
| --- | --- | --- |
| chain N = 1,000: daec <= 5 s | $c1_cpu s CPU ($c1_wall s wall) | **$(verdict "$c1_cpu" 5)** |
| chain N = 1,000: daec <= 500 MB | $(mb "$c1_mem") MB | **$(verdict "$(mb "$c1_mem")" 500)** |
| chain N = 1,000: g++ -O2 of the code on $JOBS cores <= 60 s | $c1_cidle s ($c1_ccpu s CPU over $JOBS cores; $c1_cwall s wall) | **$(verdict "$c1_cidle" 60)** |
| chain N = 1,000: compiling it <= 1.5 GB | $c1_cmem_total MB ($JOBS compilers at $(mb "$c1_cmem") MB at most) | **$(verdict "$c1_cmem_total" 1536)** |
| chain N = 1,000: one second of motion simulated <= 30 s | $c1_scpu s CPU ($c1_swall s wall) | **$(verdict "$c1_scpu" 30)** |
| chain N = 10,000: daec <= 60 s | $c10_cpu s CPU ($c10_wall s wall) | **$(verdict "$c10_cpu" 60)** |
| chain N = 10,000: daec <= 4 GB | $(mb "$c10_mem") MB | **$(verdict "$(mb "$c10_mem")" 4096)** |
| exponents <= 1.2 in every column from N = 64 | largest $worst_exp | **$(verdict "$worst_exp" 1.2)** |

## The pendulum chain

$(table "$chain" "$chain_exp")

## Reaction-diffusion in equilibrium

$(table "$rd" "$rd_exp")

## Plots

![daec time](scale_daec.png)

![compile time](scale_compile.png)

![code size and daec memory](scale_size.png)

## Where the time goes

[\`bench/profile-notes.md\`](profile-notes.md) ("Large models") has the profiles behind these
figures: what grew faster than N before the large-model work, what was done about it, and what is left.
EOF
} >"$OUT"
say "scale.sh: wrote $OUT and bench/scale_*.png in $((elapsed / 60)) min $((elapsed % 60)) s"
