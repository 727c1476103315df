#!/usr/bin/env bash
# Measures `routine test` on the example routines with one case per way through each (every
# way `routine paths` lists, recorded with `routine test --record`), without and with
# --coverage. The bar: under 100 ms in all, coverage adding at most 20%.
#
#   Benchmarks/test.sh            10 warm-up runs, 50 measured runs of each
#   Benchmarks/test.sh --smoke    a few runs: proves the script works
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

runs=50
[ "${1:-}" = "--smoke" ] && runs=3
command -v hyperfine >/dev/null || { echo "test.sh: hyperfine is missing (apt-get install hyperfine)" >&2; exit 69; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product routine >/dev/null
bin="$(swift build -c release --show-bin-path)/routine"

cases=0
for routine in routines/*.rt routines/*.yaml; do
    name=$(basename "$routine")
    cp "$routine" "$work/$name"
    # Each way's answers, from 'routine paths': "N. q: option · q2: option · 1h". A habit is
    # skipped ('s'), which a question refuses; an option's text is refused by a habit. So each
    # answer follows as many 's' lines as the routine has nodes, and lands on its question.
    nodes=$(grep -cE '^\s*(habit|question) |^\s*- (habit|question):' "$routine" || true)
    way=0
    while IFS= read -r line; do
        way=$((way + 1))
        answers="$work/answers"
        : > "$answers"
        IFS='·' read -ra parts <<< "${line#*. }"
        for part in "${parts[@]}"; do
            part="${part# }"; part="${part% }"
            [[ "$part" == *": "* ]] || continue
            for _ in $(seq "$nodes"); do echo s >> "$answers"; done
            echo "${part#*: }" >> "$answers"
        done
        for _ in $(seq "$nodes"); do echo s >> "$answers"; done
        "$bin" test --record "$work/$name.test" --answers "$answers" --date 2026-11-27 --name "way $way" 2>/dev/null
        cases=$((cases + 1))
    done < <("$bin" paths "$routine" --limit 1000 | grep -E '^[0-9]+\. ')
done
"$bin" test --coverage "$work" > "$work/out.txt" || { cat "$work/out.txt"; exit 1; }
echo "$cases cases in $(ls "$work"/*.test | wc -l) files; $(tail -1 "$work/out.txt")"
grep '^coverage of' "$work/out.txt" || true

cd "$work"
hyperfine --style basic --warmup 10 --runs "$runs" -N "$bin test ." "$bin test --coverage ." \
    "$bin test --format json ." "$bin test --format junit ." 2>&1 | grep -E 'Benchmark|Time|Range'
