#!/usr/bin/env bash
# Times `routine studio` with a real browser on a generated 200-node routine and on
# routines/morning.rt (the bars are in BENCHMARKS.md, "The studio"). Uses the release build,
# and the selenium venv of scripts/browser-tests.sh.
#
#   Benchmarks/studio.sh            30 rounds each
#   ROUNDS=5 Benchmarks/studio.sh   a quick run
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

source scripts/browser-venv.sh
swift build -c release --product routine >/dev/null
swift build -c release --product routine-studio >/dev/null
swift build -c release --product routine-gen >/dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/routine-gen" 200 --seed 7 --out "$work/r200" >/dev/null
# Another generator's shape (flow sequences, four-answer questions), written as .rt to be edited.
python3 Benchmarks/shapes-gen.py other 200 >"$work/other.yaml"
"$bin/routine" convert "$work/other.yaml" --to rt --output "$work/other.rt"
export ROUTINE="${ROUTINE:-$bin/routine}"
"$venv/bin/python" Benchmarks/studio.py "200 nodes" "$work/r200.rt" "200 nodes, other shape" "$work/other.rt" "morning.rt" routines/morning.rt
# A routine of 20,000 nodes, more than the studio draws: opened with its outline.
"$venv/bin/python" Benchmarks/studio_huge.py "$bin/routine-gen"
"$venv/bin/python" Benchmarks/studio_today.py routines/morning.rt
# A run in the browser on morning.rt: each answer (Benchmarks/studio_run.py).
"$venv/bin/python" Benchmarks/studio_run.py "morning.rt" routines/morning.rt
"$venv/bin/python" Benchmarks/studio_days.py
