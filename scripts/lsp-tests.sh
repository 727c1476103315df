#!/usr/bin/env bash
# The language server's end-to-end tests: a pytest-lsp client, the TextMate grammar harness
# and a headless Neovim session, all against the built `routine lsp`. The Python tools live
# in a virtual environment under .build/, made on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

venv=.build/lsp-venv
if [ ! -x "$venv/bin/pytest" ]; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r Tests/lsp/requirements.txt
fi
swift build --product routine >/dev/null
export ROUTINE="$PWD/.build/debug/routine"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider Tests/lsp "$@"
