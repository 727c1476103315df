"""Fixtures for the language server's end-to-end tests: a real LSP client (pytest-lsp) talking
to the built `routine lsp` over standard input and output."""

import os
import pathlib
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = pathlib.Path(__file__).resolve().parents[2]
ROUTINE = os.environ.get("ROUTINE", str(ROOT / ".build" / "debug" / "routine"))
sys.path.insert(0, str(pathlib.Path(__file__).parent))


def server_config():
    # The server must never touch the real home folder; it has no history, but be sure.
    env = dict(os.environ, HOME="/nonexistent", ROUTINE_HISTORY="/nonexistent/history.sqlite")
    return ClientServerConfig(server_command=[ROUTINE, "lsp"], server_env=env)


def capabilities(encodings=None):
    caps = client_capabilities("visual-studio-code")
    caps.window = types.WindowClientCapabilities(
        show_document=types.ShowDocumentClientCapabilities(support=True), work_done_progress=True
    )
    if encodings:
        caps.general = types.GeneralClientCapabilities(position_encodings=encodings)
    return caps


@pytest_lsp.fixture(config=server_config())
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=capabilities(), initialization_options={"documentation": "https://example.invalid/grammar.md"})
    )
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=server_config())
async def client_utf8(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(capabilities=capabilities([types.PositionEncodingKind.Utf8, types.PositionEncodingKind.Utf16])))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def morning():
    return (ROOT / "routines" / "morning.rt").read_text()
