#!/usr/bin/env bash
# The language server's end-to-end tests: a pytest-lsp client, the TextMate grammar harness
# and a headless Neovim session, all against the built `routine lsp`. The Python tools live
# in a virtual environment under .build/, made on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

python_venv lsp Tests/lsp/requirements.txt
swift build --product routine >/dev/null
export ROUTINE="$PWD/.build/debug/routine"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider Tests/lsp "$@"
