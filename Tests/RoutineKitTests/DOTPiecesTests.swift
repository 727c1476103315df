import Testing

@testable import RoutineKit

/// `graph` writes its DOT in pieces through one buffer written over: the pieces, put together,
/// are the bytes written whole, whatever the size of a piece, on a routine large enough to have
/// far arrows and notes for them.
struct DOTPiecesTests {
    /// A seeded routine of `count` nodes: habits pointing ahead near and far, questions with
    /// answers and gathers, titles with quotes and emoji.
    static func routine(_ count: Int, seed: Int) -> Routine {
        var random = SeededRandom(state: UInt64(seed) &+ 17)
        var lines = ["routine \"Pieces \\\"\(seed)\\\"\""]
        for i in 0..<count {
            func ahead() -> String { "n\(min(count - 1, i + 1 + Int.random(in: 0..<30, using: &random)))" }
            let last = i == count - 1
            if !last, i + 40 < count, Int.random(in: 0..<4, using: &random) == 0 {
                lines.append("question n\(i) \"Which one \(i) 🧘?\"")
                lines.append("  \"First\" -> n\(i + 1)")
                lines.append("  \"Second \\\"quoted\\\"\" -> \(ahead()), \(ahead())")
                lines.append("  then -> \(ahead())")
            } else {
                let title = String(repeating: "word ", count: Int.random(in: 1...12, using: &random)) + "\(i) ☕"
                lines.append("habit n\(i) \"\(title)\" for 5m" + (last ? "" : " -> n\(i + 1), \(ahead())"))
            }
        }
        return RoutineLoader.load(SourceFile(name: "p.rt", bytes: Array(lines.joined(separator: "\n").utf8))).routine
    }

    @Test(arguments: [(300, 1, 1), (300, 2, 97), (600, 3, 4096), (150, 4, 1 << 18)])
    func piecesPutTogetherAreTheWholeText(count: Int, seed: Int, piece: Int) {
        let view = GraphView(Self.routine(count, seed: seed), showProblems: false)
        let whole = DOTWriter.writeBytes(view).bytes
        var joined: [UInt8] = []
        var pieces = 0
        DOTWriter.write(view, inPiecesOf: piece) { bytes in
            joined.append(contentsOf: bytes)
            pieces += 1
        }
        #expect(joined == whole, "seed \(seed), pieces of \(piece) bytes")
        #expect(String(decoding: whole, as: UTF8.self).contains(" to "), "seed \(seed): the routine has far arrows")
        if piece < whole.count / 4 { #expect(pieces > 2) }
    }

    /// Labels are escaped from their bytes: the same as escaping their string, scalar by
    /// scalar, on seeded texts of quotes, line breaks, controls, the scalars DOT cannot take,
    /// accents and emoji, and bytes that are not UTF-8.
    @Test(arguments: 0..<20)
    func escapingBytesIsEscapingTheirString(seed: Int) {
        var random = SeededRandom(state: UInt64(seed) &+ 5)
        let pieces: [[UInt8]] =
            [
                "a", "Z ", "\"", "\\", "\n", "\r", "\t", "\u{7}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "é",
                "\u{2027}", "\u{2028}", "\u{2029}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "🧘", "🏃‍♀️", "日本",
            ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x80], [0xED, 0xA0, 0x80]]
        for _ in 0..<50 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...8, using: &random) { bytes += pieces.randomElement(using: &random)! }
            var fromBytes = ByteWriter()
            bytes.withUnsafeBufferPointer { DOTWriter.escape($0, into: &fromBytes) }
            var fromString = ByteWriter()
            DOTWriter.escape(String(decoding: bytes, as: UTF8.self), into: &fromString)
            #expect(fromBytes.bytes == fromString.bytes, "seed \(seed): \(bytes)")
        }
    }
}
