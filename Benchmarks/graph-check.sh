#!/usr/bin/env bash
# `routine graph x` (DOT to standard output) beside `routine check x` of the same file, on
# routines of every shape: routine-gen's own, Benchmarks/rt-shapes-gen.py's `.rt` shapes and
# Benchmarks/shapes-gen.py's YAML ones. The bar: graph within 2x of check. Runs alternate
# between the two commands, so that a busy minute of a shared machine falls on both alike;
# the ratio is given by wall time and by CPU time (user and system), which a loaded machine
# moves far less.
#
#   Benchmarks/graph-check.sh             100,000 nodes, five runs of each
#   Benchmarks/graph-check.sh --smoke     2,000 nodes, one run: proves the script works
#   Benchmarks/graph-check.sh 20000       any size
#   BIN=path/to/dir RUNS=9 Benchmarks/graph-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

n=100000 runs=${RUNS:-5}
if [ "${1:-}" = "--smoke" ]; then n=2000 runs=1
elif [ $# -gt 0 ]; then n=$1; fi

source Benchmarks/release-bin.sh routine routine-gen
files=()
"$bin/routine-gen" "$n" --seed 3 --out "$work/routine-gen" >/dev/null
files+=("$work/routine-gen.rt" "$work/routine-gen.yaml")
for shape in chain wide deep converge emoji mix; do
    python3 Benchmarks/rt-shapes-gen.py "$shape" "$n" --seed 1 > "$work/$shape.rt"
    files+=("$work/$shape.rt")
done
for shape in other long answers converge block; do
    python3 Benchmarks/shapes-gen.py "$shape" "$n" > "$work/$shape.yaml"
    files+=("$work/$shape.yaml")
done

# One run: its wall, user and system seconds, appended to $work/COMMAND-FILE.
timed() {  # command, file
    /usr/bin/time -f "%e %U %S" -a -o "$work/$1-$(basename "$2").t" "$bin/routine" "$1" "$2" >/dev/null 2>&1 || true
}
for file in "${files[@]}"; do "$bin/routine" check "$file" >/dev/null 2>&1; done  # warm the page cache
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for run in $(seq "$runs"); do
    for file in "${files[@]}"; do
        timed check "$file"
        timed graph "$file"
    done
done
python3 - "$work" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" "${files[@]}" <<'PY'
import os, statistics, sys
work, before, after, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def runs(command, file):
    rows = [line.split() for line in open(os.path.join(work, f"{command}-{os.path.basename(file)}.t")) if line[0].isdigit()]
    return [float(r[0]) for r in rows], [float(r[1]) + float(r[2]) for r in rows]
print(f"load average {before} before, {after} after\n")
print("| file | size | check (wall) | graph (wall) | ratio | check (CPU) | graph (CPU) | ratio |")
print("|---|---|---|---|---|---|---|---|")
for file in files:
    (cw, cc), (gw, gc) = runs("check", file), runs("graph", file)
    cw, cc, gw, gc = map(statistics.median, (cw, cc, gw, gc))
    size = os.path.getsize(file) / 1e6
    # /usr/bin/time counts CPU in hundredths: a small routine may take none.
    ratio = lambda a, b: f"{a / b:.2f}x" if b > 0 else "-"
    print(f"| {os.path.basename(file)} | {size:.1f} MB | {cw:.2f} s | {gw:.2f} s | {ratio(gw, cw)} | {cc:.2f} s | {gc:.2f} s | {ratio(gc, cc)} |")
PY
