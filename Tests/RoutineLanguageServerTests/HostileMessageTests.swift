import Foundation
import RoutineKit
import Testing

@testable import RoutineLanguageServer

/// The server never crashes: thousands of requests with random methods, positions, ranges and
/// names against random edits of real routines, and random bytes as messages. Every request
/// is answered, with a result or an error.
struct HostileMessageTests {
    static let methods = [
        "textDocument/definition", "textDocument/references", "textDocument/documentHighlight", "textDocument/prepareRename",
        "textDocument/rename", "textDocument/completion", "textDocument/hover", "textDocument/documentSymbol",
        "textDocument/foldingRange", "textDocument/formatting", "textDocument/semanticTokens/full", "textDocument/codeAction",
        "textDocument/codeLens", "routine/graph", "textDocument/didChange", "shutdown-not", "",
    ]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test(arguments: 0..<8)
    func randomRequestsAreAllAnswered(_ seed: UInt64) throws {
        var random = SeededRandom(state: seed)
        let sources = try ["morning.rt", "evening.rt", "workout.yaml"].map { name in
            (name, try String(contentsOfFile: Self.root + "/routines/" + name, encoding: .utf8))
        }
        let (name, original) = sources[Int(random.next() % 3)]
        let uri = JSON.string("file:///tmp/" + name)
        let t = TestServer(text: original, uri: uri.string!)
        var text = Array(original.utf8)
        for step in 0..<400 {
            let method = Self.methods[Int(random.next() % UInt64(Self.methods.count))]
            func number() -> JSON { JSON(Int(random.next() % 40) - 5) }
            let position: JSON = ["line": number(), "character": number()]
            var params: [String: JSON] = [
                "textDocument": ["uri": random.next() % 10 == 0 ? "file:///other.rt" : uri, "version": JSON(step + 2)],
                "position": position, "range": ["start": position, "end": ["line": number(), "character": number()]],
                "newName": .string(["x", "end", "a b", "water", "new-id", ""][Int(random.next() % 6)]),
                "context": ["includeDeclaration": .bool(random.next() % 2 == 0), "diagnostics": []],
                "format": random.next() % 2 == 0 ? "dot" : "mermaid",
            ]
            if method == "textDocument/didChange" {
                // Cut, repeat or garble a piece of the text.
                let at = Int(random.next() % UInt64(text.count + 1))
                let length = min(Int(random.next() % 20), text.count - at)
                switch random.next() % 3 {
                case 0: text.removeSubrange(at..<(at + length))
                case 1: text.insert(contentsOf: text[at..<(at + length)], at: at)
                default: text.insert(contentsOf: Array("\"->,#é😀 on\n".utf8).shuffled(using: &random), at: at)
                }
                params["contentChanges"] = [["text": .string(String(decoding: text, as: UTF8.self))]]
                let change: JSON = ["jsonrpc": "2.0", "method": "textDocument/didChange", "params": .object(params)]
                t.server.handle(change)
                continue
            }
            let answer = t.request(method, .object(params))
            #expect(answer != "no answer", "\(name) step \(step): \(method)")
        }
    }

    @Test func randomBytesAreParseErrors() {
        var random = SeededRandom(state: 7)
        let sent = Locked([JSON]())
        let server = LanguageServer(send: { message in sent.withLock { $0.append(message) } })
        let seeds = [#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#, #"[{"a":"\u00"}]"#, "{\"x\":[1,2,{}]}"]
        for i in 0..<3000 {
            var bytes = Array(seeds[i % seeds.count].utf8)
            for _ in 0..<Int(random.next() % 4) where !bytes.isEmpty {
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            server.handle(body: bytes)
        }
        #expect(sent.withLock { $0.count } >= 2000)
    }
}
