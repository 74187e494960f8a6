#!/bin/sh
# bench/run.sh — daec's benchmarks, the one command: compile-time scaling on the N-link pendulum
# chain (wall time, peak memory, generated file size, rhs operation count), dummy variables
# versus substitution (--dummies=never), the Fekete points on a sphere, and the sympy peer
# timed side by side with daec; fits the growth exponents, checks its targets,
# profiles daec with callgrind, and writes bench/RESULTS.md and the plots bench/*.png.
#   bench/run.sh                      everything (about 5 minutes on 2 cores, plus a first build)
#   REPEATS=1 REPEATS_SHORT=1 PROFILE_N=0 bench/run.sh   quicker: one run each, no profile
# Environment (all optional): DAEC (a daec binary to measure; default: BUILD_DIR/daec, built or
# brought up to date first), BUILD_DIR (default build), PYTHON (default /usr/bin/python3, with
# Debian's python3-sympy), REPEATS (runs per measurement, median taken; default 3; 7 —
# REPEATS_SHORT — for daec runs under a second), CHAIN_N,
# NEVER_N, FEKETE_N, PEER_N (the sizes), PROFILE_N (chain size profiled with callgrind; 0: none).
# Installs what it needs and is missing (time, gnuplot-nox, python3-sympy, valgrind) with
# apt-get, as scripts/setup.sh does. Generated models and code go to a temporary directory that
# is removed at the end.
set -eu

cd "$(dirname "$0")/.."
root=$(pwd)

REPEATS=${REPEATS:-3}
REPEATS_SHORT=${REPEATS_SHORT:-7}
CHAIN_N=${CHAIN_N:-2 4 8 16 32 64 128}
NEVER_N=${NEVER_N:-$CHAIN_N}
FEKETE_N=${FEKETE_N:-4 8 16 24}
PEER_N=${PEER_N:-8 16 32}
PROFILE_N=${PROFILE_N:-32}
PYTHON=${PYTHON:-/usr/bin/python3}
BUILD_DIR=${BUILD_DIR:-build}
results=bench/RESULTS.md

say() { printf '%s\n' "$*" >&2; }

