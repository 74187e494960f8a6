#!/bin/sh
# profile.sh — what one call of the generated chain rhs costs in instructions and (simulated)
# cache misses, by valgrind --tool=callgrind on the benchmark executable that run.sh builds.
# Counts are exact and reproducible, unlike times; only Model::rhs and what it calls are counted.
#
#   bench/generated_speed/profile.sh            # N = 8 16 32 64
#   SIZES="16 64" bench/generated_speed/profile.sh
#
# Simulated caches: I1 32 KiB 8-way, D1 32 KiB 8-way, LL 512 KiB 8-way (64-byte lines), a typical
# x86-64 core's L1 and L2. Prints a Markdown table and the fitted exponent of instructions vs N.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build-bench-generated-speed}
exe=$build/generated_speed
sizes=${SIZES:-8 16 32 64 128}
[ -x "$exe" ] || { echo "profile.sh: $exe not found; run bench/generated_speed/run.sh first" >&2; exit 1; }
command -v valgrind > /dev/null || { echo "profile.sh: valgrind not found" >&2; exit 1; }

out=$build/callgrind
mkdir -p "$out"
for n in $sizes; do
  valgrind --tool=callgrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=524288,8,64 \
    --callgrind-out-file="$out/rhs.$n.out" "--toggle-collect=gen_chain$n::Model::rhs(*" \
    "$exe" "--benchmark_filter=BM_GeneratedRhs/chain$n\$" --benchmark_min_time=0.1 \
    > "$out/rhs.$n.log" 2>&1
done
nm -S -C "$exe" > "$out/symbols.txt"

python3 - "$out" $sizes <<'PY'
import math, re, sys
out, sizes = sys.argv[1], [int(s) for s in sys.argv[2:]]
symbols = open(f"{out}/symbols.txt").read().splitlines()
print("| N | instructions / call | per link | I1 misses / call | per link | LL instruction misses / call | code of the rhs path |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
points = []
for n in sizes:
    text = open(f"{out}/rhs.{n}.out").read()
    names, calls, callee = {}, 0, None
    for line in text.splitlines():
        m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
        if m:
            if m.group(3):
                names[m.group(2)] = m.group(3)
            callee = names.get(m.group(2)) if m.group(1) == "cfn" else None
        elif line.startswith("calls=") and callee and "Model::rhs(" in callee:
            calls += int(line.split("=")[1].split()[0])
    events = re.search(r"^events: (.*)$", text, re.M).group(1).split()
    totals = dict(zip(events, map(int, re.search(r"^summary: (.*)$", text, re.M).group(1).split())))
    code = 0  # bytes of Model::rhs and the helpers it calls
    for s in symbols:
        f = s.split(None, 3)
        if len(f) == 4 and f[3].startswith(f"gen_chain{n}::") and re.search(
                r"Model::rhs\(|solve_algebraic|factor_A|solve_A|all_finite", f[3]):
            code += int(f[1], 16)
    ir = totals["Ir"] / calls
    points.append((n, ir))
    i1 = totals.get("I1mr", 0) / calls
    print(f"| {n} | {ir:,.0f} | {ir / n:.0f} | {i1:,.0f} | {i1 / n:.1f} | "
          f"{totals.get('ILmr', 0) / calls:,.1f} | {code / 1024:.1f} KiB |")
fit = [(math.log(n), math.log(ir)) for n, ir in points if n >= 8]
if len(fit) >= 2:
    mx = sum(x for x, _ in fit) / len(fit)
    my = sum(y for _, y in fit) / len(fit)
    slope = sum((x - mx) * (y - my) for x, y in fit) / sum((x - mx) ** 2 for x, _ in fit)
    print(f"\nFitted exponent of instructions per call vs N (N >= 8): {slope:.3f}")
PY
