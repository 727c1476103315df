#!/usr/bin/env bash
# What sync costs a command: `routine today` on a year of runs, once without sync and once as a
# member of a folder of three devices with nothing new (bar: at most 1 ms more); then joining
# that folder and reading one more day. Both figures of a pair come from the same run, since
# the machine may be loaded. Prints a Markdown table (BENCHMARKS.md has it).
#
#   Benchmarks/sync.sh [BIN]     BIN: a folder holding a built routine (default: a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
command -v hyperfine >/dev/null || { echo "sync.sh: 'hyperfine' is missing (apt-get install hyperfine)" >&2; exit 69; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $# -gt 0 ]; then bin=$1; else
    build=(swift build -c release --static-swift-stdlib --build-path .build-static)
    "${build[@]}" --product routine >/dev/null
    bin=$("${build[@]}" --show-bin-path)
fi
r="$bin/routine"
# A year of morning runs, one history each for three devices (the runs split between them).
for k in 0 1 2; do
    python3 - "$work/d$k.jsonl" "$k" <<'PY'
import datetime, json, sys
out, k = open(sys.argv[1], "w"), int(sys.argv[2])
first = datetime.date(2025, 11, 24)
def stamp(t): return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
for d in range(k, 365, 3):
    day = first + datetime.timedelta(days=d)
    start = datetime.datetime(day.year, day.month, day.day, 6, 30)
    steps = [{"step": i + 1, "node": n, "kind": "habit", "title": n, "result": "done",
              "at": stamp(start + datetime.timedelta(minutes=i)), "seconds": 60} for i, n in enumerate(["water", "stretch", "walk"])]
    out.write(json.dumps({"date": day.isoformat(), "routine": "Morning", "result": "completed", "reachedEnd": False,
        "started": stamp(start), "ended": stamp(start + datetime.timedelta(minutes=5)), "utcOffset": "+00:00",
        "path": "routines/morning.rt", "sourceHash": "bench", "steps": steps}, separators=(",", ":")) + "\n")
PY
    "$r" history import "$work/d$k.jsonl" --history "$work/d$k.sqlite" 2>/dev/null
done
cp "$work/d0.sqlite" "$work/plain.sqlite"
for k in 0 1 2; do "$r" sync init "$work/folder" --device "d$k" --history "$work/d$k.sqlite" >/dev/null; done
"$r" sync --history "$work/d0.sqlite" >/dev/null
today="$r today routines/morning.rt --date 2026-11-23 --history"
hyperfine --style none -N --warmup 5 --runs 100 --export-json "$work/t.json" "$today $work/plain.sqlite" "$today $work/d0.sqlite" >/dev/null 2>&1
echo "| measured | mean | min |"
echo "|---|---|---|"
python3 -c "import json,sys; rs=json.load(open(sys.argv[1]))['results']; [print('| %s | %.2f ms | %.2f ms |' % (n, r['mean']*1000, r['min']*1000)) for n, r in zip(['today, no sync', 'today, sync on, nothing new'], rs)]" "$work/t.json"
join="$r sync init $work/copy --device new --history $work/new.sqlite"
hyperfine --style none -N --runs 5 --prepare "rm -rf $work/copy $work/new.sqlite $work/new.sqlite-wal $work/new.sqlite-shm; cp -r $work/folder $work/copy" \
    --export-json "$work/j.json" "$join" >/dev/null 2>&1
python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print('| join a year of three devices | %.0f ms | %.0f ms |' % (r['mean']*1000, r['min']*1000))" "$work/j.json"
