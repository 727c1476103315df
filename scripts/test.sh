#!/usr/bin/env bash
# Every test suite, on a fresh Debian machine as on a set-up one: installs what the machine
# lacks (Debian packages; the Python tools go into a virtual environment under .build/), then
# runs `swift test` and the end-to-end suites with real clients.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

need=()
have() { command -v "$1" >/dev/null 2>&1; }
pkg-config --exists yaml-0.1 2>/dev/null || need+=(libyaml-dev)
pkg-config --exists sqlite3 2>/dev/null || need+=(libsqlite3-dev)
pkg-config --exists zlib 2>/dev/null || need+=(zlib1g-dev)
pkg-config --exists libqrencode 2>/dev/null || need+=(libqrencode-dev)
have pkg-config || need+=(pkg-config)
have python3 || need+=(python3)
have dot || need+=(graphviz)
have hyperfine || need+=(hyperfine)
have tmux || need+=(tmux)
have setpriv || need+=(util-linux)
[ -x /usr/bin/time ] || need+=(time)
have nvim || need+=(neovim)
have chromium || need+=(chromium)
have chromedriver || need+=(chromium-driver)
have systemd-analyze || need+=(systemd)
have notify-send || need+=(libnotify-bin)
have git || need+=(git)
have syncthing || need+=(syncthing)
have sqlite3 || need+=(sqlite3)
# Wrong clocks of real processes in the sync mishap simulation.
have faketime || need+=(faketime)
# Real HTTPS in front of the studio for the phone's browser tests, its root trusted through NSS.
have caddy || need+=(caddy)
have certutil || need+=(libnss3-tools)
# What a write syncs, seen by WriteSyncsTests.
have strace || need+=(strace)
# A real notification server for today --notify's actions: dunst under Xvfb, in a private D-Bus session.
have dunst || need+=(dunst)
have Xvfb || need+=(xvfb)
have dbus-run-session || need+=(dbus)
have dbus-send || need+=(dbus-bin)
# Emoji in routines are seen in the browser tests' screenshots as people see them.
[ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || need+=(fonts-noto-color-emoji)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
    echo "installing: ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}" >/dev/null
fi

# Each target imports only what ARCHITECTURE.md allows.
step imports 5 bash scripts/check-imports.sh
# Every relative link of the README and docs/ reaches a file and a heading.
step "doc links" 1 python3 scripts/check-doc-links.py

# The Swift sources are laid out as the checked-in .swift-format says (the toolchain's swift-format).
step format 10 swift-format lint --strict --recursive --parallel Sources Tests Benchmarks Fuzz Plugins Package.swift

# The studio's suites serve requests from studios inside the test process, whose handlers
# share the concurrency pool (as many threads as cores) with every other suite: they run
# apart, so the other suites' work cannot hold a request past its deadline. The process and
# responsiveness suites draw routines of thousands of nodes with Graphviz: apart again.
heavy='StudioProcessTests|StudioResponsivenessTests'
step "swift tests" 45 swift test --skip RoutineStudioTests
step "studio tests" 20 swift test --skip-build --filter RoutineStudioTests --skip "$heavy"
step "studio heavy tests" 15 swift test --skip-build --filter "$heavy"

# The example routines check themselves: every answer and every habit reached by a passing case.
step "routine test" 5 "$(swift build --show-bin-path)/routine" test --coverage --strict routines/

# The language server with real clients: pytest-lsp, the TextMate grammar, headless Neovim.
step "language server tests" 12 bash scripts/lsp-tests.sh
step "browser tests" 20 bash scripts/browser-tests.sh
# The sync mishap simulation: 200 seeded schedules of three devices with every mishap mixed;
# a failing seed prints the command that replays it.
step "sync simulation" 15 bash scripts/sync-sim.sh --seeds 200
