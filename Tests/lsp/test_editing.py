"""Completion, hover, outline, folding, formatting, semantic tokens, code lenses and the graph."""

import subprocess

import pytest
from lsprotocol import types

from conftest import ROUTINE
from helpers import change_document, doc, open_document, pos, position_of

LENS = '''routine "L"
question q1 "A?"
  "x" -> h1
  "y" -> q2
question q2 "B?"
  "p" -> h2
  "q" -> h3
habit h1 "H1" for 5m
habit h2 "H2" for 10m
habit h3 "H3" for 1m note "Slowly"
'''


async def complete(client, uri, position):
    found = await client.text_document_completion_async(types.CompletionParams(text_document=doc(uri), position=position))
    items = found.items if hasattr(found, "items") else found
    return {item.label: item for item in items}


async def test_completion_after_an_arrow_offers_node_ids_with_titles(client, tmp_path):
    text = LENS + "habit h4 \"H4\" -> h\n"
    uri, _ = await open_document(client, tmp_path / "c.rt", text)
    items = await complete(client, uri, pos(10, 18))
    assert set(items) == {"q1", "q2", "h1", "h2", "h3", "h4", "end"}
    assert items["h2"].detail == "H2" and items["q1"].detail == "A?"
    # The typed start is what the item replaces.
    assert items["h1"].text_edit.range == types.Range(start=pos(10, 17), end=pos(10, 18))


@pytest.mark.parametrize(
    "line,expected",
    [
        ('habit h4 "H4" -> h1, ', {"q1", "q2", "h1", "h2", "h3", "h4", "end"}),
        ('habit h4 "H4" on mon ', set(["mon", "tue", "wed", "thu", "fri", "sat", "sun", "weekdays", "weekends"])),
        ('habit h4 "H4" ', {"for", "target", "target at most", "on", "note"}),
        ('habit h4 "H4" for 5m ', {"for", "target", "target at most", "on", "note"}),
        ('habit h4 "H4 ', set()),
        ("# a comment -> ", set()),
        ("", {"habit", "question", "start", "for", "target", "target at most", "on", "note"}),
    ],
    ids=["after a comma", "after on", "after a habit header", "after an attribute", "in a string", "in a comment", "at a line start in a habit"],
)
async def test_completion_follows_the_grammar(client, tmp_path, line, expected):
    text = LENS + line
    uri, _ = await open_document(client, tmp_path / "c.rt", text)
    items = await complete(client, uri, pos(10, len(line)))
    assert set(items) == expected


async def test_completion_in_a_question_offers_its_gather(client, tmp_path):
    text = 'routine "Q"\nquestion q "Q?"\n  "a" -> x\n  \nhabit x "X"\n'
    uri, _ = await open_document(client, tmp_path / "q.rt", text)
    assert set(await complete(client, uri, pos(3, 2))) == {"habit", "question", "start", "then", "note"}


async def test_hover_tells_what_a_node_is_and_how_many_ways_run_it(client, tmp_path):
    uri, _ = await open_document(client, tmp_path / "l.rt", LENS)
    found = await client.text_document_hover_async(types.HoverParams(text_document=doc(uri), position=position_of(LENS, "h3", 0)))
    text = found.contents.value
    assert text.splitlines()[0] == "**habit** `h3`: H3"
    assert "for 1m" in text and "note: Slowly" in text
    assert "reached from: `q2`" in text
    assert "runs on 1 of 3 ways through the routine" in text
    assert found.range == types.Range(start=position_of(LENS, "h3"), end=position_of(LENS, "h3", 0, 2))
    start = await client.text_document_hover_async(types.HoverParams(text_document=doc(uri), position=position_of(LENS, "q1", 0)))
    assert "reached from: the start" in start.contents.value
    assert "runs on 3 of 3 ways" in start.contents.value


async def test_code_lenses_count_the_ways_through_each_question(client, tmp_path):
    uri, _ = await open_document(client, tmp_path / "l.rt", LENS)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc(uri)))
    assert [(l.range.start.line, l.command.title) for l in lenses] == [
        (1, "3 ways · shortest 1m · longest 10m"),
        (4, "2 ways · shortest 1m · longest 10m"),
    ]


async def test_the_lens_of_a_question_on_every_way_matches_routine_paths(client, morning, tmp_path):
    path = tmp_path / "morning.rt"
    path.write_text(morning)
    uri, _ = await open_document(client, path, morning)
    (lens,) = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc(uri)))
    summary = subprocess.run([ROUTINE, "paths", str(path), "--limit", "0"], capture_output=True, text=True).stdout.splitlines()[-1]
    # "N ways through 'Morning' · shortest … · longest …"
    ways, rest = summary.split(" through 'Morning'")
    assert lens.command.title == ways + rest


async def test_document_symbols_outline_nodes_with_options_as_children(client, tmp_path):
    uri, _ = await open_document(client, tmp_path / "l.rt", LENS)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc(uri)))
    outline = [(s.name, s.kind, s.detail, [c.name for c in s.children or []]) for s in symbols]
    assert outline == [
        ("q1", types.SymbolKind.Enum, "A?", ["x", "y"]),
        ("q2", types.SymbolKind.Enum, "B?", ["p", "q"]),
        ("h1", types.SymbolKind.Function, "H1", []),
        ("h2", types.SymbolKind.Function, "H2", []),
        ("h3", types.SymbolKind.Function, "H3", []),
    ]
    assert symbols[0].range == types.Range(start=pos(1, 0), end=pos(3, 11))
    assert symbols[0].selection_range == types.Range(start=pos(1, 9), end=pos(1, 11))


