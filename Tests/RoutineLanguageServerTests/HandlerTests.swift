import RoutineKit
import Testing

@testable import RoutineLanguageServer

/// A server driven directly, its slow requests run at once, every message it sends kept.
final class TestServer: @unchecked Sendable {
    private let sent = Locked([JSON]())
    private(set) var server: LanguageServer!
    private var nextID = 100

    init(text: String, uri: String = "file:///tmp/t.rt", encodings: [String] = []) {
        // Kept as a client reads them: parts written straight to bytes (`raw`) become values.
        server = LanguageServer(send: { [sent] message in
            let read = (try? JSONParser.parse(message.serialized)) ?? "not JSON"
            sent.withLock { $0.append(read) }
        })
        _ = request("initialize", ["capabilities": ["general": ["positionEncodings": .array(encodings.map { .string($0) })]]])
        server.handle(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
        server.handle([
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": ["textDocument": ["uri": .string(uri), "languageId": "routine", "version": 1, "text": .string(text)]],
        ])
    }

    var messages: [JSON] { sent.withLock { $0 } }

    /// The answer to a request: its result, or its error.
    func request(_ method: String, _ params: JSON) -> JSON {
        nextID += 1
        let id = nextID
        server.handle(["jsonrpc": "2.0", "id": JSON(id), "method": .string(method), "params": params])
        let answer = sent.withLock { $0.last { $0["id"] == JSON(id) } }
        // An answer written straight to bytes is read back as a client would read it.
        if case .raw(let bytes)? = answer?["result"] { return (try? JSONParser.parse(bytes)) ?? "not JSON" }
        return answer?["result"] ?? answer?["error"] ?? "no answer"
    }

    func at(_ line: Int, _ character: Int, _ extra: [String: JSON] = [:]) -> JSON {
        var fields: [String: JSON] = ["textDocument": ["uri": "file:///tmp/t.rt"], "position": ["line": JSON(line), "character": JSON(character)]]
        fields.merge(extra) { $1 }
        return .object(fields)
    }
}

struct HandlerTests {
    static let text = """
        routine "T"
        habit a "A" for 5m -> q
        question q "Q?"
          "yes" -> b
          "no" -> end
        habit b "B" on mon fri

        """

    @Test func openingPublishesTheDiagnosticsOfThatVersion() {
        let t = TestServer(text: "routine \"T\"\nhabit a \"A\" -> nowhere\n")
        let published = t.messages.last { $0["method"] == "textDocument/publishDiagnostics" }
        #expect(published?["params"]?["version"] == 1)
        let diagnostic = published?["params"]?["diagnostics"]?.array?.first
        #expect(diagnostic?["code"] == "E202")
        #expect(diagnostic?["range"] == ["start": ["line": 1, "character": 15], "end": ["line": 1, "character": 22]])
    }

    @Test(arguments: [
        Named(
            name: "definition of a target",
            value: (
                "textDocument/definition", 1, 23,
                JSON(["uri": "file:///tmp/t.rt", "range": ["start": ["line": 2, "character": 9], "end": ["line": 2, "character": 10]]])
            )),
        Named(name: "definition of end", value: ("textDocument/definition", 4, 11, .null)),
        Named(name: "definition on a string", value: ("textDocument/definition", 3, 4, .null)),
        Named(
            name: "prepare rename",
            value: (
                "textDocument/prepareRename", 5, 6,
                JSON(["range": ["start": ["line": 5, "character": 6], "end": ["line": 5, "character": 7]], "placeholder": "b"])
            )),
        Named(
            name: "highlights",
            value: (
                "textDocument/documentHighlight", 3, 12,
                JSON([
                    ["range": ["start": ["line": 3, "character": 11], "end": ["line": 3, "character": 12]], "kind": 2] as JSON,
                    ["range": ["start": ["line": 5, "character": 6], "end": ["line": 5, "character": 7]], "kind": 3] as JSON,
                ])
            )),
    ])
    func positionRequests(_ test: Named<(String, Int, Int, JSON)>) {
        let t = TestServer(text: Self.text)
        let (method, line, character, expected) = test.value
        #expect(t.request(method, t.at(line, character)) == expected)
    }

