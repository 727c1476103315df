"""Diagnostics on open and change, code actions and the conversion command."""

import subprocess

import pytest
from lsprotocol import types

from conftest import ROUTINE
from helpers import change_document, doc, open_document, pos


async def test_a_typo_is_reported_with_its_code_and_fix(client, morning, tmp_path):
    text = morning.replace("-> stretch\n", "-> strech\n")
    uri, diagnostics = await open_document(client, tmp_path / "morning.rt", text)
    errors = [d for d in diagnostics if d.severity == types.DiagnosticSeverity.Error]
    assert len(errors) == 1
    # What the typo cut off is unreachable, shown faded.
    assert {d.code for d in diagnostics[1:]} == {"W001"}
    assert all(list(d.tags) == [types.DiagnosticTag.Unnecessary] for d in diagnostics[1:])
    d = errors[0]
    assert d.code == "E202"
    assert d.severity == types.DiagnosticSeverity.Error
    assert d.message == "unknown target 'strech'"
    assert d.source == "routine"
    assert d.code_description.href == "https://example.invalid/grammar.md#diagnostics"
    line = text.splitlines().index('habit water "Drink a glass of water" -> strech')
    assert d.range == types.Range(start=pos(line, 40), end=pos(line, 46))
    assert [r.message for r in d.related_information] == ["help: did you mean 'stretch'?"]


async def test_every_change_publishes_the_diagnostics_of_its_version(client, morning, tmp_path):
    uri, diagnostics = await open_document(client, tmp_path / "m.rt", morning.replace("-> mood", "-> mod"))
    assert diagnostics[0].code == "E202"
    assert await change_document(client, uri, morning, 2) == []
    diagnostics = await change_document(client, uri, morning + "habit water \"Again\"\n", 3)
    assert [d.code for d in diagnostics] == ["E201"]
    # The related place of a duplicate is the first declaration.
    assert diagnostics[0].related_information[0].location.range.start.line == 5


async def test_closing_a_document_clears_its_diagnostics(client, tmp_path):
    uri, diagnostics = await open_document(client, tmp_path / "x.rt", 'routine "X"\nhabit a "A" -> b\n')
    assert diagnostics
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=doc(uri)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[uri]) == []


async def test_a_cycle_lists_each_of_its_arrows(client, tmp_path):
    text = 'routine "C"\nhabit a "A" -> b\nhabit b "B" -> c\nhabit c "C" -> a\n'
    uri, diagnostics = await open_document(client, tmp_path / "c.rt", text)
    cycle = [d for d in diagnostics if d.code == "E204"]
    assert len(cycle) == 1
    arrows = [r for r in cycle[0].related_information if "leads to" in r.message]
    assert [(r.message, r.location.range.start.line) for r in arrows] == [
        ("'a' leads to 'b' here", 1),
        ("'b' leads to 'c' here", 2),
        ("'c' leads to 'a' here", 3),
    ]


async def test_yaml_documents_get_diagnostics(client, tmp_path):
    text = "routine: Y\nnodes:\n  - habit: a\n    title: A\n    next: [b]\n"
    uri, diagnostics = await open_document(client, tmp_path / "y.yaml", text, language="yaml")
    assert [d.code for d in diagnostics] == ["E202"]
    assert diagnostics[0].range.start.line == 4


async def actions(client, uri, line, only=None):
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(uri),
            range=types.Range(start=pos(line, 0), end=pos(line, 80)),
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )


async def test_quick_fixes_carry_the_checkers_fix_its(client, morning, tmp_path):
    text = morning.replace("-> stretch\n", "-> strech\n")
    uri, _ = await open_document(client, tmp_path / "morning.rt", text)
    found = await actions(client, uri, 5, only=[types.CodeActionKind.QuickFix])
    titles = [a.title for a in found]
    assert titles == ["did you mean 'stretch'?", "create habit 'strech'"]
    fix = found[0]
    assert fix.is_preferred and fix.kind == types.CodeActionKind.QuickFix
    assert fix.diagnostics[0].code == "E202"
    (edit,) = fix.edit.changes[uri]
    assert edit.new_text == "stretch" and edit.range.start == pos(5, 40)
    # Applying it leaves no error.
    fixed = text.replace("-> strech\n", "-> stretch\n")
    assert await change_document(client, uri, fixed, 2) == []


async def test_create_habit_appends_a_declaration_that_checks(client, tmp_path):
    text = 'routine "X"\nhabit a "A" -> brush-teeth'
    uri, _ = await open_document(client, tmp_path / "x.rt", text)
    create = [a for a in await actions(client, uri, 1) if a.title.startswith("create")]
    (edit,) = create[0].edit.changes[uri]
    assert edit.new_text == '\nhabit brush-teeth "Brush teeth"\n'
    assert edit.range.start == pos(1, 26)
    assert await change_document(client, uri, text + edit.new_text, 2) == []


async def test_a_bare_gather_offers_both_readings(client, tmp_path):
    text = 'routine "G"\nquestion q "Mood?"\n  "Good" -> a\n  "Bad"\n    -> b\nhabit a "A"\nhabit b "B"\n'
    uri, diagnostics = await open_document(client, tmp_path / "g.rt", text)
    assert [d.code for d in diagnostics] == ["W010"]
    found = await actions(client, uri, 4, only=[types.CodeActionKind.QuickFix])
    assert len(found) == 2
    assert [a.is_preferred for a in found] == [True, False]


async def test_convert_writes_the_other_form_beside_the_file(client, morning, tmp_path):
    path = tmp_path / "morning.rt"
    path.write_text(morning)
    uri, _ = await open_document(client, path, morning)
    (convert,) = await actions(client, uri, 0, only=[types.CodeActionKind.Source])
    assert convert.title == "convert to YAML"
    # lsprotocol reads any code action with a command as a bare Command, so the command is
    # named here rather than taken from the action.
    command = types.ExecuteCommandParams(command="routine.convert", arguments=[uri, "yaml"])
    result = await client.workspace_execute_command_async(command)
    target = tmp_path / "morning.yaml"
    assert result["uri"] == target.as_uri()
    expected = subprocess.run([ROUTINE, "convert", str(path), "--to", "yaml"], capture_output=True, text=True).stdout
    assert target.read_text() == expected
    assert client.shown_documents[-1].uri == target.as_uri()
    assert any("comment" in m.message for m in client.messages)
    # A second conversion never writes over the first.
    with pytest.raises(Exception, match="already exists"):
        await client.workspace_execute_command_async(command)


async def test_a_routine_with_errors_is_not_offered_for_conversion(client, tmp_path):
    uri, _ = await open_document(client, tmp_path / "x.rt", 'routine "X"\nhabit a "A" -> b\n')
    assert list(await actions(client, uri, 0, only=[types.CodeActionKind.Source])) == []
