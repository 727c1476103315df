#!/usr/bin/env bash
# The sync mishap simulation (Tests/sync-sim): seeded schedules of three devices sharing a
# folder through copies (as Syncthing carries files) or git, with mishaps, black-box over the
# built `routine`. Each failing seed prints the command that replays it.
#
#   scripts/sync-sim.sh [--seeds N] [--first F] [--mishaps LIST] [-j JOBS]   seeds F..F+N-1 (200 from 1)
#   scripts/sync-sim.sh --seed S [--mishaps LIST] [--verbose] [--keep]      one seed, its whole story
#
# LIST: comma-separated of stale, delete, clock, clone, junk, git; or all (default), or none.
# ROUTINE_BIN: the binary to test (default: .build/debug/routine, built here).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

seeds=200 first=1 seed="" mishaps=all jobs=${SYNC_SIM_JOBS:-2} one=()
while [ $# -gt 0 ]; do
    case $1 in
        --seeds) seeds=$2; shift 2 ;;
        --first) first=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --mishaps) mishaps=$2; shift 2 ;;
        -j) jobs=$2; shift 2 ;;
        --verbose|--keep) one+=("$1"); shift ;;
        *) echo "sync-sim.sh: unknown argument '$1'" >&2; exit 64 ;;
    esac
done
case ",$mishaps," in *,clock,*|*,all,*)
    [ -n "$(ls /usr/lib/*/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1 2>/dev/null)" ] || {
        echo "sync-sim.sh: the clock mishap needs libfaketime (apt-get install -y faketime)" >&2; exit 69; } ;;
esac
if [ -z "${ROUTINE_BIN:-}" ]; then
    swift build --product routine >/dev/null
    export ROUTINE_BIN="$PWD/.build/debug/routine"
fi
if [ -n "$seed" ]; then
    exec python3 Tests/sync-sim/sim.py --seed "$seed" --mishaps "$mishaps" "${one[@]}"
fi
python_venv sync-sim Tests/sync-sim/requirements.txt
export SYNC_SIM_SEEDS=$seeds SYNC_SIM_FIRST=$first SYNC_SIM_MISHAPS=$mishaps
parallel=()
[ "$jobs" -le 1 ] || parallel=(-n "$jobs")
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider "${parallel[@]}" --rootdir Tests/sync-sim Tests/sync-sim
