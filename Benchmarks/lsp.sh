#!/usr/bin/env bash
# The language server's latency and memory bars (issue: editor integration), on the release
# build: a 5,000-node generated routine and a real 50-node one, then 10,000 edits for memory.
#
#   Benchmarks/lsp.sh            the full measurement (a few minutes)
#   Benchmarks/lsp.sh --smoke    a few edits each: proves the script works (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

edits=1000 memory=10000
if [ "${1:-}" = "--smoke" ]; then edits=20 memory=120; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product routine >/dev/null
swift build -c release --product routine-gen >/dev/null
bin=$(swift build -c release --show-bin-path)
"$bin/routine-gen" 5000 --seed 1 --out "$work/generated" >/dev/null

python3 Benchmarks/lsp.py "$bin/routine" "$work/generated.rt" --edits "$edits"
python3 Benchmarks/lsp.py "$bin/routine" Benchmarks/day.rt --edits "$edits"
python3 Benchmarks/lsp.py "$bin/routine" "$work/generated.rt" --edits "$memory" --memory
