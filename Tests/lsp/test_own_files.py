"""The server writes only its own files: URIs are decoded in one place, and routine.showGraph
replaces nothing but a drawing it made itself."""

import os

import pytest
from lsprotocol import types

from helpers import open_document

TEXT = 'routine "V"\nhabit a "A"\n'


async def execute(client, command, *arguments):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command=command, arguments=list(arguments)))


def folder_state(folder):
    """Every name in the folder with its bytes or link target: what a refusal must leave alone."""
    state = {}
    for name in sorted(os.listdir(folder)):
        path = folder / name
        if path.is_symlink():
            state[name] = ("link", os.readlink(path))
        elif path.is_dir():
            state[name] = ("folder", folder_state(path))
        else:
            state[name] = path.read_bytes()
    return state


@pytest.mark.parametrize(
    "name, uri_of, why",
    [
        ("nul before the extension", lambda folder: f"{folder.as_uri()}/victim%00.rt", "NUL"),
        ("escaped slash", lambda folder: f"{folder.as_uri()}/sub%2Fvictim.rt", "'/'"),
        ("broken escape", lambda folder: f"{folder.as_uri()}/victim%0.rt", "hexadecimal"),
        ("another host", lambda folder: f"file://elsewhere.example{folder}/victim.rt", "another machine"),
        ("relative path", lambda folder: "file:victim.rt", "absolute"),
        ("not utf-8", lambda folder: f"{folder.as_uri()}/victim%FF.rt", "UTF-8"),
        ("a query", lambda folder: f"{folder.as_uri()}/victim.rt?x", "query"),
    ],
)
@pytest.mark.parametrize("command", ["routine.showGraph", "routine.convert"])
async def test_a_uri_that_names_no_file_whole_is_refused_before_any_file_is_touched(client, tmp_path, name, uri_of, why, command):
    (tmp_path / "victim").write_text("precious\n")
    (tmp_path / "victim2").write_text("precious too\n")
    before = folder_state(tmp_path)
    uri = uri_of(tmp_path)
    await open_document(client, uri, TEXT)
    arguments = [uri, "yaml"] if command == "routine.convert" else [uri]
    with pytest.raises(Exception, match=why):
        await execute(client, command, *arguments)
    assert folder_state(tmp_path) == before


async def test_show_graph_replaces_its_own_drawing_and_nothing_else(client, tmp_path):
    path = tmp_path / "own.rt"
    path.write_text(TEXT)
    uri, _ = await open_document(client, path, TEXT)
    await execute(client, "routine.showGraph", uri)
    first = (tmp_path / "own.svg").read_bytes()
    assert b"<!-- drawn by the routine language server" in first[:1024]
    # Its own drawing is drawn again, in place.
    os.utime(tmp_path / "own.svg", (0, 0))
    await execute(client, "routine.showGraph", uri)
    assert (tmp_path / "own.svg").stat().st_mtime > 0


@pytest.mark.parametrize(
    "name, prepare, why",
    [
        ("a drawing the user made", lambda folder: (folder / "doc.svg").write_text("<svg>mine</svg>\n"), "not drawn by routine"),
        (
            "a symbolic link to elsewhere",
            lambda folder: ((folder / "elsewhere.txt").write_text("precious\n"), (folder / "doc.svg").symlink_to(folder / "elsewhere.txt")),
            "symbolic link",
        ),
        (
            "a link to a drawing of its own",
            lambda folder: ((folder / "other.svg").write_text("<!-- drawn by the routine language server; it redraws this file -->"),
                            (folder / "doc.svg").symlink_to(folder / "other.svg")),
            "symbolic link",
        ),
        ("a folder", lambda folder: (folder / "doc.svg").mkdir(), "not a regular file"),
    ],
)
async def test_show_graph_never_replaces_what_it_did_not_draw(client, tmp_path, name, prepare, why):
    path = tmp_path / "doc.rt"
    path.write_text(TEXT)
    prepare(tmp_path)
    before = folder_state(tmp_path)
    uri, _ = await open_document(client, path, TEXT)
    with pytest.raises(Exception, match=why):
        await execute(client, "routine.showGraph", uri)
    assert folder_state(tmp_path) == before


async def test_show_graph_never_replaces_the_document(client, tmp_path):
    path = tmp_path / "doc.svg"
    path.write_text(TEXT)
    uri, _ = await open_document(client, path, TEXT)
    with pytest.raises(Exception, match="the document itself"):
        await execute(client, "routine.showGraph", uri)
    assert path.read_text() == TEXT


async def test_show_graph_never_replaces_the_document_under_another_name(client, tmp_path):
    # The document is a hard link to the drawing's name: the same file, under the mark.
    svg = tmp_path / "doc.svg"
    svg.write_text("<!-- drawn by the routine language server; it redraws this file -->\n" + TEXT)
    path = tmp_path / "doc.rt"
    os.link(svg, path)
    uri, _ = await open_document(client, path, TEXT)
    with pytest.raises(Exception, match="the document itself"):
        await execute(client, "routine.showGraph", uri)
    assert svg.read_text().endswith(TEXT)
