/// One token of a test file: a word, a quoted string or a line end. Comments and spaces
/// are dropped; positions are byte ranges in the file.
public struct ScenarioToken: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case word
        /// A double-quoted string; `value` holds its text with escapes decoded.
        case string
        case newline
    }

    public var kind: Kind
    public var span: Span
    /// The word as written, or the string's decoded text.
    public var value: String
}

/// Splits a test file into tokens. It never fails: an unterminated string runs to the end
/// of its line and is reported, a bad escape is kept as written and reported, and every
/// other byte belongs to some word.
public enum ScenarioLexer {
    public static func tokens(_ bytes: [UInt8]) -> (tokens: [ScenarioToken], diagnostics: [Diagnostic]) {
        var tokens: [ScenarioToken] = []
        var diagnostics = DiagnosticList()
        let n = bytes.count
        var i = 0
        // A byte-order mark is not part of the first word.
        if n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0C || b == 0x0B }
        func isLineEnd(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0D }
        while i < n {
            let b = bytes[i]
            if isSpace(b) {
                i += 1
            } else if isLineEnd(b) {
                let start = i
                i += (b == 0x0D && i + 1 < n && bytes[i + 1] == 0x0A) ? 2 : 1
                tokens.append(ScenarioToken(kind: .newline, span: Span(start: start, end: i), value: "\n"))
            } else if b == UInt8(ascii: "#") {
                while i < n, !isLineEnd(bytes[i]) { i += 1 }
            } else if b == UInt8(ascii: "\"") {
                let start = i
                i += 1
                while i < n, bytes[i] != UInt8(ascii: "\""), !isLineEnd(bytes[i]) {
                    i += bytes[i] == UInt8(ascii: "\\") && i + 1 < n && !isLineEnd(bytes[i + 1]) ? 2 : 1
                }
                let contentEnd = i
                if i < n, bytes[i] == UInt8(ascii: "\"") {
                    i += 1
                } else {
                    diagnostics.append(.unterminatedString(at: Span(start: start, end: i)))
                }
                let value = bytes.withUnsafeBufferPointer {
                    StringLiteral.decode($0, (start + 1)..<contentEnd, diagnostics: &diagnostics)
                }
                tokens.append(ScenarioToken(kind: .string, span: Span(start: start, end: i), value: value))
            } else {
                // A word runs to the next space or line end; '#' inside a word ('#1') is
                // part of it, as in 'answer Take #2'.
                let start = i
                while i < n, !isSpace(bytes[i]), !isLineEnd(bytes[i]) { i += 1 }
                tokens.append(ScenarioToken(kind: .word, span: Span(start: start, end: i), value: String(decoding: bytes[start..<i], as: UTF8.self)))
            }
        }
        return (tokens, diagnostics.finished())
    }
}
