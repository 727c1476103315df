/// A parsed `.rt` file seen as text to edit: its tokens, its lines, and where each
/// declaration and arrow list sits, so that every op can be a small edit of those bytes.
struct EditableSource {
    let bytes: [UInt8]
    let routine: Routine
    let tokens: [Token]
    let byID: [String: Int]
    /// The file's line ending, used for every line an edit adds.
    let newline: String

    init(_ bytes: [UInt8], routine: Routine) {
        self.bytes = bytes
        self.routine = routine
        var tokens: [Token] = []
        bytes.withUnsafeBufferPointer { buffer in
            var lexer = Lexer(buffer)
            while true {
                let token = lexer.next()
                tokens.append(token)
                if token.kind == .eof { break }
            }
        }
        self.tokens = tokens
        byID = routine.indexByID()
        if let lf = bytes.firstIndex(of: 0x0A) {
            newline = lf > 0 && bytes[lf - 1] == 0x0D ? "\r\n" : "\n"
        } else {
            newline = bytes.contains(0x0D) ? "\r" : "\n"
        }
    }

    // MARK: Tokens and declarations

    /// The index of the token that starts at `offset`.
    func tokenIndex(at offset: Int) -> Int {
        var low = 0
        var high = tokens.count - 1
        while low < high {
            let mid = (low + high) / 2
            if tokens[mid].span.lowerBound < offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The tokens of node `index`'s declaration: its keyword up to the next declaration.
    func declaration(_ index: Int) -> Range<Int> {
        let first = tokenIndex(at: routine.idSpan(of: index).lowerBound) - 1
        var end = first + 1
        while tokens[end].kind != .eof && !tokens[end].kind.isHeader { end += 1 }
        return max(first, 0)..<end
    }

    func text(_ span: Span) -> String { String(decoding: bytes[span.lowerBound..<span.upperBound], as: UTF8.self) }

    // MARK: Lines

    func lineStart(_ offset: Int) -> Int {
        var i = offset
        while i > 0, bytes[i - 1] != 0x0A, bytes[i - 1] != 0x0D { i -= 1 }
        return i
    }

    /// The offset of the line's end, before its line break.
    func lineEnd(_ offset: Int) -> Int {
        var i = offset
        while i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D { i += 1 }
        return i
    }

    /// The offset just after the line's break (the file's end on a last line without one).
    func nextLineStart(_ offset: Int) -> Int {
        var i = lineEnd(offset)
        if i < bytes.count, bytes[i] == 0x0D { i += 1 }
        if i < bytes.count, bytes[i] == 0x0A, i == 0 || bytes[i - 1] == 0x0D || i == lineEnd(offset) { i += 1 }
        return i
    }

    func isBlank(_ range: Range<Int>) -> Bool { bytes[range].allSatisfy { $0 == 0x20 || $0 == 0x09 } }

    func isBlankLine(at offset: Int) -> Bool { isBlank(lineStart(offset)..<lineEnd(offset)) }

    /// The indentation of the line holding `offset`.
    func indent(at offset: Int) -> String {
        let start = lineStart(offset)
        var i = start
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    /// What removes `span`: the whole line when nothing else but blanks is on it, or else the
    /// span and the blanks before it, so no double space or trailing blank is left behind.
    func removal(of span: Span) -> TextEdit {
        let start = lineStart(span.lowerBound)
        let end = lineEnd(span.upperBound)
        if isBlank(start..<span.lowerBound) && isBlank(span.upperBound..<end) {
            return TextEdit(Span(start: start, end: nextLineStart(span.upperBound)), "")
        }
        var from = span.lowerBound
        while from > start, bytes[from - 1] == 0x20 || bytes[from - 1] == 0x09 { from -= 1 }
        if from == start { from = span.lowerBound }
        return TextEdit(Span(start: from, end: span.upperBound), "")
    }

    /// Removes whole lines from `start` up to `end` (a line start), and one of two blank lines
    /// the removal would leave next to each other.
    func removalOfLines(from start: Int, to end: Int) -> TextEdit {
        var end = end
        let blankBefore = start == 0 || isBlankLine(at: start - 1)
        if blankBefore, end < bytes.count, isBlankLine(at: end) { end = nextLineStart(end) }
        return TextEdit(Span(start: start, end: end), "")
    }

    // MARK: Arrows

    /// One arrow list as written: a habit's, an answer's, a question's gather or the start list.
    struct ArrowList {
        /// What removing the whole list removes: `->` (or `then ->`, or `start ->`) to its last target.
        var lead: Span?
        var edges: [Edge]
        /// Where a new arrow goes when there is none.
        var insertAt: Int
    }

    /// The arrow list of node `index`, answer `option` (nil: the habit's arrow or the gather).
    func arrows(of index: Int, option: Int?) -> ArrowList {
        let node = routine.nodes[index]
        let declaration = declaration(index)
        let lastTokenEnd = tokens[declaration.upperBound - 1].span.upperBound
        if let option {
            let answer = node.options[option]
            return ArrowList(lead: answer.arrowSpan, edges: answer.next, insertAt: answer.textSpan.upperBound)
        }
        var lead = node.arrowSpan
        if let arrow = lead, node.isQuestion {
            // `then` before a gather's arrow goes with it.
            let i = tokenIndex(at: arrow.lowerBound)
            if i > 0, tokens[i - 1].kind == .identifier, text(tokens[i - 1].span) == "then", !tokens[i].atLineStart {
                lead = Span(start: tokens[i - 1].span.lowerBound, end: arrow.upperBound)
            }
        }
        return ArrowList(lead: lead, edges: node.next, insertAt: lastTokenEnd)
    }

    func startList() -> ArrowList? {
        guard let span = routine.startSpan else { return nil }
        return ArrowList(lead: span, edges: routine.explicitStart, insertAt: span.upperBound)
    }

    /// The edits that take the edges `remove` (indices into the list) out of `list`.
    func removing(_ remove: Set<Int>, from list: ArrowList) -> [TextEdit] {
        let edges = list.edges
        guard !remove.isEmpty else { return [] }
        if remove.count == edges.count, let lead = list.lead {
            return [removal(of: Span(start: lead.lowerBound, end: edges.last!.span.upperBound))]
        }
        var edits: [TextEdit] = []
        var k = 0
        while k < edges.count {
            guard remove.contains(k) else {
                k += 1
                continue
            }
            var last = k
            while last + 1 < edges.count, remove.contains(last + 1) { last += 1 }
            if k > 0 {
                edits.append(TextEdit(Span(start: edges[k - 1].span.upperBound, end: edges[last].span.upperBound), ""))
            } else {
                edits.append(TextEdit(Span(start: edges[0].span.lowerBound, end: edges[last + 1].span.lowerBound), ""))
            }
            k = last + 1
        }
        return edits
    }

    /// The offset after an answer's last token (its text, or its last target).
    func answerEnd(_ option: QuestionOption) -> Int { option.next.last?.span.upperBound ?? option.textSpan.upperBound }

    /// The whole lines answer `option` of `node` stands on.
    func answerLines(_ option: QuestionOption) -> Range<Int> {
        lineStart(option.textSpan.lowerBound)..<nextLineStart(answerEnd(option))
    }
}