    @Test func hoverCountsTheWaysThroughANode() {
        let t = TestServer(text: Self.text)
        let value = t.request("textDocument/hover", t.at(5, 6))["contents"]?["value"]?.string ?? ""
        #expect(value.contains("**habit** `b`: B"))
        #expect(value.contains("on mon fri"))
        #expect(value.contains("runs on 1 of 2 ways through the routine · shortest 5m · longest 5m"))
    }

    @Test(arguments: [
        Named(name: "keyword", value: ("end", "'end' is a keyword")),
        Named(name: "taken", value: ("q", "a node is already named 'q'")),
        Named(name: "not an ID", value: ("b b", "is not a valid ID")),
    ])
    func renameRefusals(_ test: Named<(String, String)>) {
        let t = TestServer(text: Self.text)
        let answer = t.request("textDocument/rename", t.at(5, 6, ["newName": .string(test.value.0)]))
        #expect(answer["code"] == -32803)
        #expect(answer["message"]?.string?.contains(test.value.1) == true, "\(answer)")
    }

    @Test(arguments: [
        Named(name: "after an arrow", value: ("habit c \"C\" -> ", CompletionContext.target)),
        Named(name: "after a comma", value: ("habit c \"C\" -> a, ", .target)),
        Named(name: "after on", value: ("habit c \"C\" on mon ", .day)),
        Named(name: "after a title", value: ("habit c \"C\" ", .habitAttribute)),
        Named(name: "after an ID only", value: ("habit c ", .none)),
        Named(name: "inside a string", value: ("habit c \"C ", .none)),
        Named(name: "inside a comment", value: ("# -> ", .none)),
        Named(name: "line start in a question", value: ("question z \"Z\"\n  ", .lineStart(in: .question))),
        Named(name: "after a line ending in a comma", value: ("habit c \"C\" -> a,\n  ", .target)),
    ])
    func completionContexts(_ test: Named<(String, CompletionContext)>) {
        let bytes = Array(test.value.0.utf8)
        #expect(LanguageServer.completionContext(bytes, wordStart: bytes.count) == test.value.1)
    }

    /// The outline is written straight to bytes: it must read as the tree it stands for.
    @Test func theOutlineListsEveryNodeWithItsOptions() {
        let t = TestServer(text: "routine \"T\"\nhabit a \"Tea 🍵\" -> q\nquestion q \"Q \\\"?\\\"\"\n  \"yes\" -> end\n  \"\"\n")
        let symbols = t.request("textDocument/documentSymbol", ["textDocument": ["uri": "file:///tmp/t.rt"]])
        #expect(symbols.array?.map { $0["name"] } == ["a", "q"])
        #expect(symbols.array?.map { $0["detail"] } == ["Tea 🍵", "Q \"?\""])
        #expect(symbols.array?.map { $0["kind"] } == [12, 10])
        let options = symbols.array?[1]["children"]?.array ?? []
        #expect(options.map { $0["name"] } == ["yes", "\"\""] && options.allSatisfy { $0["kind"] == 22 })
        #expect(symbols.array?[0]["selectionRange"] == ["start": ["line": 1, "character": 6], "end": ["line": 1, "character": 7]])
        #expect(options.first?["selectionRange"] == ["start": ["line": 3, "character": 2], "end": ["line": 3, "character": 7]])
    }

    @Test func semanticTokensAreRelativeAndInUTF16() {
        let t = TestServer(text: "routine \"😀\" # c\n")
        let data = t.request("textDocument/semanticTokens/full", ["textDocument": ["uri": "file:///tmp/t.rt"]])["data"]
        // keyword at 0 (7), string at 8 (4 units: quotes and a surrogate pair), comment at 13.
        #expect(data == [0, 0, 7, 0, 0, 0, 8, 4, 2, 0, 0, 5, 3, 6, 0])
    }

    @Test func anIncrementalChangeIsAppliedAndChecked() {
        let t = TestServer(text: Self.text)
        t.server.handle([
            "jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": [
                "textDocument": ["uri": "file:///tmp/t.rt", "version": 2],
                "contentChanges": [["range": ["start": ["line": 5, "character": 6], "end": ["line": 5, "character": 7]], "text": "bee"]],
            ],
        ])
        let published = t.messages.last { $0["method"] == "textDocument/publishDiagnostics" }
        #expect(published?["params"]?["version"] == 2)
        #expect(published?["params"]?["diagnostics"]?.array?.first?["message"] == "unknown target 'b'")
    }

