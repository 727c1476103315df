"""The editor syntax files: the TextMate grammar, checked by applying it, line by line, to
every example routine and comparing with the server's own semantic tokens; and the Vim files'
presence (Neovim checks their highlighting, see test_neovim.py)."""

import json
import pathlib
import shutil

import pytest
from lsprotocol import types

from conftest import ROOT
from helpers import doc, headless_nvim, open_document
from textmate import Grammar

GRAMMAR = ROOT / "editors" / "textmate" / "routine.tmLanguage.json"
EXAMPLES = sorted((ROOT / "routines").glob("*.rt"))
LEGEND = ["keyword", "function", "string", "number", "enumMember", "type", "comment", "operator"]


def test_the_grammar_is_valid_json_for_rt_files():
    data = json.loads(GRAMMAR.read_text())
    assert data["scopeName"] == "source.routine" and data["fileTypes"] == ["rt"]


def innermost(scopes):
    return scopes[-1]


@pytest.mark.parametrize(
    "line,token,scope",
    [
        ('habit run "Run" for 30m on mon wed fri -> shower', "habit", "keyword.other.declaration.routine"),
        ('habit run "Run" for 30m on mon wed fri -> shower', "run", "entity.name.function.routine"),
        ('habit run "Run" for 30m on mon wed fri -> shower', '"Run"', "string.quoted.double.routine"),
        ('habit run "Run" for 30m on mon wed fri -> shower', "for", "keyword.other.routine"),
        ('habit run "Run" for 30m on mon wed fri -> shower', "30m", "constant.numeric.duration.routine"),
        ('habit run "Run" for 30m on mon wed fri -> shower', "wed", "constant.language.day.routine"),
        ('habit run "Run" for 30m on mon wed fri -> shower', "->", "keyword.operator.arrow.routine"),
        ('habit run "Run" for 30m on mon wed fri -> shower', "shower", "variable.other.node.routine"),
        ('habit a "A" for 1h30m', "1h30m", "constant.numeric.duration.routine"),
        ('habit w "W" target 2.5 litres', "2.5", "constant.numeric.routine"),
        ('habit w "W" target 2.5 litres', "litres", "entity.name.type.unit.routine"),
        ('habit g "G" 3 per week', "week", "keyword.other.attribute.routine"),
        ('  then -> plan', "then", "keyword.control.gather.routine"),
        ('  "Skip"  -> end  # the end', "end", "keyword.control.end.routine"),
        ('  "Skip"  -> end  # the end', "# the end", "comment.line.number-sign.routine"),
        ('routine "Say \\"hi\\" \\u{1F600}"', '\\u{1F600}', "constant.character.escape.routine"),
        ('routine "No # comment here"', "#", "string.quoted.double.routine"),
        ('habit then-end "T" -> a-end', "then-end", "entity.name.function.routine"),
        ('habit then-end "T" -> a-end', "a-end", "variable.other.node.routine"),
    ],
)
def test_grammar_scopes(line, token, scope):
    scopes = Grammar(GRAMMAR).tokenize(line)
    at = line.index(token)
    for i in range(at, at + len(token)):
        assert innermost(scopes[i]) == scope, (token, i, scopes[i])


def expected_scope(kind, modifiers):
    if kind == "keyword":
        return "keyword."
    if kind == "function":
        return "entity.name.function" if "declaration" in modifiers else "variable.other.node"
    if kind == "number":
        return "constant.numeric.duration" if "duration" in modifiers else "constant.numeric.routine"
    return {"string": "string.", "comment": "comment.", "enumMember": "constant.language.day", "type": "entity.name.type.unit"}.get(kind)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
async def test_the_grammar_agrees_with_the_server_on_every_example(client, example, tmp_path):
    text = example.read_text()
    uri, _ = await open_document(client, tmp_path / example.name, text)
    tokens = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=doc(uri)))
    grammar = Grammar(GRAMMAR)
    lines = text.split("\n")
    tokenized = [grammar.tokenize(line) for line in lines]
    data = tokens.data
    line = character = 0
    checked = 0
    for i in range(0, len(data), 5):
        dl, ds, length, kind, mods = data[i : i + 5]
        line += dl
        character = ds if dl else character + ds
        modifiers = [m for bit, m in enumerate(["declaration", "duration"]) if mods & (1 << bit)]
        wanted = expected_scope(LEGEND[kind], modifiers)
        if wanted is None:
            continue
        if wanted == "variable.other.node" and "->" not in lines[line]:
            # A target list continued on the next line: a line grammar cannot know.
            continue
        # Examples are ASCII up to every token, so UTF-16 columns are string indexes.
        scope = innermost(tokenized[line][character])
        assert scope.startswith(wanted), (example.name, line + 1, lines[line][character : character + length], scope, wanted)
        checked += 1
    assert checked > 20


