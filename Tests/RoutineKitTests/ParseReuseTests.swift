import Foundation
import Testing

@testable import RoutineKit

/// A version of an edited document read from the one before (``RoutineParser/reparse``) is the
/// version read from scratch: over many seeded edits, most of them typed inside the texts the
/// reuse takes, the routine (every record, span, text and byte), the comments and the
/// diagnostics are compared with a fresh read of the same text.
struct ParseReuseTests {
    static let words = ["wake", "tea", "run", "read", "plan", "café", "日本", "🧘", "x"]
    /// What is typed: letters, accents and emoji (which the reuse takes), and what ends, escapes
    /// or breaks a string, or adds a token (which it must not).
    static let pieces = [
        "a", "Z", " ", "é", "🏃‍♀️", "", "", "", "\"", "\\", "\\\"", "\n", "#", " -> ", "habit q \"Q\"\n", "\t", "\u{0}", "->",
    ]

    static func document(_ random: inout SeededRandom) -> String {
        func word() -> String { words.randomElement(using: &random)! }
        func title() -> String { (0..<Int.random(in: 1...4, using: &random)).map { _ in word() }.joined(separator: " ") }
        let count = Int.random(in: 4...12, using: &random)
        func id(_ k: Int) -> String { "n\(min(k, count - 1))" }
        var lines = ["# a comment", "routine \"\(title())\"  # the name"]
        if Bool.random(using: &random) { lines.append("start -> n0") }
        for k in 0..<count {
            if Int.random(in: 0..<3, using: &random) == 0 {
                lines.append("question \(id(k)) \"\(title())?\"")
                for o in 0..<Int.random(in: 1...3, using: &random) {
                    lines.append("  \"\(title()) \(o)\" -> \(id(k + 1 + o))" + (Bool.random(using: &random) ? "  # why" : ""))
                }
                if Bool.random(using: &random) { lines.append("  then -> \(id(k + 2))") }
                if Bool.random(using: &random) { lines.append("  note \"\(title())\"") }
            } else {
                // A title with escapes is kept in the routine's own bytes, not as a range of the source.
                let escaped = Int.random(in: 0..<5, using: &random) == 0
                var line = "habit \(id(k)) \"" + (escaped ? "say \\\"\(word())\\\"" : title()) + "\""
                switch Int.random(in: 0..<5, using: &random) {
                case 0: line += " for 5m"
                case 1: line += " target 3 \"glasses of \(word())\""
                case 2: line += " on mon wed"
                case 3: line += " 3 per week"
                default: break
                }
                if Bool.random(using: &random) { line += "\n  note \"\(title())\"" }
                if k + 1 < count { line += " -> \(id(k + 1))" + (Bool.random(using: &random) ? ", \(id(k + 2))" : "") }
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An offset inside a string literal's content (most edits), or anywhere.
    static func offset(in bytes: [UInt8], _ random: inout SeededRandom) -> Int {
        let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\"") && ($0 == 0 || bytes[$0 - 1] != UInt8(ascii: "\\")) }
        guard Int.random(in: 0..<4, using: &random) > 0, quotes.count >= 2 else { return Int.random(in: 0...bytes.count, using: &random) }
        // Quotes not escaped open and close by turns: mostly a literal's inside.
        let k = 2 * Int.random(in: 0..<(quotes.count / 2), using: &random)
        return Int.random(in: (quotes[k] + 1)...quotes[k + 1], using: &random)
    }

    /// Everything the routine holds, its records and bytes included.
    static func dump(_ routine: Routine) -> String { String(describing: routine) }

    @Test(arguments: 0..<40)
    func aReusedParseIsTheFreshParse(seed: Int) {
        var random = SeededRandom(state: UInt64(seed) &* 7919 &+ 11)
        var bytes = Array(Self.document(&random).utf8)
        var previous = RoutineLoader.load(SourceFile(name: "t.rt", bytes: bytes))
        let first = previous
        var reused = 0
        var lastClean = bytes
        for step in 0..<60 {
            if !previous.parsedCleanly, Bool.random(using: &random) {
                // Undone: back to the last text without a syntax error, so that most edits
                // are made to one the reuse may take.
                bytes = lastClean
            } else {
                let start = Self.offset(in: bytes, &random)
                // Up to three bytes removed: a multi-byte character may be cut, leaving bad UTF-8.
                let end = min(bytes.count, start + [0, 0, 1, 3].randomElement(using: &random)!)
                bytes.replaceSubrange(start..<end, with: Array(Self.pieces.randomElement(using: &random)!.utf8))
            }
            let file = SourceFile(name: "t.rt", bytes: bytes)
            let text = String(decoding: bytes, as: UTF8.self)
            let replay = "seed \(seed), step \(step) (swift test --filter ParseReuseTests): \(text)"
            if previous.parsedCleanly,
                let reparsed = RoutineParser.reparse(file, old: previous.file.bytes, previous: previous.routine, comments: previous.comments)
            {
                reused += 1
                let fresh = RoutineParser.parse(file)
                #expect(Self.dump(reparsed.routine) == Self.dump(fresh.routine), "\(replay)")
                #expect(reparsed.comments == fresh.comments, "\(replay)")
                #expect(Array(fresh.diagnostics).isEmpty, "\(replay)")
            }
            let fresh = RoutineLoader.load(file)
            let next = RoutineLoader.load(file, previous: previous)
            #expect(next.diagnostics == fresh.diagnostics, "\(replay)")
            #expect(next.comments == fresh.comments, "\(replay)")
            #expect(Self.dump(next.routine) == Self.dump(fresh.routine), "\(replay)")
            #expect(next.parsedCleanly == fresh.parsedCleanly, "\(replay)")
            if next.parsedCleanly { lastClean = bytes }
            previous = next
        }
        // Most edits are typed inside texts of a document without syntax errors: the reuse is taken.
        #expect(reused >= 3, "seed \(seed): the reuse was taken \(reused) times; the first text: \(first.diagnostics)")
    }

    /// Where the reuse must not be taken, though the edit is inside a literal: the literal's
    /// value is not its bytes (an escape), the edit ends, escapes or breaks the string, the
    /// literal is one the routine does not keep a place for (a unit), or the document had a
    /// syntax error. `|` marks where `typed` goes.
    @Test(
        arguments: [
            ("routine \"R\"\nhabit a \"A\\\"|B\"\n", "x"),
            ("routine \"R\"\nhabit a \"A|B\"\n", "\""),
            ("routine \"R\"\nhabit a \"A|B\"\n", "\\"),
            ("routine \"R\"\nhabit a \"A|B\"\n", "\n"),
            ("routine \"R\"\nhabit a \"AB\" target 2 \"cu|ps\"\n", "x"),
            ("routine \"R\"\nhabit a \"A|B\" ->\n", "x"),
        ])
    func editsTheReuseLeavesToTheParser(marked: String, typed: String) {
        let text = marked.replacingOccurrences(of: "|", with: "")
        let old = RoutineLoader.load(SourceFile(name: "t.rt", bytes: Array(text.utf8)))
        let file = SourceFile(name: "t.rt", bytes: Array(marked.replacingOccurrences(of: "|", with: typed).utf8))
        #expect(RoutineParser.reparse(file, old: old.file.bytes, previous: old.routine, comments: old.comments) == nil || !old.parsedCleanly)
        #expect(RoutineLoader.load(file, previous: old).diagnostics == RoutineLoader.load(file).diagnostics)
    }

    /// The routine's name, a title and an answer typed into: taken, with the new texts.
    @Test func typingInTextsIsReused() throws {
        let marked = [
            "routine \"R|\"\nhabit a \"A\" -> b\nhabit b \"B\"\n", "routine \"R\"\nhabit a \"A|\"\n",
            "routine \"R\"\nquestion q \"Q\"\n  \"|yes\" -> end\n",
        ]
        for text in marked {
            let old = RoutineLoader.load(SourceFile(name: "t.rt", bytes: Array(text.replacingOccurrences(of: "|", with: "").utf8)))
            let file = SourceFile(name: "t.rt", bytes: Array(text.replacingOccurrences(of: "|", with: "é🧘").utf8))
            let reparsed = try #require(RoutineParser.reparse(file, old: old.file.bytes, previous: old.routine, comments: old.comments))
            #expect(Self.dump(reparsed.routine) == Self.dump(RoutineParser.parse(file).routine))
        }
    }
}
