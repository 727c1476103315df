#!/usr/bin/env bash
# `routine today` as a status bar polls it: morning.rt with a year of daily runs, logs among
# them, in every form. The bar is 15 ms. Prints a Markdown table (BENCHMARKS.md has it).
#
#   Benchmarks/today.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
command -v hyperfine >/dev/null || { echo "today.sh: 'hyperfine' is missing (apt-get install hyperfine)" >&2; exit 69; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build=(swift build -c release --static-swift-stdlib --build-path .build-static)
"${build[@]}" --product routine >/dev/null
bin=$("${build[@]}" --show-bin-path)

# A year of mornings up to 2026-11-23: a run a day (answers drawn from a seeded generator),
# and a logged glass of water on one day in three before the run.
python3 - "$work/year.jsonl" <<'PY'
import datetime, json, random, sys
rng = random.Random(7)
first = datetime.date(2025, 11, 24)
out = open(sys.argv[1], "w")
def stamp(t): return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
def run(day, start, steps, kind=None):
    line = {"date": day.isoformat(), "routine": "Morning", "result": "completed", "reachedEnd": False,
            "started": stamp(start), "ended": stamp(start + datetime.timedelta(minutes=40)), "utcOffset": "+00:00",
            "path": "routines/morning.rt", "sourceHash": "bench"}
    if kind: line["kind"] = kind
    line["steps"] = steps
    out.write(json.dumps(line, separators=(",", ":")) + "\n")
for d in range(365):
    day = first + datetime.timedelta(days=d)
    start = datetime.datetime(day.year, day.month, day.day, 6, rng.randint(0, 59))
    logged = rng.random() < 1 / 3
    if logged:
        run(day, start - datetime.timedelta(minutes=20), [{"step": 1, "node": "water", "kind": "habit", "title": "Drink a glass of water",
            "result": "done", "at": stamp(start - datetime.timedelta(minutes=20)), "seconds": 0}], "log")
    steps = []
    def add(node, title, result, **extra):
        steps.append({"step": len(steps) + 1, "node": node, "kind": "habit", "title": title, "result": result,
                      **extra, "at": stamp(start + datetime.timedelta(minutes=len(steps))), "seconds": 60})
    if logged:
        add("water", "Drink a glass of water", "not-scheduled", reason="done-by-log")
    else:
        add("water", "Drink a glass of water", "done")
    add("stretch", "Stretch", "done" if rng.random() < 0.8 else "skipped")
    steps.append({"step": len(steps) + 1, "node": "mood", "kind": "question", "title": "How are you feeling today?",
                  "result": "answered", "option": "Okay", "index": 2, "at": stamp(start), "seconds": 5})
    add("walk", "Go for a walk", "done")
    if day.weekday() < 5: add("plan", "Plan the day", "done")
    else: add("plan", "Plan the day", "not-scheduled")
    add("water2", "Drink water", "done", value=rng.randint(4, 9), target=8, unit="glasses")
    run(day, start, steps)
PY
"$bin/routine" history import "$work/year.jsonl" --history "$work/year.sqlite" >/dev/null
today="$bin/routine today routines/morning.rt --date 2026-11-23 --history $work/year.sqlite"
echo "| \`routine today\` on morning.rt, a year of runs and logs | mean | min |"
echo "|---|---|---|"
for form in "" "--format waybar" "--format short" "--json"; do
    hyperfine --style none -N --warmup 5 --runs 100 --export-json "$work/t.json" "$today $form" >/dev/null 2>&1
    python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print('| %s | %.1f ms | %.1f ms |' % (sys.argv[2], r['mean']*1000, r['min']*1000))" \
        "$work/t.json" "${form:-table}"
done
