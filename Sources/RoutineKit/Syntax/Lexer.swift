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
            if position < bytes.count, bytes[position] >= 0x80 {
                while position < bytes.count, bytes[position] >= 0x80 || Self.isIdentifierByte(bytes[position]) { position += 1 }
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

    private mutating func skipTrivia() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0C:
                position += 1
            case 0x0A, 0x0D:
                position += 1
                lineStart = true
            case UInt8(ascii: "#"):
                let start = position
                while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
                comments.append(Span(start: start, end: position))
            default:
                return
            }
        }
    }

    /// Scans to the closing quote; a string never spans lines, so a missing quote ends at the line end.
    private mutating func scanString() -> TokenKind {
        position += 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                return .string
            case UInt8(ascii: "\\"):
                position += 1
                if position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
            case 0x0A, 0x0D:
                return .unterminatedString
            default:
                position += 1
            }
        }
        return .unterminatedString
    }

    private mutating func scanIdentifierTail() {
        position += 1
        while position < bytes.count {
            let c = bytes[position]
            // `a->b` is an arrow between two IDs, not an ID `a-`.
            if c == UInt8(ascii: "-"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") { return }
            guard Self.isIdentifierByte(c) else { return }
            position += 1
        }
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
        return packed(word) == keywordBits[Int(kind.rawValue - TokenKind.kwRoutine.rawValue)] ? kind : nil
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

    /// The packed spelling of each keyword, in `TokenKind` order from `kwRoutine`.
    private static let keywordBits: [UInt64] = ["routine", "start", "habit", "question", "for", "target", "on", "note", "end"].map { word in
        var word = word
        return word.withUTF8 { packed($0) }
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
