extension Parser {
    /// Parses a `habit` or `question` declaration: its header, then attributes, options and
    /// arrows up to the next declaration. A node whose header parsed is kept even when its
    /// body has an error, so that arrows to it do not turn into spurious unknown targets.
    mutating func parseNode(_ kind: RoutineNode.Kind) -> Bool {
        advance()
        if token.kind == .badIdentifier { reportBadIdentifier() }
        guard token.kind == .identifier || token.kind == .badIdentifier else {
            report(expected: "a node ID after '\(kind.rawValue)'")
            return false
        }
        let idSpan = token.span
        advance()
        let index = builder.declare(kind, id: sourceText(idSpan), idSpan: idSpan)
        gather = nil
        defer { if kind == .question { reportOptionsAfterGather(of: index) } }
        if let (title, span) = expectText(kind == .habit ? "the habit's title in quotes" : "the question's prompt in quotes") {
            builder.routine.records[index].title = title
            builder.routine.records[index].titleSpan = span
            return parseBody(of: index)
        } else if [.arrow, .kwFor, .kwTarget, .kwOn, .kwNote].contains(token.kind) {
            // The title is missing but the rest of the node is there: read it, so its arrows count.
            return parseBody(of: index)
        }
        return false
    }

    /// The text of `span` itself, as a range of the source.
    func sourceText(_ span: Span) -> TextRef { TextRef(start: span.start, count: span.end - span.start) }

    /// Reads the body of node `index`, filling in its record in place.
    private mutating func parseBody(of index: Int) -> Bool {
        var seen = AttributeSpans()
        var perWeekSpan: Span?
        let isQuestion = builder.routine.records[index].kind == .question
        var id: String { builder.routine.id(of: index) }
        while true {
            let kind = token.kind
            switch kind {
            case .eof, .kwRoutine, .kwStart, .kwHabit, .kwQuestion:
                return true
            case .kwFor, .kwTarget, .kwOn, .kwNote:
                let keyword = token.span
                var name: String { String(text(keyword)) }
                if let first = seen[kind] {
                    diagnostics.append(.duplicateAttribute(name, node: id, at: keyword, first: first))
                } else {
                    seen[kind] = keyword
                }
                // A question's duration, target or days are reported, read, and dropped.
                let dropped = isQuestion && kind != .kwNote
                if dropped { diagnostics.append(.attributeOnQuestion(name, node: id, at: keyword)) }
                var record = builder.routine.records[index]
                guard parseAttribute(kind, into: &record) else { return false }
                if !dropped { builder.routine.records[index] = record }
            case .word where text(token.span).allSatisfy(\.isNumber) && !(isQuestion && token.atLineStart):
                // (A number opening a line of a question is an unquoted option, read below.)
                // `3 per week`: 'per' and 'week' are words only here, so no ID is taken from anyone.
                let number = token.span
                guard let quota = parsePerWeek() else { return false }
                let whole = number.union(quota.span)
                if let first = perWeekSpan {
                    diagnostics.append(.duplicateAttribute("per week", node: id, at: whole, first: first))
                } else {
                    perWeekSpan = whole
                }
                if isQuestion {
                    diagnostics.append(.attributeOnQuestion("per week", node: id, at: whole))
                } else if let count = quota.count {
                    builder.routine.records[index].perWeek = UInt8(count)
                }
            case .arrow where isQuestion && !token.atLineStart && builder.routine.records[index].optionCount > 0:
                // An arrow on an option's line belongs to the option.
                let record = builder.routine.records[index]
                let last = Int(record.firstOption + record.optionCount - 1)
                let span = token.span
                if let first = builder.routine.optionRecords[last].arrowSpan {
                    let option = builder.routine.text.string(builder.routine.optionRecords[last].text)
                    diagnostics.append(.duplicateArrow("option '\(option)'", at: span, first: first))
                }
                guard let edges = parseArrow() else { return false }
                if builder.routine.optionRecords[last].arrowSpan == nil {
                    builder.routine.optionRecords[last].next = edges
                    builder.routine.optionRecords[last].arrowSpan = span
                } else {
                    builder.routine.edges.removeLast(Int(edges.count))
                }
            case .identifier where isQuestion && token.atLineStart && text(token.span) == "then":
                let then = token.span
                advance()
                guard token.kind == .arrow, !token.atLineStart else {
                    report(expected: "'->' after 'then'")
                    return false
                }
                guard let arrow = parseOwnArrow(of: index) else { return false }
                // A second gather is E107; the options after the first are still misplaced.
                if gather == nil { gather = GatherLine(span: then.union(arrow)) }
            case .arrow where isQuestion && token.atLineStart:
                // A bare arrow on its own line: the gather, as it always was, but said plainly.
                guard let arrow = parseOwnArrow(of: index) else { return false }
                diagnostics.append(bareGather(arrow, of: index))
                if gather == nil { gather = GatherLine(span: arrow) }
            case .arrow:
                guard parseOwnArrow(of: index) != nil else { return false }
            case .string where isQuestion, .unterminatedString where isQuestion:
                guard let (answer, span) = expectText("an option") else { return false }
                builder.routine.optionRecords.append(OptionRecord(text: answer, textSpan: span))
                builder.routine.records[index].optionCount += 1
                if gather != nil { gather?.misplaced.append(builder.routine.optionRecords.count - 1) }
            default:
                if isQuestion, parseUnquotedOption(of: index) { continue }
                report(
                    expected: isQuestion
                        ? "an option in quotes, 'then ->' or the next declaration"
                        : "'for', 'target', 'on', 'N per week', 'note', '->' or the next declaration",
                    keywords: isQuestion ? ["note", "then", "habit", "question"] : ["for", "target", "on", "note", "habit", "question"],
                    fixIt: isQuestion ? nil : missingKeyword())
                return false
            }
        }
    }

