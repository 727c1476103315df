#!/usr/bin/env bash
# Benchmarks every command at scale, side by side with Graphviz's acyclic and a libyaml-only
# parse, in one run on the same generated graphs. Writes Benchmarks/results.md.
#
#   Benchmarks/run.sh                 N = 10,000, 100,000 and 1,000,000 (about 20 minutes)
#   Benchmarks/run.sh --smoke         a small N, few runs: proves the script works (CI)
#   Benchmarks/run.sh 5000 50000      any sizes
#   Benchmarks/run.sh --yaml [N]      only `check x.yaml` beside libyaml on every shape (N = 100,000)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

sizes=(10000 100000 1000000)
runs=2
smoke=0
yaml_only=0
if [ "${1:-}" = "--smoke" ]; then
    smoke=1; sizes=(2000); runs=2
elif [ "${1:-}" = "--yaml" ]; then
    yaml_only=1; sizes=("${2:-100000}")
elif [ $# -gt 0 ]; then
    sizes=("$@")
fi

for tool in hyperfine acyclic gcc python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "run.sh: '$tool' is missing (apt-get install hyperfine graphviz gcc time)" >&2; exit 69; }
done

# BIN=path takes the release binaries already built there.
source Benchmarks/release-bin.sh routine routine-gen
# Linked as the release build links libyaml: from its archive.
gcc -O2 Benchmarks/yaml-parse.c -l:libyaml.a -o "$work/yaml-parse"

date=2026-11-23
# Runs are taken in rounds that cycle through the commands, so that a slow minute of a shared
# machine falls on a command and its peer alike rather than on one of them.
measure_round() {  # name, size, round, runs, command...
    local name=$1 size=$2 round=$3 n=$4; shift 4
    local warmup=0
    [ "$round" = 1 ] && warmup=1
    hyperfine --style none --warmup "$warmup" --runs "$n" -i --export-json "$work/$name-$size-$round.json" "$*" >/dev/null 2>&1 \
        || echo "run.sh: hyperfine failed for $name at $size" >&2
}
peak_rss() {  # name, size, command...
    local name=$1 size=$2; shift 2
    /usr/bin/time -f "%M" -o "$work/$name-$size.rss" sh -c "$* >/dev/null 2>&1" || true
}

# `check x.yaml` beside libyaml's parse of the same file, on routine-gen's shape and on every
# shape of Benchmarks/shapes-gen.py (flow and block sequences, long texts, many answers), at
# the size nearest 100,000: five interleaved rounds of two runs.
yaml_shapes() {
    local n=$1 rounds=5 per=2
    [ "$smoke" = 1 ] && rounds=1 per=1
    local shapes=(routine-gen other long answers converge block)
    "$bin/routine-gen" "$n" --out "$work/shape-routine-gen" >/dev/null
    mv "$work/shape-routine-gen.yaml" "$work/shape-routine-gen-$n.yaml"
    for shape in "${shapes[@]:1}"; do python3 Benchmarks/shapes-gen.py "$shape" "$n" > "$work/shape-$shape-$n.yaml"; done
    local load_before
    load_before=$(cut -d' ' -f1-3 /proc/loadavg)
    for round in $(seq "$rounds"); do
        for shape in "${shapes[@]}"; do
            measure_round "yaml-$shape-check" "$n" "$round" "$per" "$bin/routine check $work/shape-$shape-$n.yaml"
            measure_round "yaml-$shape-libyaml" "$n" "$round" "$per" "$work/yaml-parse $work/shape-$shape-$n.yaml"
        done
    done
    python3 - "$work" "$n" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" "${shapes[@]}" <<'PY'
import json, os, statistics, sys
work, n, before, after, shapes = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
def times(name):
    out = []
    for path in os.listdir(work):
        if path.startswith(f"{name}-{n}-") and path.endswith(".json"):
            out += json.load(open(os.path.join(work, path)))["results"][0]["times"]
    return out
print(f"\n`check x.yaml` beside libyaml's event parse, {n:,} nodes of each shape (load average {before} before, {after} after):\n")
print("| shape | YAML | check x.yaml | libyaml parse (C) | ratio | fastest runs |")
print("|---|---|---|---|---|---|")
for shape in shapes:
    ours, floor = times(f"yaml-{shape}-check"), times(f"yaml-{shape}-libyaml")
    if not ours or not floor:
        print(f"| {shape} | | failed | | | |")
        continue
    size = os.path.getsize(os.path.join(work, f"shape-{shape}-{n}.yaml")) / 1e6
    m, f = statistics.median(ours), statistics.median(floor)
    print(f"| {shape} | {size:.1f} MB | {m * 1000:.0f} ms | {f * 1000:.0f} ms | {m / f:.2f}x | {min(ours) / min(floor):.2f}x |")
PY
}

