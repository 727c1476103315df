#!/usr/bin/env bash
# Builds RoutineKit with libFuzzer and AddressSanitizer and runs each fuzz target, seeded from
# routines/ and the test fixtures, with the language's dictionary.
#
#   scripts/fuzz.sh [SECONDS]      each target runs SECONDS (default 600); exit 1 on any crash
#
# Crashing inputs are kept in fuzz-out/TARGET/ (crash-*, timeout-*, oom-*): turn each into a
# regression test under Tests/RoutineKitTests/Fixtures/fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
seconds=${1:-600}

build=.build-fuzz
mkdir -p "$build"
binary="$build/routine-fuzz"
sources=$(find Sources/RoutineKit -name '*.swift' | sort)
if [ ! -x "$binary" ] || [ -n "$(find Sources/RoutineKit Fuzz -newer "$binary" -name '*.swift' | head -1)" ]; then
    echo "building $binary" >&2
    # The sanitizer runtime makes the linker warn about symbols it cannot export; keep that
    # noise in a log and show it only if the build fails.
    # shellcheck disable=SC2086
    if ! swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name RoutineKit \
        -I Sources/CYAML -I Sources/CFileAttributes -I Sources/CSpawn \
        $sources Fuzz/FuzzTargets.swift $(pkg-config --libs yaml-0.1) -o "$binary" > "$build/build.log" 2>&1; then
        grep -v "Cannot export local symbol" "$build/build.log" >&2
        exit 1
    fi
fi

failed=0
for target in dsl yaml roundtrip uri lines; do
    corpus="$build/corpus-$target"
    out="fuzz-out/$target"
    mkdir -p "$corpus" "$out"
    case $target in
        yaml) find routines Tests/RoutineKitTests/Fixtures -name '*.yaml' -exec cp {} "$corpus/" \; ;;
        uri) cp Fuzz/seeds/uri/* "$corpus/" ;;
        lines) cp Fuzz/seeds/lines/* "$corpus/" ;;
        *) find routines Tests/RoutineKitTests/Fixtures -name '*.rt' -exec cp {} "$corpus/" \; ;;
    esac
    echo "== $target for ${seconds}s" >&2
    if ! ROUTINE_FUZZ_TARGET=$target "$binary" "$corpus" -dict=Fuzz/routine.dict -max_total_time="$seconds" \
        -timeout=10 -rss_limit_mb=2048 -max_len=8192 -artifact_prefix="$out/" -print_final_stats=1 \
        2> "$out/log.txt"; then
        echo "fuzz: target '$target' found a problem; see $out/" >&2
        tail -40 "$out/log.txt" >&2
        failed=1
    fi
    grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" "$out/log.txt" | sed "s/^/$target: /" >&2 || true
done
exit $failed
