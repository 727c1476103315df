"""The protocol under misuse: malformed messages, unknown methods, unopened documents, bad
positions, cancellation, slow requests, shutdown and exit. A raw client, so that nothing is
smoothed over."""

import json
import os
import select
import subprocess
import time

import pytest

from conftest import ROUTINE

OPEN = {"textDocument": {"uri": "file:///tmp/p.rt", "languageId": "routine", "version": 1, "text": 'routine "P"\nhabit a "A" -> b\nhabit b "B"\n'}}


class Raw:
    def __init__(self, env=None):
        self.process = subprocess.Popen(
            [ROUTINE, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=dict(os.environ, HOME="/nonexistent", **(env or {})),
        )
        self.buffer = b""

    def write(self, data):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message):
        body = json.dumps(message).encode()
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, id, method, params=None):
        self.send({"jsonrpc": "2.0", "id": id, "method": method, "params": params or {}})

    def notify(self, method, params=None):
        self.send({"jsonrpc": "2.0", "method": method, "params": params or {}})

    def receive(self, timeout=10):
        """The next message; every byte of standard output must be a framed JSON message."""
        deadline = time.time() + timeout
        while True:
            if b"\r\n\r\n" in self.buffer:
                header, rest = self.buffer.split(b"\r\n\r\n", 1)
                assert header.startswith(b"Content-Length: "), header
                length = int(header.split(b":")[1])
                if len(rest) >= length:
                    self.buffer = rest[length:]
                    return json.loads(rest[:length])
            ready, _, _ = select.select([self.process.stdout], [], [], max(0, deadline - time.time()))
            assert ready, "no message in time"
            chunk = os.read(self.process.stdout.fileno(), 65536)
            assert chunk, "the server closed its output"
            self.buffer += chunk

    def response(self, id):
        while True:
            message = self.receive()
            if message.get("id") == id and "method" not in message:
                return message

    def initialize(self):
        self.request(1, "initialize", {"capabilities": {}})
        assert "capabilities" in self.response(1)["result"]
        self.notify("initialized")

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


@pytest.fixture
def raw():
    server = Raw()
    yield server
    server.close()


def error_code(message):
    return message["error"]["code"]


def test_malformed_json_is_a_parse_error_and_serving_goes_on(raw):
    raw.initialize()
    body = b'{"jsonrpc": "2.0", "id": 2, "method": '
    raw.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    message = raw.receive()
    assert error_code(message) == -32700 and message["id"] is None
    raw.request(3, "shutdown")
    assert raw.response(3)["result"] is None


def test_a_header_without_a_length_is_skipped(raw):
    raw.initialize()
    raw.write(b"Content-Type: application/json\r\n\r\n")
    assert error_code(raw.receive()) == -32700
    raw.request(2, "shutdown")
    assert raw.response(2)["result"] is None


@pytest.mark.parametrize(
    "message,code",
    [
        ({"jsonrpc": "2.0", "id": 5, "method": "textDocument/nonsense", "params": {}}, -32601),
        ({"jsonrpc": "2.0", "id": 5}, -32600),
        ({"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///never.rt"}, "position": {"line": 0, "character": 0}}}, -32602),
        ({"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///tmp/p.rt"}, "position": {"line": 99, "character": 0}}}, -32602),
        ({"jsonrpc": "2.0", "id": 5, "method": "textDocument/definition", "params": {"textDocument": {"uri": "file:///tmp/p.rt"}, "position": {"line": -1, "character": 0}}}, -32602),
        ({"jsonrpc": "2.0", "id": 5, "method": "textDocument/definition", "params": {"textDocument": {"uri": "file:///tmp/p.rt"}}}, -32602),
        ({"jsonrpc": "2.0", "id": 5, "method": "workspace/executeCommand", "params": {"command": "rm -rf"}}, -32602),
        ({"jsonrpc": "2.0", "id": 5, "method": "routine/graph", "params": {"textDocument": {"uri": "file:///tmp/p.rt"}, "format": "png"}}, -32602),
    ],
    ids=["unknown method", "no method", "document never opened", "line past the end", "negative line", "no position", "unknown command", "unknown graph format"],
)
def test_each_misuse_gets_its_error_and_serving_goes_on(raw, message, code):
    raw.initialize()
    raw.notify("textDocument/didOpen", OPEN)
    assert raw.receive()["method"] == "textDocument/publishDiagnostics"
    raw.send(message)
    assert error_code(raw.response(5)) == code
    raw.request(6, "textDocument/definition", {"textDocument": {"uri": "file:///tmp/p.rt"}, "position": {"line": 1, "character": 15}})
    assert raw.response(6)["result"]["range"]["start"] == {"line": 2, "character": 6}


