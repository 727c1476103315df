#!/usr/bin/env bash
# What the run history costs: a run with and without it (start-up and per step), and the
# history's readers on ten years of daily runs. Writes Benchmarks/history-results.md.
#
#   Benchmarks/history.sh            ten years of history, 2,000-node scripted runs
#   Benchmarks/history.sh --smoke    one year, few runs: proves the script works (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

days=3650 nodes=2000 runs=20 out=Benchmarks/history-results.md
if [ "${1:-}" = "--smoke" ]; then days=365 nodes=200 runs=3; fi
command -v hyperfine >/dev/null || { echo "history.sh: 'hyperfine' is missing (apt-get install hyperfine)" >&2; exit 69; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ "${1:-}" = "--smoke" ] && out="$work/history-results.md"
# Built as docs/install.md says: release, the Swift runtime linked in (start-up is a fifth
# of a ten-year `log` or `stats`), in a build folder of its own so that the other benchmarks'
# builds are not relinked.
build=(swift build -c release --static-swift-stdlib --build-path .build-static)
# The smoke run times nothing, so it shares the other benchmarks' release build: CI builds
# one release configuration, not two.
[ "${1:-}" = "--smoke" ] && build=(swift build -c release)
"${build[@]}" --product routine >/dev/null
"${build[@]}" --product routine-gen >/dev/null
bin=$("${build[@]}" --show-bin-path)
"$bin/routine-gen" "$nodes" --out "$work/g" >/dev/null
printf '\n\n5\n\n7\n' > "$work/morning.answers"
python3 Benchmarks/history-gen.py "$days" > "$work/years.jsonl"
"$bin/routine" history import "$work/years.jsonl" --history "$work/years.sqlite" 2>/dev/null
# The same answers at a terminal (a pseudo-terminal from script(1); TERM=dumb reads whole
# lines), where each step's header counts the longest remaining way; one more line ends it.
{ cat "$work/g.answers"; echo; } > "$work/g.tty-answers"
steps=$("$bin/routine" run "$work/g.rt" --json --date 2026-11-23 --answers "$work/g.answers" --no-history | grep -c '"step"')

measure() {  # name, runs, prepare, command
    hyperfine --style none -N --warmup 2 --runs "$2" ${3:+--prepare "$3"} --export-json "$work/$1.json" "$4" >/dev/null 2>&1 \
        || echo "history.sh: hyperfine failed for $1" >&2
}
morning="$bin/routine run routines/morning.rt --date 2026-11-23 --answers $work/morning.answers"
big="$bin/routine run $work/g.rt --json --date 2026-11-23 --answers $work/g.answers"
# Rounds that alternate with and without, so that a slow minute falls on both alike.
for round in 1 2 3; do
    measure "start-off-$round" "$runs" "" "$morning --no-history"
    measure "start-on-$round" "$runs" "" "$morning --history $work/small.sqlite"
    measure "steps-off-$round" 3 "" "$big --no-history"
    measure "steps-on-$round" 3 "rm -f $work/big.sqlite $work/big.sqlite-wal $work/big.sqlite-shm" "$big --history $work/big.sqlite"
done
# At a terminal the run waits on script(1) feeding its lines (about 2 s, whatever the run
# does), so the run's own processor time is what is reported, from time(1).
command -v /usr/bin/time >/dev/null && command -v script >/dev/null && for round in $(seq 1 9); do
    TERM=dumb script -qec "/usr/bin/time -f '%U %S' -o $work/terminal-$round.time $bin/routine run $work/g.rt --date 2026-11-23 --no-history" \
        /dev/null < "$work/g.tty-answers" > /dev/null
done
measure log "$runs" "" "$bin/routine log --history $work/years.sqlite"
measure log-routine "$runs" "" "$bin/routine log --history $work/years.sqlite --since 2026-01-01"
measure log-json 5 "" "$bin/routine log --history $work/years.sqlite --json"
measure export 5 "" "$bin/routine history export --history $work/years.sqlite"
# Benchmarks/ten-years.rt is the routine the generator's runs are of.
measure stats "$runs" "" "$bin/routine stats Benchmarks/ten-years.rt --history $work/years.sqlite --until 2026-11-22"
measure stats-json 5 "" "$bin/routine stats Benchmarks/ten-years.rt --history $work/years.sqlite --until 2026-11-22 --json"
measure stats-question "$runs" "" "$bin/routine stats Benchmarks/ten-years.rt --history $work/years.sqlite --until 2026-11-22 --question h3"

python3 - "$work" "$days" "$steps" "$nodes" > "$out" <<'PY'
import json, os, re, statistics, sys
work, days, steps, nodes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def times(name):
    # NAME.json or NAME-ROUND.json; not another measure that starts with NAME ('stats-json').
    paths = [p for p in os.listdir(work) if re.fullmatch(re.escape(name) + r"(-\d+)?\.json", p)]
    return sorted(t for p in paths for t in json.load(open(os.path.join(work, p)))["results"][0]["times"])
ms = lambda name: statistics.median(times(name)) * 1000
print(f"| measure | median |")
print(f"|---|---|")
print(f"| scripted run of routines/morning.rt, --no-history | {ms('start-off'):.1f} ms |")
print(f"| the same, recorded | {ms('start-on'):.1f} ms |")
print(f"| added at start-up (open, check, 5 steps) | {ms('start-on') - ms('start-off'):.1f} ms |")
print(f"| scripted run of {nodes:,} generated nodes ({steps:,} steps), --no-history | {ms('steps-off'):.1f} ms |")
print(f"| the same, recorded | {ms('steps-on'):.1f} ms |")
per_step = (ms('steps-on') - ms('steps-off') - (ms('start-on') - ms('start-off'))) * 1000 / steps
print(f"| added per recorded step (beyond start-up) | {per_step:.0f} µs |")
cpu = [sum(map(float, open(os.path.join(work, p)).read().split()[-2:])) for p in os.listdir(work) if p.endswith(".time")]
if cpu:
    print(f"| the same {nodes:,} nodes at a terminal (TERM=dumb under script(1)), progress in each header: processor time | {statistics.median(cpu) * 1000:.0f} ms |")
print(f"| `routine log` over {days:,} daily runs ({days * 30:,} steps) | {ms('log'):.1f} ms |")
print(f"| `routine log --since 2026-01-01` | {ms('log-routine'):.1f} ms |")
print(f"| `routine log --json` (every step) | {ms('log-json'):.1f} ms |")
print(f"| `routine history export` | {ms('export'):.1f} ms |")
print(f"| `routine stats` over the same ten years | {ms('stats'):.1f} ms |")
print(f"| `routine stats --json` (every habit and day) | {ms('stats-json'):.1f} ms |")
print(f"| `routine stats --question h3` (the answers and the habits after them) | {ms('stats-question'):.1f} ms |")
PY
cat "$out"
