/// A question's gather written on a line of its own (`then -> b`, or a bare `-> b`), and the
/// options that came after it.
struct GatherLine {
    /// From `then` (or the arrow) to the last target.
    var span: Span
    /// Options after the gather, by their index in the routine's options.
    var misplaced: [Int] = []
}

extension Parser {
    /// Parses the arrow of node `index` itself (a habit's, or a question's gather), with the
    /// current token on the arrow. Returns the span from the arrow to its last target, or nil
    /// when the arrow did not parse.
    mutating func parseOwnArrow(of index: Int) -> Span? {
        let span = token.span
        if let first = builder.routine.records[index].arrowSpan {
            diagnostics.append(.duplicateArrow("'\(builder.routine.id(of: index))'", at: span, first: first))
        }
        guard let edges = parseArrow() else { return nil }
        let whole = span.union(builder.routine.edges[edges.range.upperBound - 1].span)
        if builder.routine.records[index].arrowSpan == nil {
            builder.routine.records[index].next = edges
            builder.routine.records[index].arrowSpan = span
        } else {
            builder.routine.edges.removeLast(Int(edges.count))
        }
        return whole
    }

    /// W010 for a bare arrow on its own line in question `index`: it is the gather, and says
    /// so plainly when it sits under an option as if it were that option's.
    func bareGather(_ arrow: Span, of index: Int) -> Diagnostic {
        let record = builder.routine.records[index]
        let arrowText = String(text(arrow))
        guard record.optionCount > 0 else { return .bareGather(arrowText, at: arrow, under: nil, move: nil) }
        let option = builder.routine.optionRecords[Int(record.firstOption + record.optionCount - 1)]
        let name = builder.routine.text.string(option.text)
        let under = indentation(of: arrow.lowerBound) > indentation(of: option.textSpan.lowerBound)
        // Moving the arrow up to the option's line is offered when nothing but blank space
        // lies between them, and the option has no arrow of its own.
        var move: FixIt?
        let between = option.textSpan.upperBound..<arrow.lowerBound
        if option.arrowSpan == nil, bytes[between].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            move = FixIt(
                "or, if it is the arrow of option '\(name)', move it to that option's line",
                replacing: Span(start: option.textSpan.upperBound, end: arrow.upperBound), with: " " + arrowText)
        }
        return .bareGather(arrowText, at: arrow, under: under ? name : nil, move: move)
    }

    /// E112 for each option after the gather of question `index`; the first carries a fix-it
    /// that moves the gather after the last option, when no comment lies in between.
    mutating func reportOptionsAfterGather(of index: Int) {
        guard let gather, let last = gather.misplaced.last else { return }
        let options = builder.routine.optionRecords
        var end = options[last].textSpan.upperBound
        if let target = options[last].next.range.last { end = max(end, builder.routine.edges[target].span.upperBound) }
        var fix: FixIt?
        let moved = bytes[gather.span.upperBound..<end]
        if !moved.contains(UInt8(ascii: "#")), !text(gather.span).contains("#") {
            let lines = String(decoding: moved, as: UTF8.self).drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            let indent = String(repeating: " ", count: indentation(of: gather.span.lowerBound))
            fix = FixIt(
                "move '\(text(gather.span))' after the last option", replacing: Span(start: gather.span.lowerBound, end: end),
                with: lines + "\n" + indent + text(gather.span))
        }
        for (k, option) in gather.misplaced.enumerated() {
            diagnostics.append(
                .optionAfterGather(
                    builder.routine.text.string(options[option].text), at: options[option].textSpan, gather: gather.span,
                    fixIt: k == 0 ? fix : nil))
        }
    }

    /// The number of bytes between the start of `offset`'s line and `offset`.
    func indentation(of offset: Int) -> Int {
        var start = offset
        while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
        return offset - start
    }
}