def test_a_message_that_is_not_an_object_is_an_invalid_request(raw):
    raw.initialize()
    raw.send([1, 2])
    assert error_code(raw.receive()) == -32600


def test_unknown_notifications_are_ignored(raw):
    raw.initialize()
    raw.notify("$/setTrace", {"value": "off"})
    raw.notify("workspace/didChangeConfiguration", {"settings": {}})
    raw.request(2, "shutdown")
    assert raw.receive() == {"jsonrpc": "2.0", "id": 2, "result": None}


def test_requests_before_initialize_are_refused(raw):
    raw.request(1, "textDocument/hover", {"textDocument": {"uri": "file:///x.rt"}, "position": {"line": 0, "character": 0}})
    assert error_code(raw.response(1)) == -32002


def test_shutdown_then_exit_ends_with_status_0(raw):
    raw.initialize()
    raw.request(2, "shutdown")
    raw.response(2)
    raw.request(3, "textDocument/hover", {})
    assert error_code(raw.response(3)) == -32600
    raw.notify("exit")
    assert raw.process.wait(10) == 0


def test_exit_without_shutdown_ends_with_status_1(raw):
    raw.initialize()
    raw.notify("exit")
    assert raw.process.wait(10) == 1


def test_the_server_exits_when_its_input_closes(raw):
    raw.initialize()
    raw.process.stdin.close()
    assert raw.process.wait(10) == 1
    assert raw.process.stdout.read() == b""


def test_logs_go_to_standard_error_only(raw):
    raw.initialize()
    raw.notify("textDocument/didChange", {"textDocument": {"uri": "file:///never.rt", "version": 2}, "contentChanges": [{"text": ""}]})
    raw.request(2, "shutdown")
    assert raw.response(2)["result"] is None
    raw.notify("exit")
    raw.process.wait(10)
    assert raw.buffer == b"" and raw.process.stdout.read() == b""
    assert b"is not open" in raw.process.stderr.read()


@pytest.fixture
def slow_dot(tmp_path):
    """A Graphviz that takes two seconds, so that a graph request is slow."""
    folder = tmp_path / "bin"
    folder.mkdir()
    dot = folder / "dot"
    dot.write_text("#!/bin/sh\nsleep 2\ncat >/dev/null\necho '<svg/>'\n")
    dot.chmod(0o755)
    return str(folder) + ":" + os.environ["PATH"]


def open_file(raw, tmp_path):
    path = tmp_path / "p.rt"
    path.write_text(OPEN["textDocument"]["text"])
    params = json.loads(json.dumps(OPEN))
    params["textDocument"]["uri"] = path.as_uri()
    raw.notify("textDocument/didOpen", params)
    raw.receive()
    return path.as_uri()


@pytest.fixture
def slow_server(tmp_path, slow_dot):
    """An initialized server whose Graphviz is slow, with a routine open: (client, its URI)."""
    server = Raw(env={"PATH": slow_dot})
    server.initialize()
    yield server, open_file(server, tmp_path)
    server.close()


def test_a_slow_request_does_not_block_others(slow_server):
    raw, uri = slow_server
    raw.request(2, "workspace/executeCommand", {"command": "routine.showGraph", "arguments": [uri]})
    started = time.time()
    raw.request(3, "textDocument/definition", {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 15}})
    first = raw.receive()
    assert first["id"] == 3 and time.time() - started < 1.5
    while True:
        message = raw.receive()
        if message.get("id") == 2:
            break
    assert message["result"]["uri"].endswith("/p.svg")


def test_a_cancelled_request_is_answered_as_cancelled(slow_server):
    raw, uri = slow_server
    raw.request(2, "workspace/executeCommand", {"command": "routine.showGraph", "arguments": [uri]})
    raw.notify("$/cancelRequest", {"id": 2})
    assert error_code(raw.response(2)) == -32800
