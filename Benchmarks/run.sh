#!/usr/bin/env bash
# Benchmarks every command at scale, side by side with Graphviz's acyclic and a libyaml-only
# parse, in one run on the same generated graphs. Writes Benchmarks/results.md.
#
#   Benchmarks/run.sh                 N = 10,000, 100,000 and 1,000,000 (about 20 minutes)
#   Benchmarks/run.sh --smoke         a small N, few runs: proves the script works (CI)
#   Benchmarks/run.sh 5000 50000      any sizes
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

sizes=(10000 100000 1000000)
runs=10
smoke=0
if [ "${1:-}" = "--smoke" ]; then
    smoke=1; sizes=(2000); runs=2
elif [ $# -gt 0 ]; then
    sizes=("$@")
fi

for tool in hyperfine acyclic gcc python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "run.sh: '$tool' is missing (apt-get install hyperfine graphviz gcc time)" >&2; exit 69; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product routine >/dev/null
swift build -c release --product routine-gen >/dev/null
bin=$(swift build -c release --show-bin-path)
gcc -O2 Benchmarks/yaml-parse.c -lyaml -o "$work/yaml-parse"

date=2026-11-23
measure() {  # name, size, command...
    local name=$1 size=$2; shift 2
    local n=$runs
    # The largest inputs take seconds per run; fewer runs keep the whole benchmark near 20 minutes.
    [ "$size" -ge 1000000 ] && n=3
    hyperfine --style none --warmup 1 --runs "$n" -i --export-json "$work/$name-$size.json" "$*" >/dev/null 2>&1 \
        || echo "run.sh: hyperfine failed for $name at $size" >&2
    /usr/bin/time -f "%M" -o "$work/$name-$size.rss" sh -c "$* >/dev/null 2>&1" || true
}

for n in "${sizes[@]}"; do
    echo "== N = $n" >&2
    g="$work/g$n"
    "$bin/routine-gen" "$n" --out "$g"
    measure check-rt "$n" "$bin/routine check $g.rt"
    measure check-yaml "$n" "$bin/routine check $g.yaml"
    measure graph "$n" "$bin/routine graph $g.rt"
    measure paths-count "$n" "$bin/routine paths --count $g.rt"
    measure run "$n" "$bin/routine run $g.rt --json --date $date --answers $g.answers"
    measure acyclic "$n" "acyclic -n $g.dot"
    measure libyaml "$n" "$work/yaml-parse $g.yaml"
    for ext in rt yaml dot; do stat -c %s "$g.$ext" > "$work/size-$ext-$n"; done
done
measure cold 0 "$bin/routine check routines/morning.rt"

out=Benchmarks/results.md
[ "$smoke" = 1 ] && out="$work/results.md"
python3 Benchmarks/report.py "$work" "${sizes[@]}" > "$out"
cat "$out"
