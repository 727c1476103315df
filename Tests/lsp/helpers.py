"""Opening documents and waiting for their diagnostics."""

import asyncio

from lsprotocol import types


async def open_document(client, path, text, language="routine", version=1):
    """Opens `text` as the document at `path` and returns its published diagnostics."""
    uri = path.as_uri() if hasattr(path, "as_uri") else path
    client.diagnostics.pop(uri, None)
    waiter = asyncio.ensure_future(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS))
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id=language, version=version, text=text))
    )
    await wait_for_diagnostics(client, uri, waiter)
    return uri, list(client.diagnostics[uri])


async def change_document(client, uri, text, version):
    waiter = asyncio.ensure_future(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS))
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    await wait_for_diagnostics(client, uri, waiter)
    return list(client.diagnostics[uri])


async def wait_for_diagnostics(client, uri, waiter):
    # Diagnostics of another document may come first.
    for _ in range(10):
        await asyncio.wait_for(waiter, 10)
        if uri in client.diagnostics:
            return
        waiter = asyncio.ensure_future(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS))
    raise AssertionError(f"no diagnostics for {uri}")


def doc(uri):
    return types.TextDocumentIdentifier(uri=uri)


def pos(line, character):
    return types.Position(line=line, character=character)


def position_of(text, needle, occurrence=0, offset=0):
    """The LSP position (UTF-16) of the `occurrence`-th `needle` in `text`, plus `offset` characters."""
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    index += offset
    before = text[:index]
    line = before.count("\n")
    column = before[before.rfind("\n") + 1 :]
    return pos(line, len(column.encode("utf-16-le")) // 2)


def headless_nvim(script, tmp_path, **variables):
    """Runs the Lua `script` in a clean headless Neovim whose home and XDG folders are
    `tmp_path`, with `variables` in its environment."""
    import os
    import subprocess

    env = dict(os.environ, HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path))
    env.update(variables)
    subprocess.run(["nvim", "--headless", "--clean", "-n", "-c", f"luafile {script}"], env=env, timeout=60, check=True,
                   stdin=subprocess.DEVNULL, capture_output=True)
