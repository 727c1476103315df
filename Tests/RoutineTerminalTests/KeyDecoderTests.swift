import Testing

@testable import RoutineTerminal

/// Keys from bytes, however the terminal splits them between reads.
struct KeyDecoderTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let keys: [Key]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "plain text", bytes: Array("seven".utf8), keys: [.text("seven")]),
        Case(name: "arrows, CSI and SS3", bytes: Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}OA".utf8), keys: [.up, .down, .right, .left, .up]),
        Case(
            name: "home and end, every spelling", bytes: Array("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}OH\u{1B}[7~\u{1B}[8~".utf8),
            keys: [.home, .end, .home, .end, .home, .home, .end]),
        Case(name: "delete and a modified arrow", bytes: Array("\u{1B}[3~\u{1B}[1;5C".utf8), keys: [.delete, .right]),
        Case(
            name: "enter, backspace, controls", bytes: [0x61, 0x0D, 0x7F, 0x08, 0x01, 0x05, 0x15, 0x17, 0x03, 0x04, 0x1A],
            keys: [
                .text("a"), .enter, .backspace, .backspace, .control("a"), .control("e"), .control("u"), .control("w"), .control("c"), .control("d"),
                .control("z"),
            ]),
        Case(name: "emoji and CJK", bytes: Array("😀 Great 日本".utf8), keys: [.text("😀 Great 日本")]),
        Case(name: "a function key is ignored", bytes: Array("\u{1B}[15~x".utf8), keys: [.ignored, .text("x")]),
        Case(
            name: "invalid UTF-8 is refused", bytes: [0x61, 0xFF, 0x62, 0xC3, 0x28], keys: [.text("a"), .invalid, .text("b"), .invalid, .text("(")]),
        Case(name: "a C1 control is not text", bytes: [0xC2, 0x9B, 0x33, 0x31, 0x6D], keys: [.ignored, .text("31m")]),
    ]

    @Test(arguments: cases)
    func decodesWhole(_ c: Case) {
        var decoder = KeyDecoder()
        #expect(decoder.feed(c.bytes) == c.keys, "\(c.name)")
        #expect(!decoder.isWaiting)
    }

    /// Every split of the bytes into two reads gives the same keys (text may come in pieces).
    @Test(arguments: cases)
    func decodesSplitAtEveryPosition(_ c: Case) {
        for cut in 0...c.bytes.count {
            var decoder = KeyDecoder()
            let keys = decoder.feed(c.bytes[..<cut]) + decoder.feed(c.bytes[cut...])
            #expect(Self.joined(keys) == c.keys, "\(c.name) split at \(cut)")
        }
    }

    /// A byte per read, as the slowest terminal delivers them.
    @Test(arguments: cases)
    func decodesByteByByte(_ c: Case) {
        var decoder = KeyDecoder()
        var keys: [Key] = []
        for byte in c.bytes { keys += decoder.feed([byte]) }
        #expect(Self.joined(keys) == c.keys, "\(c.name)")
    }

    @Test func aLoneEscapeIsTheEscapeKeyAfterAPause() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.isWaiting)
        #expect(decoder.flush() == [.escape])
        #expect(decoder.feed(Array("\u{1B}[".utf8)) == [])
        #expect(decoder.flush() == [.ignored], "a sequence that never finished is dropped")
    }

    static func joined(_ keys: [Key]) -> [Key] {
        var result: [Key] = []
        for key in keys {
            if case .text(let text) = key, case .text(let before)? = result.last {
                result[result.count - 1] = .text(before + text)
            } else {
                result.append(key)
            }
        }
        return result
    }
}
