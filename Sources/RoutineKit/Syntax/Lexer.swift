/// Splits `.rt` source into tokens. It never fails: a bad character becomes an
/// ``TokenKind/unexpected`` token and scanning goes on, so the parser can report every problem.
struct Lexer {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position: Int
    private var lineStart = true
    /// Every comment, in order, for the formatter.
    private(set) var comments: [Span] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // A UTF-8 byte order mark is accepted and ignored.
        position = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    mutating func next() -> Token {
        skipTrivia()
        let start = position
        let atLineStart = lineStart
        lineStart = false
        guard position < bytes.count else { return Token(kind: .eof, span: Span(at: start), atLineStart: true) }
        let b = bytes[position]
        let kind: TokenKind
        switch b {
        case UInt8(ascii: "\""):
            kind = scanString()
        case UInt8(ascii: "-") where position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: ">"):
            position += 2
            kind = .arrow
        case UInt8(ascii: ","):
            position += 1
            kind = .comma
        case _ where Self.isIdentifierStart(b):
            scanIdentifierTail()
            if position < bytes.count, bytes[position] >= 0x80 || continuesAfterStray(position) {
                // `té` or `wa!ter`: one bad ID, reported once, not an ID and a stray character.
                while position < bytes.count, !startsArrow(position),
                    bytes[position] >= 0x80 || Self.isIdentifierByte(bytes[position]) || Self.isStray(bytes[position])
                {
                    position += 1
                }
                kind = .badIdentifier
            } else {
                kind = keyword(start: start) ?? .identifier
            }
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            position += 1
            while position < bytes.count, Self.isWordByte(bytes[position]) { position += 1 }
            kind = .word
        default:
            position += Self.scalarLength(b, available: bytes.count - position)
            kind = .unexpected
        }
        return Token(kind: kind, span: Span(start: start, end: position), atLineStart: atLineStart)
    }

    // The scanning loops work on locals and write `position` back once: a loop that updates
    // a stored property stores it on every byte.
    @inline(__always) private mutating func skipTrivia() {
        var p = position
        let end = bytes.count
        while p < end {
            switch bytes[p] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0C:
                p += 1
            case 0x0A, 0x0D:
                p += 1
                lineStart = true
            case UInt8(ascii: "#"):
                p = skipComment(from: p)
            default:
                position = p
                return
            }
        }
        position = p
    }

    @inline(never) private mutating func skipComment(from start: Int) -> Int {
        var p = start
        while p < bytes.count, bytes[p] != 0x0A, bytes[p] != 0x0D { p += 1 }
        comments.append(Span(start: start, end: p))
        return p
    }

    /// Scans to the closing quote; a string never spans lines, so a missing quote ends at the line end.
    private mutating func scanString() -> TokenKind {
        var p = position + 1
        let end = bytes.count
        defer { position = p }
        // Eight bytes at a time up to the first that ends or escapes the string.
        let base = UnsafeRawPointer(bytes.baseAddress!)
        while p + 8 <= end {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: p, as: UInt64.self))
            if Self.hasByte(word, UInt8(ascii: "\"")) || Self.hasByte(word, UInt8(ascii: "\\"))
                || Self.hasByte(word, 0x0A) || Self.hasByte(word, 0x0D)
            {
                break
            }
            p += 8
        }
        while p < end {
            let b = bytes[p]
            if b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") && b != 0x0A && b != 0x0D {
                p += 1
                continue
            }
            switch b {
            case UInt8(ascii: "\""):
                p += 1
                return .string
            case UInt8(ascii: "\\"):
                p += 1
                if p < end, bytes[p] != 0x0A, bytes[p] != 0x0D { p += 1 }
            default:
                return .unterminatedString
            }
        }
        return .unterminatedString
    }

    /// ASCII punctuation that no token starts with and no ID holds (`!`, `.`, `;` and the like).
    static func isStray(_ b: UInt8) -> Bool {
        b > 0x20 && b < 0x7F && !isIdentifierByte(b) && b != UInt8(ascii: ",") && b != UInt8(ascii: "\"") && b != UInt8(ascii: "#")
    }

    /// Whether stray punctuation at `p` is followed by more of an ID: inside a mistyped ID.
    private func continuesAfterStray(_ p: Int) -> Bool {
        var q = p
        while q < bytes.count, Self.isStray(bytes[q]) { q += 1 }
        return q > p && q < bytes.count && (Self.isIdentifierByte(bytes[q]) || bytes[q] >= 0x80)
    }

    private func startsArrow(_ p: Int) -> Bool {
        bytes[p] == UInt8(ascii: "-") && p + 1 < bytes.count && bytes[p + 1] == UInt8(ascii: ">")
    }

    @inline(__always) private mutating func scanIdentifierTail() {
        var p = position + 1
        let end = bytes.count
        defer { position = p }
        while p < end {
            let c = bytes[p]
            if Self.isLetterOrDigit(c) || c == UInt8(ascii: "_") {
                p += 1
                continue
            }
            // `a->b` is an arrow between two IDs, not an ID `a-`.
            guard c == UInt8(ascii: "-"), p + 1 >= end || bytes[p + 1] != UInt8(ascii: ">") else { return }
            p += 1
        }
    }

    /// Whether every byte of `word` is printable ASCII or DEL (0x20 to 0x7F): none has its high
    /// bit set, and none is below 0x20, which a subtraction of 0x20 would leave with it set.
    @inline(__always) static func isPrintableOrDelete(word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = ones &* 0x80
        return word & high == 0 && (word &- ones &* 0x20) & ~word & high == 0
    }

    /// Whether any byte of `word` is `byte` (the zero-byte test on `word ^ byte * 0x0101...`).
    @inline(__always) static func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & (ones &* 0x80) != 0
    }

    @inline(__always) static func isLetterOrDigit(_ b: UInt8) -> Bool {
        (b | 0x20) &- UInt8(ascii: "a") < 26 || b &- UInt8(ascii: "0") < 10
    }

    private func keyword(start: Int) -> TokenKind? {
        Self.keyword(UnsafeBufferPointer(rebasing: bytes[start..<position]))
    }

    /// The keyword `word` spells, if any: decided by length and first byte, then one 64-bit
    /// comparison, because identifiers are the commonest token and most are not keywords.
    static func keyword(_ word: UnsafeBufferPointer<UInt8>) -> TokenKind? {
        guard word.count >= 2, word.count <= 8 else { return nil }
        let kind: TokenKind
        switch (word.count, word[0]) {
        case (2, UInt8(ascii: "o")): kind = .kwOn
        case (3, UInt8(ascii: "f")): kind = .kwFor
        case (3, UInt8(ascii: "e")): kind = .kwEnd
        case (4, UInt8(ascii: "n")): kind = .kwNote
        case (5, UInt8(ascii: "h")): kind = .kwHabit
        case (5, UInt8(ascii: "s")): kind = .kwStart
        case (6, UInt8(ascii: "t")): kind = .kwTarget
        case (7, UInt8(ascii: "r")): kind = .kwRoutine
        case (8, UInt8(ascii: "q")): kind = .kwQuestion
        default: return nil
        }
        return packed(word) == spelling(kind) ? kind : nil
    }

    /// Up to eight bytes as one little-endian integer.
    static func packed(_ word: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var value: UInt64 = 0
        var k = min(word.count, 8)
        while k > 0 {
            k -= 1
            value = value << 8 | UInt64(word[k])
        }
        return value
    }

    /// A keyword's spelling as ``packed(_:)`` gives it: its bytes, first byte lowest. Literals
    /// rather than a table built at first use, which costs a lazy-initialisation check per call.
    private static func spelling(_ kind: TokenKind) -> UInt64 {
        switch kind {
        case .kwRoutine: 0x65_6E69_7475_6F72
        case .kwStart: 0x74_7261_7473
        case .kwHabit: 0x74_6962_6168
        case .kwQuestion: 0x6E6F_6974_7365_7571
        case .kwFor: 0x72_6F66
        case .kwTarget: 0x7465_6772_6174
        case .kwOn: 0x6E6F
        case .kwNote: 0x6574_6F6E
        case .kwEnd: 0x64_6E65
        default: 0
        }
    }

    static func isIdentifierStart(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F
    }

    static func isIdentifierByte(_ b: UInt8) -> Bool {
        isIdentifierStart(b) || (b >= 0x30 && b <= 0x39) || b == 0x2D
    }

    static func isWordByte(_ b: UInt8) -> Bool {
        isIdentifierStart(b) || (b >= 0x30 && b <= 0x39) || b == 0x2E
    }

    /// The length of the UTF-8 sequence starting with `b`, so an unexpected character is one token.
    static func scalarLength(_ b: UInt8, available: Int) -> Int {
        let n = b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
        return min(n, available)
    }
}
