#!/usr/bin/env bash
# `routine graph FILE -o x.svg` and `-o x.png` on routines of several shapes, beside their
# peer: `dot -Tsvg` on the same DOT with no labels on its arrows. Wall time and CPU time (hyperfine: a loaded machine
# moves wall time far more than CPU time) and, where the CPU's counters can be read, the
# instructions of the command and its `dot` (perf stat).
#
#   Benchmarks/graph.sh              200 and 1,000 nodes, every shape
#   Benchmarks/graph.sh --smoke      60 nodes, one run each: proves the script works (CI)
#   Benchmarks/graph.sh 200          any sizes
#   BIN=.build/debug Benchmarks/graph.sh --smoke     without building in release
#   RUNS=1 Benchmarks/graph.sh                        one run of each command, not three
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

sizes=(200 1000)
runs=${RUNS:-3}
if [ "${1:-}" = "--smoke" ]; then sizes=(60); runs=1
elif [ $# -gt 0 ]; then sizes=("$@"); fi
for tool in hyperfine dot python3; do
    command -v "$tool" >/dev/null || { echo "graph.sh: '$tool' is missing (apt-get install hyperfine graphviz)" >&2; exit 69; }
done
# Instruction counts need the CPU's counters, which some virtual machines do not offer.
perf=0
perf stat -e instructions -x, true 2>&1 >/dev/null | grep -q '^[0-9]' && perf=1

# BIN=.build/debug takes the binaries already built there (a smoke run of the script).
source Benchmarks/release-bin.sh routine routine-gen

instructions() {  # command...: the instructions of the command and its children, in millions
    [ "$perf" = 1 ] || { echo "-"; return; }
    perf stat -e instructions -x, -o "$work/perf" "$@" >/dev/null 2>&1 || true
    awk -F, '/instructions/ { printf "%.0f", $1 / 1e6 }' "$work/perf"
}
seconds() {  # command...: the median wall time and the mean CPU time (user and system), in seconds
    hyperfine --style none --runs "$runs" -i --export-json "$work/t.json" "$*" >/dev/null 2>&1 || true
    python3 -c 'import json,sys; r = json.load(open(sys.argv[1]))["results"][0]; print("%.2f s | %.2f s" % (r["median"], r["user"] + r["system"]))' "$work/t.json"
}

pixels() {  # a PNG's width and height, from its IHDR chunk
    python3 -c 'import struct, sys; w, h = struct.unpack(">II", open(sys.argv[1], "rb").read()[16:24]); print(f"{w:,} x {h:,}")' "$1"
}

echo "| shape | nodes | labelled arrows | arrows to notes | \`graph -o x.svg\` | CPU | Minstr | \`graph -o x.png\` | CPU | pixels | peer: \`dot\`, no arrow labels | CPU | Minstr |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for n in "${sizes[@]}"; do
    "$bin/routine-gen" "$n" --seed 3 --out "$work/routine-gen" >/dev/null
    for shape in routine-gen other long answers converge block; do
        f="$work/$shape.yaml"
        [ "$shape" = routine-gen ] || python3 Benchmarks/shapes-gen.py "$shape" "$n" > "$f"
        "$bin/routine" graph "$f" -o "$work/x.dot"
        labelled=$(grep -c -E -- '-> .*x?label=' "$work/x.dot" || true)
        far=$(grep -c -- '-> " to ' "$work/x.dot" || true)
        # The peer: the same DOT without any arrow's label.
        sed -E 's/ \[x?label="([^"\\]|\\.)*"(, )?/ [/; s/ \[\]//' "$work/x.dot" > "$work/bare.dot"
        ours=$(seconds "$bin/routine" graph "$f" -o "$work/x.svg")
        ours_i=$(instructions "$bin/routine" graph "$f" -o "$work/x.svg")
        png=$(seconds "$bin/routine" graph "$f" -o "$work/x.png")
        png_size=$(pixels "$work/x.png")
        peer=$(seconds dot -Tsvg "$work/bare.dot" -o "$work/bare.svg")
        peer_i=$(instructions dot -Tsvg "$work/bare.dot" -o "$work/bare.svg")
        echo "| $shape | $n | $labelled | $far | $ours | $ours_i | $png | $png_size | $peer | $peer_i |"
    done
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
