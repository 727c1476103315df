#!/usr/bin/env bash
# The language server's latency and memory bars (issue: editor integration), on the release
# build: a 5,000-node generated routine (edits sent as ranged changes, then as whole texts)
# and a real 50-node one, a 5,000-node chain with a typo that cuts off its second half (one
# warning, not 2,500), then 10,000 edits for memory.
#
#   Benchmarks/lsp.sh            the full measurement (a few minutes)
#   Benchmarks/lsp.sh --smoke    a few edits each: proves the script works (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

edits=1000 memory=10000
if [ "${1:-}" = "--smoke" ]; then edits=20 memory=120; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product routine >/dev/null
swift build -c release --product routine-gen >/dev/null
bin=$(swift build -c release --show-bin-path)
"$bin/routine-gen" 5000 --seed 1 --out "$work/generated" >/dev/null

python3 Benchmarks/lsp.py "$bin/routine" "$work/generated.rt" --edits "$edits"
# As a client that sends the whole text at every keystroke.
python3 Benchmarks/lsp.py "$bin/routine" "$work/generated.rt" --edits "$edits" --full
python3 Benchmarks/lsp.py "$bin/routine" Benchmarks/day.rt --edits "$edits"
# `-> n2500x` for `-> n2500`: the typo stands while every edit is checked.
python3 - "$work/typo.rt" <<'PY'
import sys
with open(sys.argv[1], "w") as out:
    out.write('routine "Chain"\n')
    for i in range(5000):
        arrow = " -> n2500x" if i == 2499 else f" -> n{i + 1}" if i < 4999 else ""
        out.write(f'habit n{i} "Step {i}"{arrow}\n')
PY
python3 Benchmarks/lsp.py "$bin/routine" "$work/typo.rt" --edits "$edits"
python3 Benchmarks/lsp.py "$bin/routine" "$work/generated.rt" --edits "$memory" --memory
