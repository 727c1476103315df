#!/usr/bin/env bash
# The sync mishap simulation at length: thousands of seeds (default 5000, every mishap mixed),
# starting where the CI's 200 stop, or at FIRST. Arguments as scripts/sync-sim.sh.
#
#   scripts/sync-soak.sh [--seeds N] [--first F] [--mishaps LIST] [-j JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/sync-sim.sh --seeds 5000 --first 1001 "$@"