# --- packages -----------------------------------------------------------------------------------
missing=''
for package in time gnuplot-nox python3-sympy valgrind; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing="$missing $package"
done
if [ -n "$missing" ]; then
  say "run.sh: installing$missing"
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
[ -x "$DAEC" ] || { say "run.sh: no daec at $DAEC"; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/daec-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
started=$(date +%s)
load=$(cut -d ' ' -f 1-3 /proc/loadavg)

# --- measuring ----------------------------------------------------------------------------------
# timed PREFIX COMMAND...: runs COMMAND once (stdout PREFIX.out, stderr PREFIX.err) and appends
# "wall_seconds peak_rss_kb cpu_seconds" to PREFIX.runs. Wall time from date (ns), memory and CPU
# time (user + system, 10 ms resolution) from GNU time.
timed() {
  prefix=$1
  shift
  t0=$(date +%s%N)
  if ! /usr/bin/time -f '%M %U %S' -o "$prefix.mem" "$@" >"$prefix.out" 2>"$prefix.err"; then
    say "run.sh: failed: $*"
    cat "$prefix.err" >&2
    exit 1
  fi
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" 'END { printf "%.4f %s %.2f\n", (b - a) / 1e9, $1, $2 + $3 }' \
    "$prefix.mem" >>"$prefix.runs"
}

# median COLUMN < FILE: the median of a column of numbers.
median() {
  awk -v c="$1" '{ print $c }' | sort -g |
    awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# daec_row MODEL.dae MODE TAG [DAEC ARGUMENTS...]: REPEATS runs of daec (MODE auto or never), with
# the arguments (-D N=16); prints
# "time_s mem_kb bytes rhs_ops rhs_jacobian_bytes states algebraic dummies cpu_s".
daec_row() {
  model=$1 mode=$2 tag=$3
  shift 3
  prefix=$work/$tag
  rm -f "$prefix.runs"
  timed "$prefix" "$DAEC" "$model" "$@" "--dummies=$mode" -o "$prefix.cpp"
  runs=$REPEATS # short runs are noisier and cheap: take more of them
  [ "$(awk '{ print ($1 < 1) }' "$prefix.runs")" -eq 0 ] || runs=$REPEATS_SHORT
  i=1
  while [ "$i" -lt "$runs" ]; do
    timed "$prefix" "$DAEC" "$model" "$@" "--dummies=$mode" -o "$prefix.cpp"
    i=$((i + 1))
  done
  summary=$(cat "$prefix.out")
  ops=$(printf '%s\n' "$summary" | sed -n 's/.*(rhs: \([0-9]*\) operations).*/\1/p')
  counts=$(printf '%s\n' "$summary" |
    sed -n 's/.*; \([0-9]*\) states, \([0-9]*\) algebraic unknowns, \([0-9]*\) dummy variables.*/\1 \2 \3/p')
  jac=$(awk '/^int Model::rhs_jacobian\(/ { on = 1 } on { n += length($0) + 1 } on && /^}/ { on = 0 } END { print n + 0 }' "$prefix.cpp")
  printf '%s %s %s %s %s %s %s\n' "$(median 1 <"$prefix.runs")" "$(median 2 <"$prefix.runs")" \
    "$(wc -c <"$prefix.cpp" | tr -d ' ')" "$ops" "$jac" "$counts" "$(median 3 <"$prefix.runs")"
}

# fit FILE COLUMN: least-squares slope of log(COLUMN) against log(N) (column 1) over N >= 8.
fit() {
  awk -v c="$2" '$1 >= 8 && $c > 0 { x = log($1); y = log($c); n++; sx += x; sy += y; sxx += x * x; sxy += x * y }
    END { if (n < 2) print "n/a"; else printf "%.2f\n", (n * sxy - sx * sy) / (n * sxx - sx * sx) }' "$1"
}

# value FILE N COLUMN: the COLUMN of the row for N.
value() { awk -v n="$2" -v c="$3" '$1 == n { print $c }' "$1"; }

kib() { awk -v b="$1" 'BEGIN { printf "%.0f", b / 1024 }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
as_x() { case $1 in n/a) printf 'n/a' ;; *) printf '%sx' "$1" ;; esac; } # 2.50 -> 2.50x

# --- 1. the chain, dummy variables (default) and substitution ------------------------------------
say "run.sh: $("$DAEC" --version | head -n 1) at $DAEC; $REPEATS runs per measurement, medians"
: >"$work/chain.tsv"
: >"$work/never.tsv"
chain=models/pendulum_chain.dae
for n in $CHAIN_N; do
  "$DAEC" "$chain" -D "N=$n" --check >/dev/null
  printf '%s %s\n' "$n" "$(daec_row "$chain" auto "chain$n" -D "N=$n")" >>"$work/chain.tsv"
  say "  chain N=$n: $(tail -n 1 "$work/chain.tsv")"
done
for n in $NEVER_N; do
  printf '%s %s\n' "$n" "$(daec_row "$chain" never "never$n" -D "N=$n")" >>"$work/never.tsv"
  say "  chain N=$n --dummies=never: $(tail -n 1 "$work/never.tsv")"
done

# --- 2. Fekete ----------------------------------------------------------------------------------
: >"$work/fekete.tsv"
for n in $FEKETE_N; do
  "$DAEC" models/fekete.dae -D "N=$n" --check >/dev/null
  auto=$(daec_row models/fekete.dae auto "fekete$n" -D "N=$n")
  never=$(daec_row models/fekete.dae never "feketenever$n" -D "N=$n")
  printf '%s %s %s\n' "$n" "$auto" "$never" >>"$work/fekete.tsv"
  say "  fekete N=$n: $auto | never: $never"
done

# --- 3. the sympy peer --------------------------------------------------------------------------
: >"$work/peer.tsv"
for n in $PEER_N; do
  prefix=$work/peer$n
  rm -f "$prefix.runs" "$prefix.work"
  i=0
  while [ "$i" -lt "$REPEATS" ]; do
    timed "$prefix" "$PYTHON" bench/sympy_peer.py "$n" -o "$prefix.c"
    sed -n 's/.*symbolic work \([0-9.]*\) s; import sympy \([0-9.]*\) s.*/\1 \2/p' "$prefix.err" >>"$prefix.work"
    i=$((i + 1))
  done
  d=$(value "$work/chain.tsv" "$n" 2)
  if [ -z "$d" ]; then # not among CHAIN_N: time daec on it now
    d=$(daec_row "$chain" auto "chain$n" -D "N=$n" | awk '{ print $1 }')
  fi
  printf '%s %s %s %s %s %s %s\n' "$n" "$d" "$(median 1 <"$prefix.runs")" "$(median 1 <"$prefix.work")" \
    "$(median 2 <"$prefix.work")" "$(median 2 <"$prefix.runs")" "$(wc -c <"$prefix.c" | tr -d ' ')" >>"$work/peer.tsv"
  say "  peer N=$n: $(tail -n 1 "$work/peer.tsv")"
done
sympy_version=$(sed -n 's/.*; sympy \([^;]*\);.*/\1/p' "$work/peer$(echo "$PEER_N" | awk '{ print $1 }').err")

# Same outputs: the peer's C and daec's C++ evaluated at the same states (bench/peer_check.cpp).
check_n=$(echo "$PEER_N" | awk '{ print $1 }')
"$DAEC" "$chain" -D "N=$check_n" -o "$work/check_daec.cpp" >/dev/null
g++ -std=c++17 -O1 -I"$work" -DDAEC_FILE="\"check_daec.cpp\"" -DDAEC_NS="pendulum_chain" \
  -DPEER_FILE="\"peer$check_n.c\"" bench/peer_check.cpp -o "$work/peer_check"
peer_check=$("$work/peer_check" | sed "s/^peer_check: /peer_check, chain N = $check_n: /")
say "  $peer_check"

# --- 4. profile ---------------------------------------------------------------------------------
profile=''
if [ "$PROFILE_N" -gt 0 ]; then
  say "  callgrind on the chain at N=$PROFILE_N (about a minute)"
  valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
    "$DAEC" "$chain" -D "N=$PROFILE_N" -o "$work/profiled.cpp" >/dev/null 2>"$work/callgrind.log"
  # "Ir (pct) file:function [object]" -> "pct | function" with the argument lists dropped.
  # shellcheck disable=SC2016 # an awk program
  shorten='{ ir = $1; line = $0; match(line, /\( *[0-9.]+%\)/); pct = substr(line, RSTART + 1, RLENGTH - 3)
             sub(/^ *[0-9,]+ \( *[0-9.]+%\) +/, "", line); sub(/ \[[^]]*\]$/, "", line)
             sub(/^[^:]*:/, "", line); gsub(/\(anonymous namespace\)/, "{anon}", line)
             sub(/\(.*$/, "", line); gsub(/ /, "", pct); printf "| %s | %s | `%s` |\n", ir, pct, line }'
  callgrind_annotate --inclusive=yes "$work/callgrind.out" 2>/dev/null | grep -E '^ *[0-9,]+ \(' |
    grep -v "'[0-9]* \\[" | grep 'daec::' | head -n 14 | awk "$shorten" >"$work/profile_inclusive.md"
  callgrind_annotate "$work/callgrind.out" 2>/dev/null | grep -E '^ *[0-9,]+ \(' |
    grep -v -e 'PROGRAM TOTALS' -e "'[0-9]* \\[" | head -n 10 | awk "$shorten" >"$work/profile_self.md"
  cg_total=$(callgrind_annotate "$work/callgrind.out" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p')
  profile=yes
fi

# --- plots --------------------------------------------------------------------------------------
# The reference slopes go through daec's time at N = 32 (or the largest N measured).
n_ref=32
[ -n "$(value "$work/chain.tsv" 32 2)" ] || n_ref=$(sort -n "$work/chain.tsv" | tail -n 1 | awk '{ print $1 }')
t_ref=$(value "$work/chain.tsv" "$n_ref" 2)
gnuplot <<EOF
set terminal pngcairo size 1200,480 font "sans,10" noenhanced
set logscale xy
set grid
set key top left
set xlabel "N (links)"
set output "bench/chain_time.png"
set multiplot layout 1,2 title "daec on the N-link pendulum chain (medians of $REPEATS or more runs)"
set ylabel "wall time (s)"
set key bottom right
t_ref = $t_ref
plot "$work/chain.tsv" using 1:2 with linespoints lw 2 pt 7 title "daec (dummy variables)", \
     "$work/never.tsv" using 1:2 with linespoints lw 2 pt 5 title "daec --dummies=never", \
     "$work/peer.tsv" using 1:4 with linespoints lw 2 pt 9 title "sympy peer (symbolic work)", \
     "$work/peer.tsv" using 1:3 with linespoints lw 1 pt 8 dt 2 title "sympy peer (whole process)", \
     t_ref * x / $n_ref with lines dt 3 lc rgb "gray40" title "slope 1 (through daec at N = $n_ref)", \
     t_ref * (x / $n_ref)**2 with lines dt 4 lc rgb "gray60" title "slope 2 (through daec at N = $n_ref)"
set key top left
set ylabel "peak memory (MiB)"
plot "$work/chain.tsv" using 1:(\$3/1024) with linespoints lw 2 pt 7 title "daec (dummy variables)", \
     "$work/never.tsv" using 1:(\$3/1024) with linespoints lw 2 pt 5 title "daec --dummies=never", \
     "$work/peer.tsv" using 1:(\$6/1024) with linespoints lw 2 pt 9 title "sympy peer"
unset multiplot

set output "bench/chain_size.png"
set multiplot layout 1,2 title "Generated code for the N-link pendulum chain"
set ylabel "generated file (KiB)"
plot "$work/chain.tsv" using 1:(\$4/1024) with linespoints lw 2 pt 7 title "whole file (dummy variables)", \
     "$work/chain.tsv" using 1:((\$4-\$6)/1024) with linespoints lw 2 pt 6 dt 2 title "without rhs_jacobian", \
     "$work/never.tsv" using 1:(\$4/1024) with linespoints lw 2 pt 5 title "whole file (--dummies=never)"
set ylabel "rhs operations (LU solve included)"
plot "$work/chain.tsv" using 1:5 with linespoints lw 2 pt 7 title "dummy variables", \
     "$work/never.tsv" using 1:5 with linespoints lw 2 pt 5 title "--dummies=never"
unset multiplot

set output "bench/fekete.png"
set multiplot layout 1,2 title "daec on N Fekete points on the sphere (medians of $REPEATS or more runs)"
set xlabel "N (points)"
set ylabel "wall time (s)"
plot "$work/fekete.tsv" using 1:2 with linespoints lw 2 pt 7 title "dummy variables", \
     "$work/fekete.tsv" using 1:11 with linespoints lw 2 pt 5 title "--dummies=never"
set ylabel "rhs operations (LU solve included)"
plot "$work/fekete.tsv" using 1:5 with linespoints lw 2 pt 7 title "dummy variables", \
     "$work/fekete.tsv" using 1:14 with linespoints lw 2 pt 5 title "--dummies=never"
unset multiplot
EOF

# --- figures and targets ------------------------------------------------------------------------
exp_time=$(fit "$work/chain.tsv" 2)
exp_mem=$(fit "$work/chain.tsv" 3)
exp_cpu=$(fit "$work/chain.tsv" 10)
# local exponents between the two largest N: where the growth is heading
local_exp() { sort -n "$1" | tail -n 2 | awk -v c="$2" '{ n[NR] = $1; v[NR] = $c }
  END { if (NR == 2 && v[1] > 0 && n[2] > n[1]) printf "%.2f", log(v[2] / v[1]) / log(n[2] / n[1]); else print "n/a" }'; }
last_n=$(sort -n "$work/chain.tsv" | tail -n 2 | awk '{ printf "%s%s", sep, $1; sep = " and " }')
local_time=$(local_exp "$work/chain.tsv" 2)
local_cpu=$(local_exp "$work/chain.tsv" 10)
local_size=$(local_exp "$work/chain.tsv" 4)
exp_size=$(fit "$work/chain.tsv" 4)
exp_ops=$(fit "$work/chain.tsv" 5)
awk '{ $4 = $4 - $6; print }' "$work/chain.tsv" >"$work/chain_nojac.tsv"
exp_size_nojac=$(fit "$work/chain_nojac.tsv" 4)
exp_never_time=$(fit "$work/never.tsv" 2)
exp_never_ops=$(fit "$work/never.tsv" 5)

verdict() { awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN { if (v == "n/a" || v == "") print "not measured";
  else if ((op == "<=" && v + 0 <= t + 0) || (op == ">=" && v + 0 >= t + 0)) print "met"; else print "missed" }'; }

target_time=$(verdict "$exp_time" '<=' 1.2)
target_size=$(verdict "$exp_size" '<=' 1.2)
ops16=$(value "$work/chain.tsv" 16 5)
never_ops16=$(value "$work/never.tsv" 16 5)
ratio_ops16=$( [ -n "$ops16" ] && [ -n "$never_ops16" ] && ratio "$never_ops16" "$ops16" || echo n/a)
ratio_time16=$( [ -n "$ops16" ] && [ -n "$never_ops16" ] &&
  ratio "$(value "$work/never.tsv" 16 2)" "$(value "$work/chain.tsv" 16 2)" || echo n/a)
target_dummies=$(verdict "$ratio_ops16" '>=' 3)
peer_d32=$(value "$work/peer.tsv" 32 2)
ratio_peer_work=$( [ -n "$peer_d32" ] && ratio "$(value "$work/peer.tsv" 32 4)" "$peer_d32" || echo n/a)
ratio_peer_total=$( [ -n "$peer_d32" ] && ratio "$(value "$work/peer.tsv" 32 3)" "$peer_d32" || echo n/a)
target_peer=$(verdict "$ratio_peer_work" '>=' 10)

# --- RESULTS.md ---------------------------------------------------------------------------------
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
source_commit=$(git log -1 --format=%h -- src templates CMakeLists.txt cmake 2>/dev/null || echo unknown)
commit="$commit (daec's sources last changed in $source_commit)"
if [ -n "$(git status --porcelain -- src templates CMakeLists.txt 2>/dev/null)" ]; then
  commit="$commit, with uncommitted changes to daec's sources"
fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
memory=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
os=$( (. /etc/os-release && echo "$PRETTY_NAME") 2>/dev/null || uname -s)
elapsed=$(($(date +%s) - started))

{
  cat <<EOF
# daec benchmarks

Written by \`bench/run.sh\` — do not edit by hand: run it again. $(date -u '+%Y-%m-%d %H:%M UTC'),
$REPEATS runs per measurement ($REPEATS_SHORT for daec runs under a second), medians; the whole run
took $elapsed s.

| machine | |
| --- | --- |
| CPU | $cpu, $(nproc) cores (\`nproc\`) |
| memory | $memory |
| load average at the start | $load (other work on the machine inflates wall times; CPU times are shown beside them) |
| system | $os, $(uname -r) |
| daec | $("$DAEC" --version | head -n 1), commit $commit, Release build |
| peer | sympy $sympy_version on $("$PYTHON" --version 2>&1) (\`$PYTHON\`) |

Models: \`models/pendulum_chain.dae -D N=...\` — the N-link planar pendulum chain in Cartesian
coordinates (4N states x, y, u, v; N rod multipliers; index 3); \`models/fekete.dae -D N=...\` — N
points on the unit sphere repelling each other (Coulomb forces, damping, one multiplier per
point; index 3). Time is the wall time of the whole \`daec MODEL.dae -D N=... -o OUT.cpp\` process, memory
its peak resident set (GNU time \`%M\`), "rhs operations" the count daec prints (the LU solve of
\`A Z = b\` included). Exponents are least-squares slopes of log(value) against log(N) over N >= 8.

## Targets

| target | figure | verdict |
| --- | --- | --- |
| compile time grows at most linearly in N (exponent <= 1.2) | exponent $exp_time (fit over N >= 8); $local_time between N = $last_n | **$target_time** |
| generated file size grows at most linearly in N (exponent <= 1.2) | exponent $exp_size (fit over N >= 8); $local_size between N = $last_n | **$target_size** |
| dummy variables >= 3x fewer rhs operations than substitution at N = 16 | $(as_x "$ratio_ops16") ($never_ops16 / $ops16) | **$target_dummies** |
| daec >= 10x faster than the sympy peer at N = 32 | $(as_x "$ratio_peer_work") (symbolic work only; $(as_x "$ratio_peer_total") whole process) | **$target_peer** |
| generated rhs no slower than hand-written, linear in N | see \`bench/generated_speed/\` | (separate harness) |

## 1. Compile-time scaling: the pendulum chain

| N | states | algebraic | wall time (s) | CPU time (s) | peak memory (MiB) | generated file (KiB) | of which rhs_jacobian (KiB) | rhs operations |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
EOF
  while read -r n t m b o j s a d c; do
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$s" "$a" "$t" "$c" "$(mib "$m")" "$(kib "$b")" "$(kib "$j")" "$o"
  done <"$work/chain.tsv"
  cat <<EOF

Growth exponents, least squares over N >= 8: wall time **$exp_time** (CPU time $exp_cpu),
generated file size **$exp_size** (without the \`rhs_jacobian\` function: $exp_size_nojac), peak
memory $exp_mem, rhs operations $exp_ops. Between the two largest N ($last_n), where the fixed
start-up cost no longer hides the growth: wall time $local_time, CPU time $local_cpu, file size
$local_size.

![daec time and memory on the chain](chain_time.png)

![generated code size and rhs operations on the chain](chain_size.png)

## 2. Dummy variables versus substitution (\`--dummies=never\`)

| N | rhs operations, dummies | rhs operations, never | never / dummies | time dummies (s) | time never (s) | never / dummies | file dummies (KiB) | file never (KiB) |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
EOF
  while read -r n t m b o j s a d c; do
    row=$(awk -v n="$n" '$1 == n' "$work/never.tsv")
    [ -n "$row" ] || continue
    # shellcheck disable=SC2086 # split the row into its fields
    set -- $row
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$o" "$5" "$(ratio "$5" "$o")" \
      "$t" "$2" "$(ratio "$2" "$t")" "$(kib "$b")" "$(kib "$4")"
  done <"$work/chain.tsv"
  cat <<EOF

At N = 16: substitution needs **$(as_x "$ratio_ops16")** the rhs operations of dummy variables and
$(as_x "$ratio_time16") the compile time. Exponents of the substitution variant (N >= 8): time
$exp_never_time, rhs operations $exp_never_ops. Why substitution wins on this model: see the end of
the Profile section.

## 3. The Fekete points on a sphere

Every pair of points interacts, so the model itself has N(N-1)/2 pair terms: quadratic growth
is the model's, not daec's.

| N | states | algebraic | time (s) | peak memory (MiB) | generated file (KiB) | rhs operations | time never (s) | rhs operations never | never / dummies (operations) |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
EOF
  while read -r n t m b o j s a d c t2 _ _ o2 _; do
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$s" "$a" "$t" "$(mib "$m")" "$(kib "$b")" "$o" "$t2" "$o2" "$(ratio "$o2" "$o")"
  done <"$work/fekete.tsv"
  cat <<EOF

![daec on the Fekete model](fekete.png)

## 4. daec versus a sympy peer

\`bench/sympy_peer.py N\` does by hand, with sympy, the symbolic work daec does for the chain:
differentiates the N rod constraints twice (\`sympy.diff\`), forms the index-1 system
\`A Z = b\` with the dummy variables (\`Matrix.jacobian\`), the Jacobians every output function
needs, removes common subexpressions (\`sympy.cse\`, per function as daec does) and prints C
(\`sympy.ccode\`): rhs, rhs_jacobian, residual, residual_jacobian, invariants,
invariants_jacobian. It is told the answer (which constraints to differentiate, which
derivatives become dummy variables), so it skips what daec also does — structural analysis,
symbolic rank tests, classification, an LU specialised to the block structure (the peer prints
one generic dense LU), projection and initialisation code: the comparison favours the peer.
Both compute the same numbers: \`bench/peer_check.cpp\` evaluates the two generated codes at five
states of the chain and compares them by name —

    $peer_check

"Symbolic work" excludes the Python start-up and \`import sympy\` (measured inside the script);
"whole process" is the wall time of \`python3 bench/sympy_peer.py N -o OUT.c\`, like daec's.

| N | daec (s) | sympy peer, symbolic work (s) | sympy peer, whole process (s) | import sympy (s) | peer / daec (work) | peer / daec (process) | peer peak memory (MiB) |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
EOF
  while read -r n d whole sw imp mem _; do
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$d" "$sw" "$whole" "$imp" "$(ratio "$sw" "$d")" "$(ratio "$whole" "$d")" "$(mib "$mem")"
  done <"$work/peer.tsv"
  cat <<EOF

## 5. Generated-code speed

Generated-code speed: see bench/generated_speed/ (a Google Benchmark harness of its own).
EOF
  if [ -n "$profile" ]; then
    cat <<EOF

## Profile

\`valgrind --tool=callgrind\` on \`daec pendulum_chain$PROFILE_N.dae -o OUT.cpp\` (this run, this commit):
$cg_total instructions in all. The daec functions with the largest inclusive cost (callees included):

| instructions | % | function |
| ---: | ---: | --- |
$(cat "$work/profile_inclusive.md")

The largest self costs (the function's own instructions):

| instructions | % | function |
| ---: | ---: | --- |
$(cat "$work/profile_self.md")
EOF
    if [ -f bench/profile-notes.md ]; then
      printf '\n'
      cat bench/profile-notes.md
    fi
  fi
} >"$results"

# --- on the terminal ----------------------------------------------------------------------------
sed -n '/^## Targets/,/^## 5\./p' "$results" | grep -v '^!\[' | sed '$d'
say "run.sh: wrote $results, bench/chain_time.png, bench/chain_size.png, bench/fekete.png in $elapsed s"
# SCALE=yes: also the large-model benchmark, N up to 10,000 (about 25 minutes; bench/SCALE.md).
[ "${SCALE:-no}" != yes ] || DAEC=$DAEC bench/scale.sh
