import RoutineKit
import Testing

@testable import RoutineLanguageServer

/// What a version of a document reuses from the one before (the lines, the "did you mean"
/// answers) leaves its diagnostics exactly as a server that opened its text fresh publishes
/// them: many seeded keystrokes, each compared with a from-scratch check of the same text.
struct LanguageServerEditReuseTests {
    static let uri = "file:///tmp/t.rt"

    /// Pieces typed at a place: letters of the IDs, arrows, commas, whole declarations, line
    /// breaks, or nothing (a deletion).
    static let pieces = ["a", "b", "c", "ab", "", "", " -> ", ", ", "\n", "habit ca \"X\" -> ab\n", "\"", "ba"]

    static func published(_ t: TestServer) -> JSON? {
        t.messages.last { $0["method"] == "textDocument/publishDiagnostics" }?["params"]?["diagnostics"]
    }

    @Test(arguments: 0..<24)
    func keystrokesPublishWhatAFreshCheckPublishes(seed: Int) {
        var random = SeededRandom(state: UInt64(seed) &* 31 &+ 5)
        func id() -> String { String((0..<Int.random(in: 2...3, using: &random)).map { _ in "abc".randomElement(using: &random)! }) }
        var text = "routine \"R\"\n"
        for _ in 0..<15 { text += "habit \(id()) \"T\" -> \(id())\n" }
        let t = TestServer(text: text, uri: Self.uri)
        var bytes = Array(text.utf8)
        for version in 2..<62 {
            // A range of up to three bytes anywhere, given as a line and a column (the text is ASCII).
            let start = Int.random(in: 0...bytes.count, using: &random)
            let end = min(bytes.count, start + Int.random(in: 0...3, using: &random))
            let piece = Self.pieces.randomElement(using: &random)!
            func position(_ offset: Int) -> JSON {
                let line = bytes[..<offset].count { $0 == 0x0A }
                let column = offset - (bytes[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)
                return ["line": JSON(line), "character": JSON(column)]
            }
            let change: JSON = ["range": ["start": position(start), "end": position(end)], "text": .string(piece)]
            bytes.replaceSubrange(start..<end, with: Array(piece.utf8))
            t.server.handle([
                "jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": ["textDocument": ["uri": .string(Self.uri), "version": JSON(version)], "contentChanges": [change]],
            ])
            let fresh = TestServer(text: String(decoding: bytes, as: UTF8.self), uri: Self.uri)
            #expect(Self.published(t) == Self.published(fresh), "version \(version): \(String(decoding: bytes, as: UTF8.self))")
        }
    }
}
