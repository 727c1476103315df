#!/usr/bin/env python3
"""Times the language server as an editor sees it: from sending a `didChange` to receiving
that version's `publishDiagnostics`, over standard input and output, and follows the
server's resident memory over many edits.

    Benchmarks/lsp.py ROUTINE FILE [--edits N] [--memory] [--full] [--at id]

Each edit changes the first letter of a title near the middle of the file (with --at id, the
last character of that node's ID, which changes what its arrows reach), sent as the server
asks: that one character with its range (incremental sync), or the whole text (full sync, or
with --full). Every tenth edit also asks for hover, code lenses and semantic tokens (with
--memory), so that what they cache is part of the memory followed. Prints the median, 90th
percentile and maximum round trip, the server's CPU time per edit, and with --memory the
resident set after the first hundred edits and at the end."""

import argparse
import json
import os
import re
import select
import statistics
import subprocess
import sys
import time


class Client:
    def __init__(self, routine):
        self.process = subprocess.Popen([routine, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.buffer = b""
        self.next_id = 0

    def send(self, message):
        body = json.dumps(message).encode()
        os.write(self.process.stdin.fileno(), b"Content-Length: %d\r\n\r\n" % len(body))
        view = memoryview(body)
        while view:
            view = view[os.write(self.process.stdin.fileno(), view):]

    def receive(self):
        while True:
            if b"\r\n\r\n" in self.buffer:
                header, rest = self.buffer.split(b"\r\n\r\n", 1)
                length = int(header.split(b":")[1])
                if len(rest) >= length:
                    self.buffer = rest[length:]
                    return json.loads(rest[:length])
            select.select([self.process.stdout], [], [])
            chunk = os.read(self.process.stdout.fileno(), 1 << 20)
            if not chunk:
                raise SystemExit("lsp.py: the server closed its output")
            self.buffer += chunk

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id and "method" not in message:
                return message

    def wait_for_version(self, version):
        while True:
            message = self.receive()
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"].get("version") == version:
                return message

    def cpu_seconds(self):
        # utime and stime, fields 14 and 15 of /proc/PID/stat (after the command's parentheses).
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("routine")
    parser.add_argument("file")
    parser.add_argument("--edits", type=int, default=1000)
    parser.add_argument("--memory", action="store_true")
    parser.add_argument("--full", action="store_true", help="send the whole text even if the server takes ranged changes")
    parser.add_argument("--at", choices=["title", "id"], default="title", help="type in a title, or in an ID")
    args = parser.parse_args()

    text = open(args.file, encoding="utf-8").read()
    uri = "file://" + os.path.abspath(args.file)
    client = Client(args.routine)
    answer = client.request("initialize", {"capabilities": {}})
    sync = answer["result"]["capabilities"]["textDocumentSync"]
    incremental = not args.full and (sync.get("change") if isinstance(sync, dict) else sync) == 2
    client.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    client.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "routine", "version": 1, "text": text}}})
    client.wait_for_version(1)

    # A title's first letter near the middle of the file (or its node's ID's last character),
    # toggled between two letters: the first declaration that starts after the middle.
    header = re.compile(r'^(habit|question) (\S+) "', re.M).search(text, len(text) // 2)
    middle = header.end() if args.at == "title" else header.end(2) - 1
    variants = [text[:middle] + c + text[middle + 1 :] for c in "XY"]
    line = text[:middle].count("\n")
    # The title is ASCII, so the column is the same in UTF-8 and UTF-16.
    column = middle - (text.rfind("\n", 0, middle) + 1)
    where = {"start": {"line": line, "character": column}, "end": {"line": line, "character": column + 1}}
    times = []
    rss_after_100 = None
    cpu_before = client.cpu_seconds()
    for i in range(args.edits):
        version = i + 2
        change = {"range": where, "text": "XY"[i % 2]} if incremental else {"text": variants[i % 2]}
        message = {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}}
        started = time.perf_counter()
        client.send(message)
        client.wait_for_version(version)
        times.append((time.perf_counter() - started) * 1000)
        if args.memory and i % 10 == 9:
            document = {"textDocument": {"uri": uri}}
            client.request("textDocument/hover", dict(document, position={"line": line, "character": 8}))
            client.request("textDocument/codeLens", document)
            client.request("textDocument/semanticTokens/full", document)
        if i == 99:
            rss_after_100 = client.rss_kib()
    rss_end = client.rss_kib()
    cpu = (client.cpu_seconds() - cpu_before) / args.edits * 1000
    client.request("shutdown", None)
    client.send({"jsonrpc": "2.0", "method": "exit"})
    client.process.wait()

    times.sort()
    lines = len(text.splitlines())
    sent = ("ranged changes" if incremental else "whole text") + (", typed in an ID" if args.at == "id" else "")
    print(f"{os.path.basename(args.file)} ({lines} lines, {len(text.encode())} bytes), {args.edits} edits, {sent}:")
    print(f"  didChange -> publishDiagnostics: median {statistics.median(times):.2f} ms, min {times[0]:.2f} ms, "
          f"p90 {times[int(len(times) * 0.9)]:.2f} ms, max {times[-1]:.2f} ms")
    print(f"  server CPU per edit: {cpu:.2f} ms; load average {os.getloadavg()[0]:.2f}")
    if args.memory and rss_after_100:
        growth = (rss_end - rss_after_100) / rss_after_100 * 100
        print(f"  resident memory: {rss_after_100 / 1024:.1f} MiB after 100 edits, {rss_end / 1024:.1f} MiB after {args.edits} ({growth:+.1f}%)")


if __name__ == "__main__":
    main()
