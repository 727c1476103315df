/// The kinds of token in a `.rt` file.
enum TokenKind: UInt8, Sendable {
    case identifier
    case string
    /// A string whose closing quote is missing on its line.
    case unterminatedString
    /// A run of letters and digits that starts with a digit: a number or a duration.
    case word
    case arrow
    case comma
    /// A character that starts no token.
    case unexpected
    /// An identifier with characters IDs may not hold (`té`), kept whole for one clear error.
    case badIdentifier
    case eof
    case kwRoutine, kwStart, kwHabit, kwQuestion, kwFor, kwTarget, kwOn, kwNote, kwEnd

    var isKeyword: Bool { rawValue >= TokenKind.kwRoutine.rawValue }

    /// Keywords that begin a declaration; the parser resynchronises at them.
    var isHeader: Bool {
        self == .kwRoutine || self == .kwStart || self == .kwHabit || self == .kwQuestion
    }

    static let keywords: [(String, TokenKind)] = [
        ("routine", .kwRoutine), ("start", .kwStart), ("habit", .kwHabit), ("question", .kwQuestion),
        ("for", .kwFor), ("target", .kwTarget), ("on", .kwOn), ("note", .kwNote), ("end", .kwEnd),
    ]
}

/// A token: its kind, its bytes, and whether it is the first on its line (the grammar is
/// line-oriented: an arrow that starts a line in a question is the question's gather).
struct Token: Sendable {
    var kind: TokenKind
    var span: Span
    var atLineStart: Bool
}
