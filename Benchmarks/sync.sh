#!/usr/bin/env bash
# What sync costs: `routine today` without sync and as a member of a folder of three devices
# with nothing new (bar: at most 1 ms more, the checks of the device's own folder included);
# joining that folder (bar: 2 s for ten years of three devices, about 11,000 runs) and its peak
# memory; the peak memory of joining a folder of 100 MB of journals (bar, issue #55: the
# history's own growth plus 64 MB); and a `routine sync` that reads one new day of another
# device beside one that finds nothing new (bar: 5 ms). Figures of a pair come from one run:
# the `today` pair timed in alternation (paired.py), the machine's speed may drift. Prints the
# load average and a Markdown table of medians and minima (BENCHMARKS.md).
#
#   Benchmarks/sync.sh [BIN]     BIN: a folder holding a built routine (default: a release
#                                build with the runtime linked in, as docs/install.md installs it)
#   YEARS=1 Benchmarks/sync.sh   fewer years (default 10)
#   MB=20 Benchmarks/sync.sh     a smaller folder for the memory of a large join (default 100)
#   ONLY=memory Benchmarks/sync.sh   the peak memory of the joins alone, no timing
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
command -v hyperfine >/dev/null || { echo "sync.sh: 'hyperfine' is missing (apt-get install hyperfine)" >&2; exit 69; }
work=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT; [ -n "${KEEP:-}" ] && echo "work: $work" >&2
if [ $# -gt 0 ]; then bin=$1; else
    build=(swift build -c release --static-swift-stdlib --build-path .build-static)
    "${build[@]}" --product routine >/dev/null
    bin=$("${build[@]}" --show-bin-path)
fi
r="$bin/routine"
years=${YEARS:-10}
# Each of three devices runs the morning every day of YEARS years (nine steps a run), at its
# own hour: three runs a day in the folder.
for k in 0 1 2; do
    python3 - "$work/d$k.jsonl" "$k" "$years" <<'PY'
import datetime, json, sys
out, k, years = open(sys.argv[1], "w"), int(sys.argv[2]), int(sys.argv[3])
first = datetime.date(2026, 11, 23) - datetime.timedelta(days=365 * years)
nodes = ["water", "stretch", "run", "shower", "meditate", "walk", "journal", "plan", "water2"]
def stamp(t): return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
for d in range(365 * years):
    day = first + datetime.timedelta(days=d)
    start = datetime.datetime(day.year, day.month, day.day, 6 + 4 * k, 30)
    steps = [{"step": i + 1, "node": n, "kind": "habit", "title": n, "result": "done",
              "at": stamp(start + datetime.timedelta(minutes=i)), "seconds": 60} for i, n in enumerate(nodes)]
    out.write(json.dumps({"date": day.isoformat(), "routine": "Morning", "result": "completed", "reachedEnd": False,
        "started": stamp(start), "ended": stamp(start + datetime.timedelta(minutes=10)), "utcOffset": "+00:00",
        "path": "routines/morning.rt", "sourceHash": "bench", "steps": steps}, separators=(",", ":")) + "\n")
PY
    "$r" history import "$work/d$k.jsonl" --history "$work/d$k.sqlite" 2>/dev/null
done
for k in 0 1 2; do "$r" sync init "$work/folder" --device "d$k" --history "$work/d$k.sqlite" >/dev/null; done
"$r" sync --history "$work/d0.sqlite" >/dev/null
# Without sync: the same history, every device's runs in it, after `sync leave`. The two are
# timed in alternation (paired.py), so that a drift of the machine's speed falls on both.
cp "$work/d0.sqlite" "$work/plain.sqlite"
[ ! -f "$work/d0.sqlite-wal" ] || cp "$work/d0.sqlite-wal" "$work/plain.sqlite-wal"
"$r" sync leave --history "$work/plain.sqlite" >/dev/null
today="$r today routines/morning.rt --date 2026-11-23 --history"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${ONLY:-}" != memory ]; then
python3 Benchmarks/paired.py --runs 300 --json "$work/t.json" "off=$today $work/plain.sqlite" "on=$today $work/d0.sqlite" >/dev/null
fi
echo "| measured | median | min |"
echo "|---|---|---|"
if [ "${ONLY:-}" != memory ]; then
python3 -c "
import json, sys
off, on = json.load(open(sys.argv[1]))
print('| today, no sync (the same history after sync leave) | %.2f ms | %.2f ms |' % (off['median_ms'], off['min_ms']))
print('| today, sync on, nothing new | %.2f ms | %.2f ms |' % (on['median_ms'], on['min_ms']))
print('| today, what sync adds (median of paired differences) | %+.2f ms | |' % on['median_difference_ms'])" "$work/t.json"
join="$r sync init $work/copy --device new --history $work/new.sqlite"
# With -N the prepare command is not given to a shell either: it runs one through bash.
hyperfine --style none -N --runs 5 --prepare "bash -c 'rm -rf $work/copy $work/new.sqlite $work/new.sqlite-wal $work/new.sqlite-shm; cp -r $work/folder $work/copy'" \
    --export-json "$work/j.json" "$join" >/dev/null 2>&1
python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print('| join %s years of three devices (%s runs) | %.0f ms | %.0f ms |' % (sys.argv[2], sys.argv[3], r['median']*1000, r['min']*1000))" \
    "$work/j.json" "$years" "$((3 * 365 * years))"
# An import into a synced history beside the same import into a history without sync (bar,
# issue #55: at most twice the time): ten years of one device's runs (d2's) into an empty
# history, which for the synced one has joined an empty folder. Each timed run starts again
# from the empty histories and folder.
"$r" sync init "$work/alone" --device importer --history "$work/s.sqlite" >/dev/null
cp -r "$work/alone" "$work/alone0"
for end in "" -wal; do [ ! -f "$work/s.sqlite$end" ] || cp "$work/s.sqlite$end" "$work/s0.sqlite$end"; done
cat > "$work/fresh.sh" <<EOF
rm -rf "$work"/u.sqlite* "$work"/s.sqlite* "$work/alone"
cp -r "$work/alone0" "$work/alone"
for end in "" -wal; do [ ! -f "$work/s0.sqlite\$end" ] || cp "$work/s0.sqlite\$end" "$work/s.sqlite\$end"; done
EOF
hyperfine --style none -N --runs 5 --prepare "bash $work/fresh.sh" --export-json "$work/m.json" \
    "$r history import $work/d2.jsonl --history $work/u.sqlite" "$r history import $work/d2.jsonl --history $work/s.sqlite" >/dev/null 2>&1
python3 -c "
import json, sys
plain, synced = json.load(open(sys.argv[1]))['results']
print('| import ten years of one device (3650 runs) into a history without sync | %.0f ms | %.0f ms |' % (plain['median'] * 1000, plain['min'] * 1000))
print('| the same import into a synced history (%.2fx) | %.0f ms | %.0f ms |' % (synced['median'] / plain['median'], synced['median'] * 1000, synced['min'] * 1000))" "$work/m.json"
fi
# Peak memory (maximum resident set) of a join, beside what the join adds to the history: a
# join reads in bounded memory when it holds at most that growth plus 64 MB (issue #55).
peak() { # peak LABEL FOLDER: joins a copy of FOLDER from an empty history, prints a row
    rm -rf "$work/copy" "$work/new.sqlite" "$work/new.sqlite-wal" "$work/new.sqlite-shm"
    cp -r "$2" "$work/copy"
    python3 - "$1" "$(du -sk "$2" | cut -f1)" "$work/new.sqlite" "$r" sync init "$work/copy" --device new --history "$work/new.sqlite" <<'PY'
import os, resource, sqlite3, subprocess, sys
label, folder_kb, history = sys.argv[1], int(sys.argv[2]), sys.argv[3]
done = subprocess.run(sys.argv[4:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
if done.returncode != 0:
    sys.exit("sync.sh: the join failed: " + done.stderr.strip()[:400])
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
grown = sum(os.path.getsize(history + end) for end in ["", "-wal"] if os.path.exists(history + end)) / 1048576
runs = sqlite3.connect(history).execute("SELECT count(*) FROM run").fetchone()[0]
print("| %s (%.0f MB of journals, %d runs): peak memory | %.0f MB | history %.0f MB, bar %.0f MB |" % (
    label, folder_kb / 1024, runs, peak, grown, grown + 64))
PY
}
peak "join $years years of three devices" "$work/folder"
# A folder of MB megabytes of journals (default 100), written straight as journal lines: each
# of its devices ran the morning every day of ten years at an hour of its own.
mb=${MB:-100}
python3 - "$work/big" "$mb" <<'PY'
import datetime, json, os, random, sys
folder, mb = sys.argv[1], int(sys.argv[2])
rng = random.Random(55)
nodes = ["water", "stretch", "run", "shower", "meditate", "walk", "journal", "plan", "water2"]
def stamp(t): return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
def hexid(): return "%032x" % rng.getrandbits(128)
first, total, k = datetime.date(2016, 11, 23), 0, 0
while total < mb * 1048576:
    device, seq, files = hexid(), 0, {}
    os.makedirs(os.path.join(folder, device), mode=0o700)
    def event(at, kind, member, payload):
        global seq, total
        seq += 1
        line = '{"v":1,"id":"%s","device":"%s","seq":%d,"at":"%s","type":"%s","%s":%s}\n' % (hexid(), device, seq, at, kind, member, payload)
        month = at[:7]
        if month not in files:
            files[month] = open(os.path.join(folder, device, month + ".jsonl"), "w")
        files[month].write(line)
        total += len(line)
    event(stamp(datetime.datetime(2016, 11, 22)), "device", "name", json.dumps("d%d" % k))
    for d in range(3650):
        day = first + datetime.timedelta(days=d)
        start = datetime.datetime(day.year, day.month, day.day, k % 23, 30 * (k // 23 % 2), k // 46)
        steps = [{"step": i + 1, "node": n, "kind": "habit", "title": n, "result": "done",
                  "at": stamp(start + datetime.timedelta(minutes=i)), "seconds": 60} for i, n in enumerate(nodes)]
        run = json.dumps({"date": day.isoformat(), "routine": "Morning", "result": "completed", "reachedEnd": False,
            "started": stamp(start), "ended": stamp(start + datetime.timedelta(minutes=10)), "utcOffset": "+00:00",
            "path": "routines/morning.rt", "sourceHash": "bench", "steps": steps}, separators=(",", ":"))
        event(stamp(start + datetime.timedelta(minutes=10)), "run", "run", run)
    for f in files.values():
        f.close()
    k += 1
PY
peak "join a folder of ten years of many devices" "$work/big"
# One new day on the second device before each timed run (a morning run, nine steps, each on
# a day of its own before the ten years), which the first reads with `routine sync`; beside a
# sync of the same history that finds nothing. The history is the one that has been read into
# all along, not a copy put back: a copy is a new file, which its write stamp does not know, so
# every timed run would pay the whole-file check that a real day does not.
if [ "${ONLY:-}" != memory ]; then
printf '\n\n5\n\n7\n' > "$work/morning.answers"
echo 0 > "$work/days"
cat > "$work/new-day.sh" <<EOF
n=\$(cat "$work/days"); echo \$((n + 1)) > "$work/days"
"$r" run routines/morning.rt --date "\$(date -d "2016-01-01 - \$n days" +%F)" --answers "$work/morning.answers" \\
    --history "$work/d1.sqlite" >/dev/null
EOF
"$r" sync --history "$work/d0.sqlite" >/dev/null
bash "$work/new-day.sh"
came=$("$r" sync --history "$work/d0.sqlite")
[ "$came" = "1 run from d1" ] || { echo "sync.sh: the new day did not arrive as expected: $came" >&2; exit 1; }
hyperfine --style none -N --warmup 3 --runs 30 --prepare "bash $work/new-day.sh" --export-json "$work/i.json" \
    "$r sync --history $work/d0.sqlite" >/dev/null 2>&1
hyperfine --style none -N --warmup 3 --runs 30 --export-json "$work/n.json" "$r sync --history $work/d0.sqlite" >/dev/null 2>&1
python3 -c "import json,sys; rs=[json.load(open(f))['results'][0] for f in sys.argv[1:]]; [print('| %s | %.2f ms | %.2f ms |' % (n, r['median']*1000, r['min']*1000)) for n, r in zip(['sync reading one new day (a run of nine steps)', 'sync, nothing new'], rs)]" "$work/i.json" "$work/n.json"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
