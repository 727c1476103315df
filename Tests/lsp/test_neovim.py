"""Neovim's built-in LSP client against the server, headless: a diagnostic arrives, its quick
fix applies, and the Vim syntax file highlights keywords, strings and IDs."""

import json
import shutil

import pytest

from conftest import ROOT, ROUTINE
from helpers import headless_nvim

TEXT = '''routine "Smoke"
habit water "Drink water" -> strech  # a typo
habit stretch "Stretch" for 5m on mon
'''

# (line, column, expected group), 1-based.
PROBES = [
    (1, 1, "routineKeyword"),
    (1, 9, "routineString"),
    (2, 1, "routineDeclare"),
    (2, 7, "routineDeclaration"),
    (2, 27, "routineArrow"),
    (2, 30, "routineTarget"),
    (2, 39, "routineComment"),  # after the fix, one column further
    (3, 29, "routineDuration"),
    (3, 32, "routineOn"),
    (3, 35, "routineDay"),
]


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed")
def test_neovim_shows_the_diagnostic_applies_the_fix_and_highlights(tmp_path):
    path = tmp_path / "smoke.rt"
    path.write_text(TEXT)
    out = tmp_path / "out.json"
    headless_nvim(
        ROOT / "Tests" / "lsp" / "nvim" / "smoke.lua", tmp_path,
        ROUTINE=ROUTINE, ROUTINE_ROOT=str(ROOT), SMOKE_FILE=str(path), SMOKE_OUT=str(out),
        SMOKE_PROBES=json.dumps([p[:2] for p in PROBES]),
    )
    seen = json.loads(out.read_text())
    assert seen["filetype"] == "routine"
    assert seen["ready"]
    d = seen["diagnostic"]
    assert (d["lnum"], d["col"], d["message"], d["code"]) == (1, 29, "unknown target 'strech'", "E202")
    assert seen["action"] == "did you mean 'stretch'?"
    assert seen["fixed_line"] == 'habit water "Drink water" -> stretch  # a typo'
    assert seen["cleared"]
    assert seen["syntax"] == [p[2] for p in PROBES]