if [ "$yaml_only" = 1 ]; then
    yaml_shapes "${sizes[0]}"
    exit 0
fi

for n in "${sizes[@]}"; do
    echo "== N = $n" >&2
    g="$work/g$n"
    "$bin/routine-gen" "$n" --out "$g"
    names=(check-rt check-yaml graph paths-count run acyclic libyaml)
    commands=(
        "$bin/routine check $g.rt"
        "$bin/routine check $g.yaml"
        "$bin/routine graph $g.rt"
        "$bin/routine paths --count $g.rt"
        "$bin/routine run $g.rt --json --date $date --answers $g.answers --no-history"
        "acyclic -n $g.dot"
        "$work/yaml-parse $g.yaml"
    )
    # Five rounds of two runs; the largest inputs take seconds per run, so five rounds of one.
    rounds=5 per=2
    [ "$n" -ge 1000000 ] && rounds=5 per=1
    [ "$smoke" = 1 ] && rounds=1 per=$runs
    for round in $(seq "$rounds"); do
        for k in "${!names[@]}"; do measure_round "${names[$k]}" "$n" "$round" "$per" "${commands[$k]}"; done
    done
    for k in "${!names[@]}"; do peak_rss "${names[$k]}" "$n" "${commands[$k]}"; done
    for ext in rt yaml dot; do stat -c %s "$g.$ext" > "$work/size-$ext-$n"; done
done
for round in 1 2; do measure_round cold 0 "$round" 5 "$bin/routine check routines/morning.rt"; done

# `paths --count` on a routine it cannot count (every node reachable, random forward arrows
# within 50 places): it must refuse within 30 times the `check` of the same file.
forward_n=100000
[ "$smoke" = 1 ] && forward_n=2000
python3 Benchmarks/forward-gen.py "$forward_n" > "$work/forward.rt"
for round in 1 2 3; do
    measure_round forward-check "$forward_n" "$round" 2 "$bin/routine check $work/forward.rt"
    measure_round forward-paths "$forward_n" "$round" 1 "$bin/routine paths --count $work/forward.rt"
done
peak_rss cold 0 "$bin/routine check routines/morning.rt"

out=Benchmarks/results.md
[ "$smoke" = 1 ] && out="$work/results.md"
python3 Benchmarks/report.py "$work" "${sizes[@]}" > "$out"
yaml_n=$(python3 -c 'import sys; print(min(map(int, sys.argv[1:]), key=lambda n: abs(n - 100000)))' "${sizes[@]}")
yaml_shapes "$yaml_n" >> "$out"
cat "$out"

# The YAML bar: `check x.yaml` against the libyaml-only parse, at the size nearest 100,000,
# set against the newest ratio recorded in Benchmarks/journal.md (its rounds go newest first). A slip
# of more than a tenth warns; a shared machine's noise should not fail a run.
python3 - "$work" Benchmarks/journal.md "${sizes[@]}" "$forward_n" <<'PY'
import json, os, re, statistics, sys
work, record, sizes = sys.argv[1], sys.argv[2], [int(n) for n in sys.argv[3:-1]]
n = min(sizes, key=lambda size: abs(size - 100_000))
def median(name, size=None):
    times = []
    for path in os.listdir(work):
        if path.startswith(f"{name}-{size or n}-") and path.endswith(".json"):
            times += json.load(open(os.path.join(work, path)))["results"][0]["times"]
    return statistics.median(times) if times else None
forward_check, forward_paths = median("forward-check", int(sys.argv[-1])), median("forward-paths", int(sys.argv[-1]))
if forward_check and forward_paths:
    print(f"paths --count refusing the {int(sys.argv[-1]):,}-node forward routine: {forward_paths * 1000:.0f} ms, "
          f"{forward_paths / forward_check:.1f}x its check ({forward_check * 1000:.0f} ms; bar: at most 30x)")
check, floor = median("check-yaml"), median("libyaml")
if not check or not floor:
    sys.exit("run.sh: no YAML timings to compare")
ratio = check / floor
print(f"\ncheck x.yaml / libyaml parse at {n:,} nodes: {ratio:.2f}x (bar: at most 1.3x)")
recorded = re.findall(r"^Recorded YAML ratio: ([0-9.]+)x", open(record, encoding="utf-8").read(), re.M)
if n != 100_000:
    print("the recorded ratio is for 100,000 nodes; at this size start-up weighs more, so it is not compared")
elif not recorded:
    print("no YAML ratio recorded in Benchmarks/journal.md yet")
elif ratio > float(recorded[0]) * 1.1:
    print(f"warning: the YAML ratio slipped from {recorded[0]}x (last recorded) to {ratio:.2f}x, more than 10%", file=sys.stderr)
else:
    print(f"last recorded: {recorded[0]}x")
PY