    /// The test text with lines 1 and 5 (up to its title) as given.
    static func edited(line1: String, line5: String) -> String {
        "routine \"T\"\n" + line1 + "question q \"Q?\"\n  \"yes\" -> b\n  \"no\" -> end\n" + line5 + " \"B\" on mon fri\n"
    }

    /// One didChange's changes, applied in order, each in the positions the previous one left,
    /// whether the lines were carried from the open version, scanned after a whole text, or
    /// carried on from a ranged change before.
    @Test(arguments: [
        Named(name: "one ranged change", value: ([(5, 6, 5, 7, "bee")], Self.edited(line1: "habit a \"A\" for 5m -> q\n", line5: "habit bee"))),
        Named(
            name: "a line split, then an edit on the new line",
            value: ([(1, 11, 1, 11, "\r\n"), (2, 0, 2, 1, "F")], Self.edited(line1: "habit a \"A\"\r\nFfor 5m -> q\n", line5: "habit b"))),
        Named(name: "a whole text, then a ranged change", value: ([(-1, 0, 0, 0, "routine \"U\"\n"), (0, 9, 0, 10, "V")], "routine \"V\"\n")),
        Named(
            name: "lines joined",
            value: ([(0, 11, 2, 0, " ")], "routine \"T\" question q \"Q?\"\n  \"yes\" -> b\n  \"no\" -> end\nhabit b \"B\" on mon fri\n")),
    ])
    func rangedChangesApplyInOrder(_ test: Named<([(Int, Int, Int, Int, String)], String)>) throws {
        let t = TestServer(text: Self.text)
        let changes: [JSON] = test.value.0.map { (l1, c1, l2, c2, text) in
            if l1 < 0 { return ["text": .string(text)] }
            return [
                "range": ["start": ["line": JSON(l1), "character": JSON(c1)], "end": ["line": JSON(l2), "character": JSON(c2)]],
                "text": .string(text),
            ]
        }
        t.server.handle([
            "jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": ["textDocument": ["uri": "file:///tmp/t.rt", "version": 2], "contentChanges": .array(changes)],
        ])
        let snapshot = try #require(t.server.documents["file:///tmp/t.rt"])
        #expect(String(decoding: snapshot.file.bytes, as: UTF8.self) == test.value.1)
        #expect(snapshot.positions.lineStarts == PositionMap(snapshot.file, encoding: .utf16).lineStarts)
    }

    @Test func cancellingARequestUnderWayAnswersItAsCancelled() {
        let started = Locked<[@Sendable () -> Void]>([])
        let sent = Locked([JSON]())
        let server = LanguageServer(
            send: { message in sent.withLock { $0.append(message) } }, background: { work in started.withLock { $0.append(work) } })
        server.handle(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["capabilities": [:]]])
        server.handle([
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": ["textDocument": ["uri": "file:///t.rt", "languageId": "routine", "version": 1, "text": .string(Self.text)]],
        ])
        server.handle(["jsonrpc": "2.0", "id": 2, "method": "textDocument/codeLens", "params": ["textDocument": ["uri": "file:///t.rt"]]])
        server.handle(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 2]])
        for work in started.withLock({ $0 }) { work() }
        let answer = sent.withLock { $0.last { $0["id"] == 2 } }
        #expect(answer?["error"]?["code"] == -32800)
    }

    /// Hover and code lenses on one version, asked at once from several threads: the ways
    /// are counted once, and every answer has them.
    @Test func waysAreCountedOncePerVersion() async {
        // Long enough to count that two threads would both be counting at once.
        var text = "routine \"Long\"\n"
        for k in 0..<3000 { text += "question q\(k) \"Q\(k)?\"\n  \"yes\" -> h\(k)\n  \"no\"\n  then -> q\(k + 1)\nhabit h\(k) \"H\(k)\"\n" }
        text += "question q3000 \"Last?\"\n  \"ok\"\n"
        let snapshot = Snapshot(uri: "file:///tmp/w.rt", version: 1, text: Array(text.utf8), format: .rt, encoding: .utf16)
        #expect(!snapshot.loaded.hasErrors)
        let answers = await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    if case .counted(let summary, _) = snapshot.ways { return "\(summary.count)" }
                    return "not counted"
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(answers.count == 8 && Set(answers).count == 1 && answers[0] != "not counted")
        #expect(snapshot.waysCountings == 1)
    }
}