TEST_GRAMMAR = ROOT / "editors" / "textmate" / "routine-test.tmLanguage.json"
TEST_FILES = sorted((ROOT / "routines").glob("*.test"))


def test_the_test_grammar_is_valid_json_for_test_files():
    data = json.loads(TEST_GRAMMAR.read_text())
    assert data["scopeName"] == "source.routine-test" and "rt.test" in data["fileTypes"]


@pytest.mark.parametrize(
    "line,token,scope",
    [
        ("case tired on a monday  # why", "case", "keyword.other.case.routine-test"),
        ("case tired on a monday  # why", "tired on a monday", "entity.name.section.case.routine-test"),
        ("case tired on a monday  # why", "# why", "comment.line.number-sign.routine-test"),
        ("  date 2026-11-23", "2026-11-23", "constant.numeric.date.routine-test"),
        ("  weekday fri", "fri", "constant.language.day.routine-test"),
        ("  history week.jsonl", "week.jsonl", "string.unquoted.path.routine-test"),
        ("  answer Not so good  # the third", "Not so good", "string.unquoted.answer.routine-test"),
        ('  answer "Take #2"  # quoted', '"Take #2"', "string.quoted.double.routine-test"),
        ("  answer Take#2", "Take#2", "string.unquoted.answer.routine-test"),
        ("  do s", "s", "constant.language.action.routine-test"),
        ("  do 2.5", "2.5", "constant.numeric.routine-test"),
        ("  expect habit water done", "expect", "keyword.control.expect.routine-test"),
        ("  expect habit water done", "water", "variable.other.node.routine-test"),
        ("  expect habit water not-scheduled", "not-scheduled", "constant.language.result.routine-test"),
        ("  expect eventually question mood", "eventually", "keyword.other.strictness.routine-test"),
        ("  expect eventually question mood", "mood", "variable.other.node.routine-test"),
        ("  expect value pushups 30", "30", "constant.numeric.routine-test"),
        ("  expect end completed", "completed", "constant.language.result.routine-test"),
        ("  expect ways 4", "4", "constant.numeric.routine-test"),
        ("  expect not-reached run", "run", "variable.other.node.routine-test"),
    ],
)
def test_test_grammar_scopes(line, token, scope):
    scopes = Grammar(TEST_GRAMMAR).tokenize(line)
    at = line.index(token)
    for i in range(at, at + len(token)):
        assert innermost(scopes[i]) == scope, (token, i, scopes[i])


@pytest.mark.parametrize("example", TEST_FILES, ids=[e.name for e in TEST_FILES])
def test_the_test_grammar_reads_every_line_of_the_example_tests(example):
    """Every word of every line gets a scope of its own: the grammar knows each line form."""
    grammar = Grammar(TEST_GRAMMAR)
    lines = [line for line in example.read_text().split("\n") if line.strip()]
    assert lines
    for line in lines:
        scopes = grammar.tokenize(line)
        for i, c in enumerate(line):
            if not c.isspace():
                assert len(scopes[i]) > 1, (example.name, line, i)


VIM_PROBES = [
    (1, 1, "routinetestCase"),
    (1, 6, "routinetestName"),
    (1, 25, "routinetestComment"),
    (2, 3, "routinetestSetting"),
    (3, 3, "routinetestInput"),
    (3, 10, "routinetestText"),
    (3, 22, "routinetestComment"),
    (4, 3, "routinetestExpect"),
    (4, 10, "routinetestStrictness"),
    (4, 21, "routinetestEvent"),
    (4, 27, "routinetestNode"),
    (4, 33, "routinetestResult"),
    (6, 24, "routinetestNumber"),
]


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed")
def test_vim_knows_test_files(tmp_path):
    path = tmp_path / "morning.rt.test"
    path.write_text(
        "case tired on a monday  # c\n  date 2026-11-23\n  answer Not so good # x\n"
        "  expect eventually habit water done\n  do d\n  expect value pushups 30\n"
    )
    out = tmp_path / "out.json"
    headless_nvim(
        ROOT / "Tests" / "lsp" / "nvim" / "syntax.lua", tmp_path,
        ROUTINE_ROOT=str(ROOT), SYNTAX_FILE=str(path), SYNTAX_OUT=str(out), SYNTAX_PROBES=json.dumps([p[:2] for p in VIM_PROBES]),
    )
    seen = json.loads(out.read_text())
    assert seen["filetype"] == "routinetest"
    assert seen["syntax"] == [p[2] for p in VIM_PROBES]
