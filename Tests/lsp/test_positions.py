"""Positions in the negotiated encoding: UTF-16 by default, UTF-8 when the client offers it."""

from lsprotocol import types

from helpers import doc, open_document, pos

TEXT = 'routine "P"\nhabit a "😀 日本" -> strech\nhabit stretch "Ünïcödé 🧘"\n'


async def test_utf16_is_the_default_and_counts_surrogate_pairs(client, tmp_path):
    uri, diagnostics = await open_document(client, tmp_path / "p.rt", TEXT)
    typo = [d for d in diagnostics if d.code == "E202"][0]
    # 'habit a "' 9, the emoji 2 units, a space, two CJK characters, '" -> ' 5.
    assert typo.range == types.Range(start=pos(1, 19), end=pos(1, 25))
    found = await client.text_document_code_action_async(
        types.CodeActionParams(text_document=doc(uri), range=typo.range, context=types.CodeActionContext(diagnostics=[typo]))
    )
    assert found[0].edit.changes[uri][0].range == typo.range


async def test_utf8_is_used_when_offered(client_utf8, tmp_path):
    uri, diagnostics = await open_document(client_utf8, tmp_path / "p.rt", TEXT)
    typo = [d for d in diagnostics if d.code == "E202"][0]
    # The same place in bytes: the emoji is 4, each CJK character 3.
    assert typo.range == types.Range(start=pos(1, 25), end=pos(1, 31))


async def test_requests_at_positions_after_wide_characters(client, tmp_path):
    text = 'routine "P"\nhabit a "😀 日本" -> b\nhabit b "🧘🧘" -> c\nhabit c "C"\n'
    uri, _ = await open_document(client, tmp_path / "p.rt", text)
    # 'habit b "🧘🧘" -> ' is 9 + 4 + 5 units: 'c' starts at 18.
    found = await client.text_document_definition_async(types.DefinitionParams(text_document=doc(uri), position=pos(2, 18)))
    assert found.range == types.Range(start=pos(3, 6), end=pos(3, 7))
    edit = await client.text_document_rename_async(types.RenameParams(text_document=doc(uri), position=pos(1, 19), new_name="bee"))
    assert sorted((e.range.start.line, e.range.start.character, e.range.end.character) for e in edit.changes[uri]) == [(1, 19, 20), (2, 6, 7)]
    # A character past the end of a line means its end (LSP): the cursor after 'b'.
    found = await client.text_document_definition_async(types.DefinitionParams(text_document=doc(uri), position=pos(1, 400)))
    assert found.range.start == pos(2, 6)