    /// `5m` or `8` after a habit's title, its keyword left out: `for 5m`, `target 8`.
    private func missingKeyword() -> FixIt? {
        guard token.kind == .word else { return nil }
        let word = text(token.span)
        let keyword: String
        if case .success = DurationText.parse(word) {
            keyword = "for"
        } else if NumberText.parse(word) != nil {
            keyword = "target"
        } else {
            return nil
        }
        return FixIt("did you mean '\(keyword) \(word)'?", replacing: token.span, with: "\(keyword) \(word)")
    }

    /// Parses `N per week` with the current token on the number: the count (nil when out of
    /// range, reported) and the span of `per week`; nil after a syntax error.
    private mutating func parsePerWeek() -> (count: Int?, span: Span)? {
        let number = token.span
        let digits = String(text(number))
        advance()
        guard !token.atLineStart, token.kind == .identifier, text(token.span) == "per" else {
            diagnostics.append(.expectedPerWeek(after: digits, at: number))
            return nil
        }
        let per = token.span
        advance()
        guard !token.atLineStart, token.kind == .identifier, text(token.span) == "week" else {
            diagnostics.append(.expectedPerWeek(after: digits, at: number.union(per)))
            return nil
        }
        let span = per.union(token.span)
        advance()
        guard let count = Int(digits), (1...7).contains(count) else {
            diagnostics.append(.perWeekOutOfRange(digits, at: number.union(span)))
            return (nil, span)
        }
        return (count, span)
    }

    /// Parses one attribute, with the current token on its keyword.
    private mutating func parseAttribute(_ kind: TokenKind, into node: inout NodeRecord) -> Bool {
        let keyword = token.span
        advance()
        switch kind {
        case .kwFor:
            guard token.kind == .word || token.kind == .identifier else {
                report(expected: "a duration such as '10m' after 'for'")
                return false
            }
            let number = token.span
            advance()
            if token.kind == .identifier, !token.atLineStart, let unit = DurationText.unitLetter(for: text(token.span)),
                text(number).allSatisfy(\.isNumber)
            {
                // `for 10 minutes`: one diagnostic that says how to write it, not two.
                let whole = number.union(token.span)
                let fixed = String(text(number)) + unit
                diagnostics.append(.spelledOutDuration(String(text(whole)), at: whole, replacement: fixed))
                advance()
                break
            }
            switch AttributeValues.duration(text(number), span: number) {
            case .success(let seconds): node.duration = seconds
            case .failure(let diagnostic): diagnostics.append(diagnostic)
            }
        case .kwTarget:
            // `at most` are words only here, so a node may still be called `at` or `most`.
            var atMost = false
            if !token.atLineStart, token.kind == .identifier, text(token.span) == "at" {
                let at = token.span
                advance()
                guard !token.atLineStart, token.kind == .identifier, text(token.span) == "most" else {
                    diagnostics.append(.expectedAtMost(at: at))
                    return false
                }
                advance()
                atMost = true
            }
            guard token.kind == .word || token.kind == .identifier else {
                report(expected: "a number after 'target'")
                return false
            }
            // A target that does not parse is left out, not guessed: a drawing of the invalid
            // routine marks it as written.
            var amount: Double?
            switch AttributeValues.targetAmount(text(token.span), span: token.span, atMost: atMost) {
            case .success(let value): amount = value
            case .failure(let diagnostic): diagnostics.append(diagnostic)
            }
            advance()
            var unit = TextRef.none
            if !token.atLineStart, token.kind == .identifier {
                unit = sourceText(token.span)
                advance()
            } else if !token.atLineStart, token.kind == .string || token.kind == .unterminatedString {
                unit = expectText("a unit")?.0 ?? .none
            }
            node.amount = amount
            node.atMost = amount != nil && atMost
            node.unit = amount == nil ? .none : unit
        case .kwOn:
            parseDays(keyword: keyword, into: &node)
        default:
            guard let (note, span) = expectText("the note's text in quotes after 'note'") else { return false }
            node.note = note
            node.noteSpan = span
        }
        return true
    }
}

/// Where each attribute of a node was first given: fields, not an array, so that reading a
/// node allocates nothing.
private struct AttributeSpans {
    private var forSpan, targetSpan, onSpan, noteSpan: Span?

    subscript(keyword: TokenKind) -> Span? {
        get {
            switch keyword {
            case .kwFor: forSpan
            case .kwTarget: targetSpan
            case .kwOn: onSpan
            default: noteSpan
            }
        }
        set {
            switch keyword {
            case .kwFor: forSpan = newValue
            case .kwTarget: targetSpan = newValue
            case .kwOn: onSpan = newValue
            default: noteSpan = newValue
            }
        }
    }
}
