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

/// Typing inside the texts of a document, where a version takes the parse of the one before:
/// what the server answers (diagnostics, outline, semantic tokens, hover) is what a server that
/// opened the same text fresh answers, with emoji and accents placed in UTF-16.
struct LanguageServerTypingTests {
    static let uri = "file:///tmp/t.rt"
    static let typed = ["a", "Z", " ", "é", "🧘", "🏃‍♀️", "", "", "\"", "\\", "\n"]

    static func document(_ random: inout SeededRandom) -> String {
        let words = ["tea", "run", "café", "🧘", "日本", "x"]
        func title() -> String {
            (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
        }
        var lines = ["routine \"\(title())\""]
        for k in 0..<10 {
            // n5 points at a missing node: a diagnostic stands through every keystroke.
            let next = k == 5 ? "n55" : "n\(k + 1)"
            if k % 3 == 1 {
                lines.append("question n\(k) \"\(title())?\"\n  \"\(title())\" -> \(next)\n  \"\(title())\" -> end")
            } else {
                lines.append("habit n\(k) \"\(title())\" -> \(next)  # \(title())")
            }
        }
        lines.append("habit n10 \"\(title())\"\n  note \"\(title())\"")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The LSP position (UTF-16) of `offset` in `text`, a character boundary.
    static func position(_ text: [Character], _ offset: Int) -> JSON {
        let before = text[..<offset]
        let line = before.count { $0 == "\n" || $0 == "\r\n" }
        let start = before.lastIndex { $0 == "\n" || $0 == "\r\n" }.map { $0 + 1 } ?? 0
        return ["line": JSON(line), "character": JSON(String(text[start..<offset]).utf16.count)]
    }

    static func answers(_ t: TestServer, at position: JSON) -> [JSON?] {
        let document: JSON = ["textDocument": ["uri": .string(uri)]]
        var hover = document
        if case .object(var fields) = hover {
            fields["position"] = position
            hover = .object(fields)
        }
        return [
            LanguageServerEditReuseTests.published(t), t.request("textDocument/documentSymbol", document),
            t.request("textDocument/semanticTokens/full", document), t.request("textDocument/foldingRange", document),
            t.request("textDocument/hover", hover),
        ]
    }

    @Test(arguments: 0..<16)
    func typingInTextsAnswersWhatAFreshServerAnswers(seed: Int) {
        var random = SeededRandom(state: UInt64(seed) &* 131 &+ 3)
        var text = Array(Self.document(&random))
        let t = TestServer(text: String(text), uri: Self.uri)
        for version in 2..<50 {
            // A place inside a quoted text (most keystrokes), or anywhere.
            let quotes = text.indices.filter { text[$0] == "\"" }
            var start = Int.random(in: 0...text.count, using: &random)
            if quotes.count >= 2, Int.random(in: 0..<4, using: &random) > 0 {
                let k = Int.random(in: 0..<(quotes.count - 1), using: &random)
                start = Int.random(in: (quotes[k] + 1)...quotes[k + 1], using: &random)
            }
            let end = min(text.count, start + [0, 0, 1].randomElement(using: &random)!)
            let piece = Self.typed.randomElement(using: &random)!
            let change: JSON = [
                "range": ["start": Self.position(text, start), "end": Self.position(text, end)], "text": .string(piece),
            ]
            text.replaceSubrange(start..<end, with: Array(piece))
            t.server.handle([
                "jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": ["textDocument": ["uri": .string(Self.uri), "version": JSON(version)], "contentChanges": [change]],
            ])
            let fresh = TestServer(text: String(text), uri: Self.uri)
            let at = Self.position(text, min(start, text.count))
            #expect(
                Self.answers(t, at: at) == Self.answers(fresh, at: at),
                "seed \(seed), version \(version) (swift test --filter LanguageServerTypingTests): \(String(text))")
        }
    }
}
