/// The result of reading a `.rt` file.
public struct ParsedRoutine: Sendable {
    public var routine: Routine
    /// Syntax problems, in the order found.
    public var diagnostics: DiagnosticList
    /// The spans of every comment, for the formatter.
    public var comments: [Span]
    /// False when reading stopped early (a YAML syntax error): the graph is a fragment, so
    /// validating it would only report what is missing.
    public var isComplete = true
    /// IDs of declarations lost to a misspelt keyword (`habbit pack "Pack"`): an arrow to
    /// one is not unknown, only its declaration is unread, and the keyword's error says so.
    public var misspeltDeclarations: Set<String> = []
}

/// Parses `.rt` source into a ``Routine``.
public enum RoutineParser {
    public static func parse(_ file: SourceFile) -> ParsedRoutine {
        file.bytes.withUnsafeBufferPointer { bytes in
            var parser = Parser(bytes, source: file.bytes)
            parser.parseFile()
            return parser.finish()
        }
    }
}

/// A recursive-descent parser over a flat grammar, with panic mode: after an error it skips
/// to the next declaration keyword, so one run reports every independent error.
struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var lexer: Lexer
    var token: Token
    var builder: RoutineBuilder
    var diagnostics = DiagnosticList()
    var routineSpan: Span?
    var sawDeclaration = false
    /// The gather line of the question being read, if it has one.
    var gather: GatherLine?
    var misspeltDeclarations: Set<String> = []

    /// `bytes` are those of `source`, which the routine keeps for its texts.
    init(_ bytes: UnsafeBufferPointer<UInt8>, source: [UInt8]) {
        self.bytes = bytes
        builder = RoutineBuilder(source: source)
        lexer = Lexer(bytes)
        token = lexer.next()
        if let offset = firstInvalidUTF8Offset(bytes) {
            diagnostics.append(.invalidUTF8(offset: offset, byte: bytes[offset]))
        }
    }

    mutating func advance() { token = lexer.next() }

    func text(_ span: Span) -> Substring {
        Substring(decoding: UnsafeBufferPointer(rebasing: bytes[span.lowerBound..<span.upperBound]), as: UTF8.self)
    }

    mutating func parseFile() {
        while token.kind != .eof {
            if routineSpan == nil, token.kind != .kwRoutine, !sawDeclaration {
                diagnostics.append(.missingRoutine(at: token.span))
            }
            let ok: Bool
            switch token.kind {
            case .kwRoutine: ok = parseRoutineDeclaration()
            case .kwStart: ok = parseStart()
            case .kwHabit: ok = parseNode(.habit)
            case .kwQuestion: ok = parseNode(.question)
            default:
                report(expected: "a declaration ('habit', 'question' or 'start')", keywords: Self.headerWords)
                ok = false
            }
            sawDeclaration = true
            if !ok { synchronize() }
        }
        if routineSpan == nil, !sawDeclaration {
            diagnostics.append(.missingRoutine(at: token.span))
        }
    }

    mutating func finish() -> ParsedRoutine {
        let routine = builder.finish()
        var parsed = ParsedRoutine(routine: routine, diagnostics: diagnostics + builder.diagnostics, comments: lexer.comments)
        parsed.misspeltDeclarations = misspeltDeclarations
        return parsed
    }

    /// Skips to the next token that starts a declaration, or to a line that starts with a
    /// near miss of one (`qustion`), so that a misspelled header after an error is still
    /// reported rather than swallowed.
    mutating func synchronize() {
        var first = true
        while token.kind != .eof, !token.kind.isHeader {
            if !first, token.atLineStart, token.kind == .identifier,
                closestMatch(to: String(text(token.span)), among: Self.headerWords) != nil
            {
                return
            }
            first = false
            advance()
        }
    }

    static let headerWords = ["habit", "question", "start", "routine"]

    private mutating func parseRoutineDeclaration() -> Bool {
        let keyword = token.span
        advance()
        if token.kind == .identifier || token.kind == .word, !token.atLineStart {
            // `routine Morning`: the name, unquoted. Taken as meant, and said once.
            let span = token.span
            let name = String(text(span))
            diagnostics.append(.unquotedName(name, at: span))
            advance()
            if routineSpan == nil, !sawDeclaration {
                routineSpan = keyword
                builder.setName(name, span: span)
            }
            return true
        }
        guard let (name, nameSpan) = expectString("the routine's name after 'routine'") else { return false }
        if let first = routineSpan {
            diagnostics.append(.duplicateRoutine(at: keyword, first: first))
            return true
        }
        if sawDeclaration { diagnostics.append(.routineNotFirst(at: keyword)) }
        routineSpan = keyword
        builder.setName(name, span: nameSpan)
        return true
    }

    private mutating func parseStart() -> Bool {
        let keyword = token.span
        advance()
        guard token.kind == .arrow else {
            report(expected: "'->' after 'start'")
            return false
        }
        guard let edges = parseArrow() else { return false }
        if let first = builder.routine.startSpan {
            diagnostics.append(.duplicateStart(at: keyword, first: first))
        } else {
            builder.setStart(Array(builder.routine.edges[edges.range]), span: keyword)
        }
        builder.routine.edges.removeLast(Int(edges.count))
        return true
    }

    /// Parses `-> target, target...` with the current token on the arrow, adding the targets
    /// to the routine's edges. A caller that discards the arrow removes them again.
    mutating func parseArrow() -> EdgeRange? {
        let arrow = token.span
        advance()
        let first = builder.routine.edges.count
        var count: Int { builder.routine.edges.count - first }
        while true {
            switch token.kind {
            case .identifier, .badIdentifier:
                if token.kind == .badIdentifier { reportBadIdentifier() }
                let name = UnsafeBufferPointer(rebasing: bytes[token.span.lowerBound..<token.span.upperBound])
                let target = builder.reference(name)
                builder.routine.edges.append(Edge(target, span: token.span))
            case .kwEnd:
                builder.routine.edges.append(Edge(.end, span: token.span))
            default:
                if count == 0, token.atLineStart || token.kind == .eof || token.kind.isHeader {
                    diagnostics.append(.missingTargets(at: arrow))
                } else {
                    report(expected: count == 0 ? "a target after '->'" : "a target after ','")
                }
                builder.routine.edges.removeLast(count)
                return nil
            }
            advance()
            guard token.kind == .comma else { return EdgeRange(start: UInt32(first), count: UInt32(count)) }
            advance()
        }
    }

    /// A string literal's value, reporting a missing closing quote but accepting the text.
    mutating func expectString(_ what: String) -> (String, Span)? {
        guard let (text, span) = expectText(what) else { return nil }
        return (builder.routine.text.string(text), span)
    }

    /// A string literal's text: a range of the source unless it has escapes.
    mutating func expectText(_ what: String) -> (TextRef, Span)? {
        guard token.kind == .string || token.kind == .unterminatedString else {
            report(expected: what)
            return nil
        }
        let span = token.span
        let end: Int
        if token.kind == .string {
            end = span.upperBound - 1
        } else {
            diagnostics.append(.unterminatedString(at: span))
            end = span.upperBound
        }
        let value = StringLiteral.text(bytes, (span.lowerBound + 1)..<end, storage: &builder.routine.text, diagnostics: &diagnostics)
        advance()
        return (value, span)
    }

    mutating func reportBadIdentifier() {
        diagnostics.append(.invalidIdentifier(String(text(token.span)), at: token.span))
    }

    /// Reports the current token as unexpected, naming what the grammar wanted instead. When
    /// the token is a near miss of one of `keywords` (`habbit`), the fix-it names it; else
    /// `fixIt`, when the caller knows what was meant.
    mutating func report(expected what: String, keywords: [String] = [], fixIt: FixIt? = nil) {
        switch token.kind {
        case .unexpected where bytes[token.span.lowerBound] == UInt8(ascii: "'"):
            diagnostics.append(singleQuoted())
        case .unexpected:
            diagnostics.append(.unexpectedCharacter(String(text(token.span)), at: token.span))
        case .unterminatedString:
            diagnostics.append(.unterminatedString(at: token.span))
        case .badIdentifier:
            reportBadIdentifier()
        default:
            let note =
                token.kind.isKeyword && what.contains("ID")
                ? "'\(text(token.span))' is a keyword and cannot be a node ID" : nil
            var diagnostic = Diagnostic.expected(what, found: describe(token), at: token.span, note: note)
            diagnostic.fixIt = fixIt
            if token.kind == .identifier, let keyword = closestMatch(to: String(text(token.span)), among: keywords) {
                diagnostic.fixIt = FixIt("did you mean '\(keyword)'?", replacing: token.span, with: keyword)
                if token.atLineStart, keyword == "habit" || keyword == "question" {
                    var ahead = lexer
                    let id = ahead.next()
                    if id.kind == .identifier, !id.atLineStart { misspeltDeclarations.insert(String(text(id.span))) }
                }
            }
            diagnostics.append(diagnostic)
        }
    }

    /// `'Wake'`: a string in single quotes, reported once with its double-quoted spelling.
    private func singleQuoted() -> Diagnostic {
        var end = token.span.upperBound
        while end < bytes.count, bytes[end] != UInt8(ascii: "'"), bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "'") else { return .singleQuote(at: token.span, replacement: nil) }
        let inner = String(decoding: UnsafeBufferPointer(rebasing: bytes[token.span.upperBound..<end]), as: UTF8.self)
        let whole = Span(start: token.span.lowerBound, end: end + 1)
        return .singleQuote(at: whole, replacement: StringLiteral.encode(inner))
    }

    func describe(_ token: Token) -> String {
        switch token.kind {
        case .eof: return "end of file"
        case .string:
            let value = text(token.span)
            return value.count > 24 ? "string \(value.prefix(20))...\"" : "string \(value)"
        case .arrow: return "'->'"
        case .comma: return "','"
        case _ where token.kind.isKeyword: return "keyword '\(text(token.span))'"
        default: return "'\(text(token.span).prefix(40))'"
        }
    }
}
