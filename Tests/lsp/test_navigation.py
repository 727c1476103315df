"""Definition, references, highlights and rename."""

import pytest
from lsprotocol import types

from helpers import doc, open_document, pos, position_of

TEXT = '''routine "Nav"
start -> water, tea
habit water "Water" -> mood
habit tea "Tea" -> mood
question mood "Mood?"
  "Good" -> walk
  "Bad" -> tea-time, walk
habit walk "Walk"
habit tea-time "Tea time" -> end
'''


async def test_definition_goes_from_a_target_to_its_node(client, tmp_path):
    uri, _ = await open_document(client, tmp_path / "n.rt", TEXT)
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=position_of(TEXT, "walk", 0, 2))
    )
    assert found.uri == uri
    assert found.range == types.Range(start=position_of(TEXT, "walk", 2), end=position_of(TEXT, "walk", 2, 4))
    # The cursor just after an ID still names it; `end` names no node.
    after = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=position_of(TEXT, "mood", 0, 4))
    )
    assert after.range.start == position_of(TEXT, "mood", 2)
    none = await client.text_document_definition_async(types.DefinitionParams(text_document=doc(uri), position=position_of(TEXT, "end")))
    assert none is None


@pytest.mark.parametrize("declaration,expected", [(True, 3), (False, 2)])
async def test_references_list_every_arrow_naming_the_node(client, tmp_path, declaration, expected):
    uri, _ = await open_document(client, tmp_path / "n.rt", TEXT)
    found = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc(uri), position=position_of(TEXT, "walk", 2),
            context=types.ReferenceContext(include_declaration=declaration),
        )
    )
    assert len(found) == expected
    lines = sorted(r.range.start.line for r in found)
    assert lines == ([5, 6, 7] if declaration else [5, 6])


async def test_references_include_the_start_list_and_tell_tea_from_tea_time(client, tmp_path):
    uri, _ = await open_document(client, tmp_path / "n.rt", TEXT)
    found = await client.text_document_references_async(
        types.ReferenceParams(text_document=doc(uri), position=position_of(TEXT, "tea", 1), context=types.ReferenceContext(include_declaration=True))
    )
    assert sorted((r.range.start.line, r.range.start.character) for r in found) == [(1, 16), (3, 6)]


async def test_highlights_mark_the_declaration_as_written(client, tmp_path):
    uri, _ = await open_document(client, tmp_path / "n.rt", TEXT)
    found = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(text_document=doc(uri), position=position_of(TEXT, "mood"))
    )
    kinds = sorted((h.range.start.line, h.kind) for h in found)
    assert kinds == [(2, types.DocumentHighlightKind.Read), (3, types.DocumentHighlightKind.Read), (4, types.DocumentHighlightKind.Write)]


async def test_rename_changes_the_declaration_and_every_reference(client, tmp_path):
    uri, _ = await open_document(client, tmp_path / "n.rt", TEXT)
    at = position_of(TEXT, "tea", 0, 1)
    prepared = await client.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=doc(uri), position=at))
    assert prepared.placeholder == "tea"
    assert prepared.range == types.Range(start=pos(1, 16), end=pos(1, 19))
    edit = await client.text_document_rename_async(types.RenameParams(text_document=doc(uri), position=at, new_name="green-tea"))
    changes = sorted((e.range.start.line, e.range.start.character, e.new_text) for e in edit.changes[uri])
    assert changes == [(1, 16, "green-tea"), (3, 6, "green-tea")]


@pytest.mark.parametrize(
    "name,reason",
    [
        ("habit", "'habit' is a keyword"),
        ("end", "'end' is a keyword"),
        ("2nd", "'2nd' is not a valid ID"),
        ("tea time", "'tea time' is not a valid ID"),
        ("mood", "a node is already named 'mood'"),
        ("café", "'café' is not a valid ID"),
    ],
)
async def test_rename_refuses_a_name_that_cannot_be_an_id(client, tmp_path, name, reason):
    uri, _ = await open_document(client, tmp_path / "n.rt", TEXT)
    with pytest.raises(Exception, match=reason):
        await client.text_document_rename_async(types.RenameParams(text_document=doc(uri), position=position_of(TEXT, "walk"), new_name=name))


async def test_rename_is_refused_where_no_node_is_named(client, tmp_path):
    uri, _ = await open_document(client, tmp_path / "n.rt", TEXT)
    with pytest.raises(Exception, match="'end' is a keyword"):
        await client.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=doc(uri), position=position_of(TEXT, "end")))
    with pytest.raises(Exception, match="no node ID here"):
        await client.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=doc(uri), position=position_of(TEXT, "Mood?")))


async def test_yaml_documents_get_definition_and_symbols(client, tmp_path):
    text = "routine: Y\nnodes:\n  - habit: a\n    title: A\n    next: [b]\n  - habit: b\n    title: B\n"
    uri, diagnostics = await open_document(client, tmp_path / "y.yaml", text, language="yaml")
    assert diagnostics == []
    found = await client.text_document_definition_async(types.DefinitionParams(text_document=doc(uri), position=pos(4, 11)))
    assert found.range.start == pos(5, 11)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc(uri)))
    assert [(s.name, s.detail) for s in symbols] == [("a", "A"), ("b", "B")]
