#!/usr/bin/env bash
# The language server's keystroke on 5,000-node routines of every shape of
# Benchmarks/rt-shapes-gen.py (a long chain, wide questions, deep nesting, converging paths,
# long labels with emoji, a mix), each as generated and with a typo that cuts off its second
# half, on the release build: Benchmarks/lsp.py's round trip from `didChange` to that
# version's diagnostics, one letter of a title near the middle typed at a time.
#
#   Benchmarks/lsp-shapes.sh              5,000 nodes, 1,000 edits a shape, three rounds
#   Benchmarks/lsp-shapes.sh --smoke      200 nodes, 20 edits, one round: proves the script works
#   EDITS=300 ROUNDS=5 Benchmarks/lsp-shapes.sh
#   BIN=path/to/dir Benchmarks/lsp-shapes.sh        a routine binary already built there
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

nodes=5000 edits=${EDITS:-1000} rounds=${ROUNDS:-3}
if [ "${1:-}" = "--smoke" ]; then nodes=200 edits=20 rounds=1; fi

source Benchmarks/release-bin.sh routine
shapes=(chain wide deep converge emoji mix)
for shape in "${shapes[@]}"; do
    python3 Benchmarks/rt-shapes-gen.py "$shape" "$nodes" --seed 1 > "$work/$shape.rt"
    python3 Benchmarks/rt-shapes-gen.py "$shape" "$nodes" --seed 1 --typo > "$work/$shape-typo.rt"
done
# Rounds cycle through the shapes, so that a busy minute of a shared machine falls on all alike.
for round in $(seq "$rounds"); do
    for shape in "${shapes[@]}"; do
        for kind in "" -typo; do
            python3 Benchmarks/lsp.py "$bin/routine" "$work/$shape$kind.rt" --edits "$edits" > "$work/out-$shape$kind-$round"
        done
    done
done
python3 - "$work" "$rounds" "${shapes[@]}" <<'PY'
import os, re, statistics, sys
work, rounds, shapes = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
print("| shape | lines | bytes | median of the rounds' medians | their range | min | server CPU per edit | load |")
print("|---|---|---|---|---|---|---|---|")
for shape in shapes:
    for kind in ("", "-typo"):
        medians, minima, cpu, loads = [], [], [], []
        for r in range(1, rounds + 1):
            text = open(os.path.join(work, f"out-{shape}{kind}-{r}")).read()
            size = re.search(r"\((\d+) lines, (\d+) bytes\)", text)
            medians.append(float(re.search(r"median ([\d.]+) ms", text).group(1)))
            minima.append(float(re.search(r"min ([\d.]+) ms", text).group(1)))
            cpu.append(float(re.search(r"CPU per edit: ([\d.]+) ms", text).group(1)))
            loads.append(float(re.search(r"load average ([\d.]+)", text).group(1)))
        name = shape + (" with a typo" if kind else "")
        print(f"| {name} | {size.group(1)} | {int(size.group(2)):,} | {statistics.median(medians):.2f} ms | "
              f"{min(medians):.2f} to {max(medians):.2f} ms | {min(minima):.2f} ms | {statistics.median(cpu):.2f} ms | "
              f"{min(loads):.1f} to {max(loads):.1f} |")
PY
