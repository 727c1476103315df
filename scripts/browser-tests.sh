#!/usr/bin/env bash
# The studio's browser tests: Debian's Chromium and chromedriver, driven by selenium from a
# virtual environment under .build/, against the built `routine`, run by pytest, whose
# Tests/browser/conftest.py fails any test whose page reported an error or a failed request.
# Both paths are given to selenium, so it never looks for a driver online. Screenshots go to
# .build/studio-screenshots/. Arguments go to pytest (`-k today`, a file's path).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

source scripts/browser-venv.sh
swift build --product routine >/dev/null
swift build --product routine-studio >/dev/null
export ROUTINE="$PWD/.build/debug/routine"
exec "$venv/bin/python" -m pytest -p no:cacheprovider -v Tests/browser "$@"