async def test_folding_ranges_cover_each_declaration_of_several_lines(client, tmp_path):
    uri, _ = await open_document(client, tmp_path / "l.rt", LENS)
    ranges = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc(uri)))
    assert [(r.start_line, r.end_line) for r in ranges] == [(1, 3), (4, 6)]


async def test_formatting_is_exactly_routine_fmt(client, tmp_path):
    text = 'routine   "F"\nhabit a "A"   ->   b  # soon\n\n\nhabit b "B" for 90s\n'
    path = tmp_path / "f.rt"
    path.write_text(text)
    uri, _ = await open_document(client, path, text)
    options = types.FormattingOptions(tab_size=2, insert_spaces=True)
    (edit,) = await client.text_document_formatting_async(types.DocumentFormattingParams(text_document=doc(uri), options=options))
    expected = subprocess.run([ROUTINE, "fmt", str(path)], capture_output=True, text=True, check=True).stdout
    assert edit.new_text == expected
    assert edit.range == types.Range(start=pos(0, 0), end=pos(5, 0))
    await change_document(client, uri, expected, 2)
    assert list(await client.text_document_formatting_async(types.DocumentFormattingParams(text_document=doc(uri), options=options))) == []


async def test_a_file_with_errors_is_not_formatted_and_says_why(client, tmp_path):
    uri, _ = await open_document(client, tmp_path / "e.rt", 'routine "E"\nhabit a "A" -> nowhere\n')
    options = types.FormattingOptions(tab_size=2, insert_spaces=True)
    with pytest.raises(Exception, match="the file has 1 error"):
        await client.text_document_formatting_async(types.DocumentFormattingParams(text_document=doc(uri), options=options))


def decode_tokens(data, legend_types, legend_modifiers):
    line = character = 0
    for i in range(0, len(data), 5):
        delta_line, delta_start, length, kind, modifiers = data[i : i + 5]
        line += delta_line
        character = delta_start if delta_line else character + delta_start
        names = [m for bit, m in enumerate(legend_modifiers) if modifiers & (1 << bit)]
        yield (line, character, length, legend_types[kind], names)


async def test_semantic_tokens_classify_the_language(client, tmp_path):
    text = 'routine "S" # name\nhabit a "A" for 10m on mon fri -> b, end\nhabit b "B" target 8 glasses\nhabit c "C" 3 per week\n'
    uri, _ = await open_document(client, tmp_path / "s.rt", text)
    tokens = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=doc(uri)))
    types_ = ["keyword", "function", "string", "number", "enumMember", "type", "comment", "operator"]
    decoded = list(decode_tokens(tokens.data, types_, ["declaration", "duration"]))
    assert decoded == [
        (0, 0, 7, "keyword", []), (0, 8, 3, "string", []), (0, 12, 6, "comment", []),
        (1, 0, 5, "keyword", []), (1, 6, 1, "function", ["declaration"]), (1, 8, 3, "string", []),
        (1, 12, 3, "keyword", []), (1, 16, 3, "number", ["duration"]), (1, 20, 2, "keyword", []),
        (1, 23, 3, "enumMember", []), (1, 27, 3, "enumMember", []), (1, 31, 2, "operator", []),
        (1, 34, 1, "function", []), (1, 35, 1, "operator", []), (1, 37, 3, "keyword", []),
        (2, 0, 5, "keyword", []), (2, 6, 1, "function", ["declaration"]), (2, 8, 3, "string", []),
        (2, 12, 6, "keyword", []), (2, 19, 1, "number", []), (2, 21, 7, "type", []),
        (3, 0, 5, "keyword", []), (3, 6, 1, "function", ["declaration"]), (3, 8, 3, "string", []),
        (3, 12, 1, "number", []), (3, 14, 3, "keyword", []), (3, 18, 4, "keyword", []),
    ]


async def graph(client, uri, fmt):
    return await client.protocol.send_request_async("routine/graph", {"textDocument": {"uri": uri}, "format": fmt})


async def test_the_graph_request_returns_dot_and_where_each_node_is(client, tmp_path):
    path = tmp_path / "l.rt"
    path.write_text(LENS)
    uri, _ = await open_document(client, path, LENS)
    found = await graph(client, uri, "dot")
    expected = subprocess.run([ROUTINE, "graph", str(path)], capture_output=True, text=True, check=True).stdout
    assert found.text == expected and found.format == "dot" and not found.hasErrors
    assert found.nodes.q2.start.line == 4 and found.nodes.q2.end.line == 6
    mermaid = await graph(client, uri, "mermaid")
    assert mermaid.text == subprocess.run([ROUTINE, "graph", str(path), "--format", "mermaid"], capture_output=True, text=True).stdout


async def test_the_graph_of_a_buffer_with_errors_marks_them(client, tmp_path):
    text = 'routine "E"\nhabit a "A" -> b\nhabit b "B" -> a, nowhere\n'
    path = tmp_path / "e.rt"
    path.write_text(text)
    uri, _ = await open_document(client, path, text)
    found = await graph(client, uri, "dot")
    expected = subprocess.run([ROUTINE, "graph", str(path), "--allow-invalid"], capture_output=True, text=True).stdout
    assert found.hasErrors and found.text == expected


async def test_show_graph_renders_an_svg_beside_the_file_and_opens_it(client, tmp_path):
    path = tmp_path / "l.rt"
    path.write_text(LENS)
    uri, _ = await open_document(client, path, LENS)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="routine.showGraph", arguments=[uri]))
    svg = tmp_path / "l.svg"
    assert result["uri"] == svg.as_uri()
    assert svg.read_text().lstrip().startswith("<?xml") and "<svg" in svg.read_text()
    assert client.shown_documents[-1].uri == svg.as_uri() and client.shown_documents[-1].external
