/// What a piece of `.rt` source is, for highlighting (an editor's semantic tokens).
public enum SyntaxClass: UInt8, Sendable, CaseIterable {
    case keyword
    /// A node ID where the node is declared.
    case declaration
    /// A node ID an arrow or the start list names.
    case reference
    case string
    case number
    case duration
    case day
    /// A numeric habit's unit (`glasses`).
    case unit
    case comment
    /// `->` and the commas between targets.
    case punctuation
}

/// One classified piece of source.
public struct ClassifiedSpan: Sendable, Equatable {
    public var span: Span
    public var kind: SyntaxClass
}

/// Classifies every token of a `.rt` file, in source order, with the lexer the parser uses: the
/// classes follow the grammar (a `then` that opens a gather is a keyword, elsewhere an ID; a
/// word after `for` is a duration), not a guess from the text.
public enum SyntaxClassifier {
    public static func classify(_ file: SourceFile) -> [ClassifiedSpan] {
        var tokens: [Token] = []
        let comments = file.bytes.withUnsafeBufferPointer { bytes in
            var lexer = Lexer(bytes)
            while true {
                let token = lexer.next()
                if token.kind == .eof { break }
                tokens.append(token)
            }
            return lexer.comments
        }
        func text(_ span: Span) -> ArraySlice<UInt8> { file.bytes[span.lowerBound..<span.upperBound] }
        var result: [ClassifiedSpan] = []
        result.reserveCapacity(tokens.count + comments.count)
        var inArrow = false
        var inDays = false
        var previous: TokenKind?
        for (i, token) in tokens.enumerated() {
            let nextKind = i + 1 < tokens.count ? tokens[i + 1].kind : nil
            var kind: SyntaxClass?
            // A target follows an arrow or a comma of its list; the next line's first word
            // after a complete list is not one.
            let isTarget = inArrow && (previous == .arrow || previous == .comma)
            switch token.kind {
            case .kwEnd: kind = .keyword
            case .identifier:
                let word = text(token.span)
                if previous == .kwHabit || previous == .kwQuestion {
                    kind = .declaration
                } else if isTarget {
                    kind = .reference
                } else if token.atLineStart, nextKind == .arrow, word.elementsEqual("then".utf8) {
                    kind = .keyword
                } else if inDays, Weekdays.names.contains(where: { word.elementsEqual($0.utf8) }) {
                    kind = .day
                } else if previous == .word, word.elementsEqual("per".utf8) {
                    kind = .keyword
                } else if i > 0, tokens[i - 1].kind == .identifier, text(tokens[i - 1].span).elementsEqual("per".utf8),
                    word.elementsEqual("week".utf8)
                {
                    kind = .keyword
                } else if i > 1, previous == .word, tokens[i - 2].kind == .kwTarget {
                    kind = .unit
                }
            case .string, .unterminatedString:
                kind = i > 1 && previous == .word && tokens[i - 2].kind == .kwTarget ? .unit : .string
            case .word:
                kind = previous == .kwFor || text(token.span).contains(where: { $0 >= 0x41 }) ? .duration : .number
            case .arrow, .comma: kind = .punctuation
            case .unexpected, .badIdentifier, .eof: kind = nil
            default: kind = token.kind.isKeyword ? .keyword : nil
            }
            if let kind { result.append(ClassifiedSpan(span: token.span, kind: kind)) }
            switch token.kind {
            case .arrow: inArrow = true
            case .comma: break
            case .identifier, .kwEnd: if !isTarget { inArrow = false }
            default: inArrow = false
            }
            if token.kind == .kwOn { inDays = true } else if kind != .day { inDays = false }
            previous = token.kind
        }
        return merge(result, comments.map { ClassifiedSpan(span: $0, kind: .comment) })
    }

    private static func merge(_ a: [ClassifiedSpan], _ b: [ClassifiedSpan]) -> [ClassifiedSpan] {
        guard !b.isEmpty else { return a }
        var merged: [ClassifiedSpan] = []
        merged.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i].span.start < b[j].span.start) {
                merged.append(a[i])
                i += 1
            } else {
                merged.append(b[j])
                j += 1
            }
        }
        return merged
    }
}

/// The rules for node IDs, for tools that make or check one (an editor's rename).
public enum Identifiers {
    /// Words that can never be an ID.
    public static let keywords = TokenKind.keywords.map(\.0)

    /// Whether `name` is an ID as the grammar defines it, and not a keyword (the rule both
    /// readers apply).
    public static func isValid(_ name: String) -> Bool { isIdentifier(name) }

    /// Whether `byte` may stand in an ID.
    public static func isIDByte(_ byte: UInt8) -> Bool { Lexer.isIdentifierByte(byte) }
}
