#!/usr/bin/env bash
# The studio's browser tests: Debian's Chromium and chromedriver, driven by selenium from a
# virtual environment under .build/, against the built `routine`. Both paths are given to
# selenium, so it never looks for a driver online. Screenshots go to .build/studio-screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

source scripts/browser-venv.sh
swift build --product routine >/dev/null
swift build --product routine-studio >/dev/null
export ROUTINE="$PWD/.build/debug/routine"
exec "$venv/bin/python" -m unittest discover -v -s Tests/browser -p "test_*.py" "$@"
