/// Mistakes a newcomer makes often enough that the parser reads them as meant and says once
/// how to write them, rather than stopping at the first unexpected token.
extension Parser {
    /// `  Good -> b` under a question: an option whose text is not quoted. Returns false when
    /// the line does not read as one (a misspelt keyword, a string somewhere on it), so the
    /// caller reports it as unexpected.
    mutating func parseUnquotedOption(of index: Int) -> Bool {
        guard token.atLineStart, [.identifier, .word, .badIdentifier].contains(token.kind) else { return false }
        let start = token.span.lowerBound
        var end = start
        while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D, bytes[end] != UInt8(ascii: "#") {
            if bytes[end] == UInt8(ascii: "\"") || bytes[end] == UInt8(ascii: "'") { return false }
            if bytes[end] == UInt8(ascii: "-"), end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: ">") {
                break
            }
            end += 1
        }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        let span = Span(start: start, end: end)
        // A lone word may be a misspelt keyword (`thne -> b`); that report is the better one.
        if token.span.upperBound == end, closestMatch(to: String(text(token.span)), among: ["note", "then", "habit", "question"]) != nil {
            return false
        }
        let written = String(text(span))
        diagnostics.append(.unquotedOption(written, at: span))
        builder.routine.optionRecords.append(OptionRecord(text: sourceText(span), textSpan: span))
        builder.routine.records[index].optionCount += 1
        if gather != nil { gather?.misplaced.append(builder.routine.optionRecords.count - 1) }
        while token.kind != .eof, token.span.lowerBound < end { advance() }
        return true
    }

    /// The days after `on`, with the current token after the keyword. `on mon,wed` and days on
    /// the line below `on` are read as meant, each reported once with its fix.
    mutating func parseDays(keyword: Span, into node: inout NodeRecord) {
        var days = Weekdays()
        var span = keyword
        var commas: [Span] = []
        var nextLine: Span?
        if token.atLineStart, token.kind == .identifier, Weekdays.names.contains(text(token.span).lowercased()) {
            // `on` alone, its days on the following line: the line is read as the days.
            nextLine = Span(start: keyword.upperBound, end: token.span.lowerBound)
            token.atLineStart = false
        }
        while !token.atLineStart {
            if token.kind == .comma, !commas.isEmpty || span != keyword {
                commas.append(token.span)
                advance()
                continue
            }
            guard token.kind == .identifier else { break }
            AttributeValues.addDay(text(token.span), span: token.span, to: &days, diagnostics: &diagnostics)
            span = span.union(token.span)
            advance()
        }
        if span == keyword {
            diagnostics.append(.missingDays(at: keyword))
            return
        }
        let list = Span(start: keyword.upperBound + (nextLine == nil ? 1 : 0), end: span.upperBound)
        // Only a fix-it needs it: made when one is given, not for every list of days.
        var spaced: String { text(list).split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0.isNewline }).joined(separator: " ") }
        if let nextLine {
            diagnostics.append(
                .daysOnNextLine(
                    at: keyword, days: Span(start: nextLine.upperBound, end: span.upperBound), replacement: " " + spaced,
                    replacing: nextLine.union(list)))
        } else if !commas.isEmpty {
            diagnostics.append(.commasBetweenDays(at: commas[0], list: list, replacement: spaced))
        }
        node.days = days.isEmpty ? nil : days
        node.daysSpan = Span(start: keyword.upperBound + 1, end: span.upperBound)
    }
}
