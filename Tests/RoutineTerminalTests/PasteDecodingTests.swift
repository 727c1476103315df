import Testing

@testable import RoutineTerminal

/// Pastes are typed text: whatever they hold, they give no key that decides. Keys that
/// arrive together and are not a paste are keys, in order.
struct PasteDecodingTests {
    struct Read: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let keys: [Key]
        var testDescription: String { name }
    }

    static let reads: [Read] = [
        Read(name: "one key", bytes: Array("d".utf8), keys: [.text("d")]),
        Read(name: "one sequence", bytes: Array("\u{1B}[A".utf8), keys: [.up]),
        Read(name: "one character of several bytes", bytes: Array("é".utf8), keys: [.text("é")]),
        Read(name: "Enter alone", bytes: [0x0D], keys: [.enter]),
        Read(name: "ab, Ctrl-U, d", bytes: Array("ab\u{15}d".utf8), keys: [.paste("abd")]),
        Read(name: "ab, Ctrl-W, d", bytes: Array("ab\u{17}d".utf8), keys: [.paste("abd")]),
        Read(name: "d, then Escape", bytes: Array("d\u{1B}".utf8), keys: [.paste("d")]),
        Read(name: "a, Backspace, d", bytes: Array("a\u{7F}d".utf8), keys: [.paste("ad")]),
        Read(name: "a, Delete, d", bytes: Array("a\u{1B}[3~d".utf8), keys: [.paste("ad")]),
        Read(name: "a, Ctrl-K, d", bytes: Array("a\u{0B}d".utf8), keys: [.paste("ad")]),
        Read(name: "d, Enter, s", bytes: Array("d\rs".utf8), keys: [.paste("ds")]),
        Read(name: "Enter, then the start of a sequence", bytes: Array("\r\u{1B}[".utf8), keys: []),
        Read(name: "Enters and sequences", bytes: Array("\r\u{3}\u{1B}[B".utf8), keys: []),
        Read(name: "d and Enter", bytes: Array("d\r".utf8), keys: [.text("d"), .enter]),
        Read(name: "2 and Enter", bytes: Array("2\r".utf8), keys: [.text("2"), .enter]),
        Read(name: "two letters", bytes: Array("jj".utf8), keys: [.text("j"), .text("j")]),
        Read(name: "two Downs", bytes: Array("\u{1B}[B\u{1B}OB".utf8), keys: [.down, .down]),
        Read(name: "two Downs and Enter", bytes: Array("\u{1B}[B\u{1B}[B\r".utf8), keys: [.down, .down, .enter]),
        Read(name: "a number typed", bytes: Array("12\r".utf8), keys: [.text("1"), .text("2"), .enter]),
        Read(name: "Backspaces alone", bytes: [0x7F, 0x7F], keys: [.backspace, .backspace]),
        Read(name: "a letter and Ctrl-C", bytes: Array("x\u{3}".utf8), keys: [.paste("x")]),
        Read(name: "Ctrl-Z and a Down", bytes: Array("\u{1A}\u{1B}[B".utf8), keys: []),
        Read(name: "a key, then a bracketed paste", bytes: Array("d\u{1B}[200~x\u{1B}[201~".utf8), keys: [.paste("dx")]),
        Read(name: "a key, then a bracketed paste's start", bytes: Array("d\u{1B}[200~".utf8), keys: [.paste("d")]),
        Read(name: "bracketed", bytes: Array("\u{1B}[200~a\rb\u{1B}[A\u{3}c\t\u{1B}[201~".utf8), keys: [.paste("ab[Ac")]),
        Read(name: "bracketed, one letter", bytes: Array("\u{1B}[200~d\u{1B}[201~".utf8), keys: [.paste("d")]),
        Read(name: "bracketed, nothing typable", bytes: Array("\u{1B}[200~\r\r\u{1B}[201~".utf8), keys: []),
        Read(name: "bracketed, a bidi override and a joined emoji", bytes: Array("\u{1B}[200~a\u{202E}👩‍💻\u{1B}[201~".utf8), keys: [.paste("a👩‍💻")]),
    ]

    @Test(arguments: reads)
    func aReadIsAKeyOrTypedText(_ r: Read) {
        var decoder = KeyDecoder()
        #expect(decoder.read(r.bytes) == r.keys)
    }

    /// A bracketed paste cut anywhere between two reads gives the same text.
    @Test func aBracketedPasteSplitAnywhere() {
        let bytes = Array("x\u{1B}[200~ab\u{15}日本\r😀\u{1B}[201~".utf8)
        for cut in 0...bytes.count {
            var decoder = KeyDecoder()
            let keys = decoder.read(bytes[..<cut]) + decoder.read(bytes[cut...], continuingPaste: true)
            let text = keys.map { key -> String in
                switch key {
                case .paste(let t), .text(let t): t
                default: "?"
                }
            }.joined()
            #expect(text == "xab日本😀", "cut at \(cut): \(keys)")
            #expect(!decoder.isWaiting)
        }
    }

    /// The rest of a paste, read on its own right after it, is typed text even when it is one
    /// key such as Enter.
    @Test func theRestOfAPasteIsTypedText() {
        var decoder = KeyDecoder()
        #expect(decoder.read(Array("a\rb".utf8)) == [.paste("ab")])
        #expect(decoder.lastReadWasPaste)
        #expect(decoder.read([0x0D], continuingPaste: true) == [])
        #expect(decoder.read(Array("q".utf8), continuingPaste: true) == [.paste("q")])
        #expect(decoder.read([0x0D]) == [.enter])
        #expect(!decoder.lastReadWasPaste)
    }

    /// 200,000 random bytes, read in chunks of every size from two bytes up: only typed text.
    @Test func randomBytesDecideNothing() {
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        for bracketed in [false, true] {
            var decoder = KeyDecoder()
            var i = 0
            var keys: [Key] = []
            let all = bracketed ? KeyDecoder.pasteStart + bytes.filter { $0 != 0x1B } + KeyDecoder.pasteEnd : bytes
            while i < all.count {
                // The first read is long: a short one may hold one key, as a person types it.
                let end = min(all.count, i + (i == 0 ? 4096 : Int.random(in: 2...4096, using: &random)))
                keys += decoder.read(all[i..<end], continuingPaste: i > 0)
                i = end
            }
            #expect(keys.allSatisfy { if case .paste = $0 { true } else { false } }, "bracketed: \(bracketed)")
        }
    }
}
