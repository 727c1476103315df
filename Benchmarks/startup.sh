#!/usr/bin/env bash
# Start-up and size of the installed binary, beside the floor: a static Swift program that
# prints one line, built in the same run with the same toolchain. Commands a status bar or a
# prompt runs: `check routines/morning.rt`, `today` on a year of history, `--version`.
# Rounds of hyperfine cycle through all the commands, so that a slow minute of a shared
# machine falls on the floor and the commands alike; medians and minima over all rounds.
#
#   Benchmarks/startup.sh                          the install build (docs/install.md), 8 rounds of 50 runs
#   Benchmarks/startup.sh --smoke                  2 rounds of 3 runs: proves the script works (CI)
#   BIN=.build/debug Benchmarks/startup.sh --smoke   without building in release
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

rounds=8 runs=50 warmup=10
if [ "${1:-}" = "--smoke" ]; then rounds=2 runs=3 warmup=1; fi
for tool in hyperfine python3; do
    command -v "$tool" >/dev/null || { echo "startup.sh: '$tool' is missing (apt-get install hyperfine python3)" >&2; exit 69; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The install build as docs/install.md says, in a build folder of its own so that the other
# benchmarks' builds are not relinked. BIN=FOLDER takes the binary already built there.
bin=${BIN:-}
if [ -z "$bin" ]; then
    build=(swift build -c release --static-swift-stdlib -Xlinker -s -Xlinker --no-export-dynamic -Xlinker -no-pie --build-path .build-install)
    "${build[@]}" --product routine >/dev/null
    "${build[@]}" --product routine-studio >/dev/null
    bin=$("${build[@]}" --show-bin-path)
fi
# Installed as docs/install.md installs it: without the unwind tables (objcopy).
routine="$work/routine"
for program in routine routine-studio; do
    [ -e "$bin/$program" ] || continue
    if command -v objcopy >/dev/null; then
        objcopy --remove-section=.eh_frame --remove-section=.eh_frame_hdr "$bin/$program" "$work/$program"
    else
        cp "$bin/$program" "$work/$program"
    fi
done

# The floor: one line printed by a static Swift program, stripped like the install build.
# Beside it, the same program at a fixed address (-no-pie), as the install links the programs.
echo 'print("routine 0.1.0")' > "$work/floor.swift"
swiftc -O -static-stdlib -Xlinker -s "$work/floor.swift" -o "$work/floor"
swiftc -O -static-stdlib -Xlinker -s -Xclang-linker -no-pie "$work/floor.swift" -o "$work/floor-fixed"

# A year of daily runs of Benchmarks/ten-years.rt (30 steps each); `today` on its last day.
python3 Benchmarks/history-gen.py 365 > "$work/year.jsonl"
"$routine" history import "$work/year.jsonl" --history "$work/year.sqlite" >/dev/null 2>&1
last=$(tail -n 1 "$work/year.jsonl" | python3 -c 'import json, sys; print(json.load(sys.stdin)["date"])')

names=(floor fixed check today version)
commands=(
    "$work/floor"
    "$work/floor-fixed"
    "$routine check routines/morning.rt"
    "$routine today Benchmarks/ten-years.rt --date $last --history $work/year.sqlite"
    "$routine --version"
)
for ((round = 1; round <= rounds; round++)); do
    hyperfine --style none -N --warmup "$warmup" --runs "$runs" --export-json "$work/round-$round.json" \
        "${commands[@]}" >/dev/null 2>&1 || { echo "startup.sh: hyperfine failed" >&2; exit 1; }
done
# Minor page faults of one run of each, from time(1) (the same in every run).
faults=()
for command in "${commands[@]}"; do
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f %R -o "$work/faults" $command >/dev/null 2>&1 || true
        faults+=("$(tail -n 1 "$work/faults")")
    else
        faults+=("-")
    fi
done

python3 - "$work" "$rounds" "$routine" "$work/floor" "${names[*]}" "${faults[*]}" <<'PY'
import json, os, statistics, sys
work, rounds, routine, floor = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
names, faults = sys.argv[5].split(), sys.argv[6].split()
labels = {
    "floor": "static Swift program printing one line (the floor)",
    "fixed": "the same at a fixed address (`-no-pie`)",
    "check": "`routine check routines/morning.rt`",
    "today": "`routine today` on a year of history (365 runs of 30 steps)",
    "version": "`routine --version`",
}
times = {name: [] for name in names}
for r in range(1, rounds + 1):
    for name, result in zip(names, json.load(open(os.path.join(work, f"round-{r}.json")))["results"]):
        times[name] += result["times"]
median = {name: statistics.median(t) * 1000 for name, t in times.items()}
fastest = {name: min(t) * 1000 for name, t in times.items()}
mib = lambda path: os.path.getsize(path) / 1e6
studio = os.path.join(os.path.dirname(routine), "routine-studio")
studio_size = f", routine-studio {mib(studio):.1f} MB" if os.path.exists(studio) else ""
print(f"Installed: routine {mib(routine):.1f} MB{studio_size} (the floor: {mib(floor):.1f} MB)\n")
print("| command | median | min | median / floor | min / floor | page faults |")
print("|---|---|---|---|---|---|")
for name, fault in zip(names, faults):
    ratio = "" if name in ("floor", "fixed") else f"{median[name] / median['floor']:.2f}x"
    ratio_min = "" if name in ("floor", "fixed") else f"{fastest[name] / fastest['floor']:.2f}x"
    print(f"| {labels[name]} | {median[name]:.2f} ms | {fastest[name]:.2f} ms | {ratio} | {ratio_min} | {fault} |")
PY
