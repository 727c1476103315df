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
        let id = String(decoding: UnsafeBufferPointer(rebasing: bytes[idSpan.lowerBound..<idSpan.upperBound]), as: UTF8.self)
        advance()
        var node = RoutineNode(kind: kind, id: id, title: id, idSpan: idSpan, titleSpan: idSpan)
        var ok = true
        if let (title, span) = expectString(kind == .habit ? "the habit's title in quotes" : "the question's prompt in quotes") {
            node.title = title
            node.titleSpan = span
            ok = parseBody(of: &node)
        } else if [.arrow, .kwFor, .kwTarget, .kwOn, .kwNote].contains(token.kind) {
            // The title is missing but the rest of the node is there: read it, so its arrows count.
            ok = parseBody(of: &node)
        } else {
            ok = false
        }
        _ = builder.declare(node)
        return ok
    }

    private mutating func parseBody(of node: inout RoutineNode) -> Bool {
        // Where each attribute was first given: for, target, on, note.
        var seen: [Span?] = [nil, nil, nil, nil]
        func slot(_ kind: TokenKind) -> Int { Int(kind.rawValue - TokenKind.kwFor.rawValue) }
        while true {
            let kind = token.kind
            switch kind {
            case .eof, .kwRoutine, .kwStart, .kwHabit, .kwQuestion:
                return true
            case .kwFor, .kwTarget, .kwOn, .kwNote:
                let name = String(text(token.span))
                if let first = seen[slot(kind)] {
                    diagnostics.append(.duplicateAttribute(name, node: node.id, at: token.span, first: first))
                } else {
                    seen[slot(kind)] = token.span
                }
                if node.isQuestion, kind != .kwNote {
                    diagnostics.append(.attributeOnQuestion(name, node: node.id, at: token.span))
                    var discarded = node
                    guard parseAttribute(kind, into: &discarded) else { return false }
                } else {
                    guard parseAttribute(kind, into: &node) else { return false }
                }
            case .arrow where node.isQuestion && !token.atLineStart && !node.options.isEmpty:
                // An arrow on an option's line belongs to the option.
                let last = node.options.count - 1
                if let first = node.options[last].arrowSpan {
                    diagnostics.append(.duplicateArrow("option '\(node.options[last].text)'", at: token.span, first: first))
                }
                let span = token.span
                guard let edges = parseArrow() else { return false }
                if node.options[last].arrowSpan == nil {
                    node.options[last].next = edges
                    node.options[last].arrowSpan = span
                }
            case .arrow:
                let span = token.span
                if let first = node.arrowSpan {
                    diagnostics.append(.duplicateArrow("'\(node.id)'", at: span, first: first))
                }
                guard let edges = parseArrow() else { return false }
                if node.arrowSpan == nil {
                    node.next = edges
                    node.arrowSpan = span
                }
            case .string where node.isQuestion, .unterminatedString where node.isQuestion:
                guard let (answer, span) = expectString("an option") else { return false }
                node.options.append(QuestionOption(text: answer, textSpan: span))
            default:
                report(expected: node.isQuestion
                    ? "an option in quotes, '->' or the next declaration"
                    : "'for', 'target', 'on', 'note', '->' or the next declaration")
                return false
            }
        }
    }

    /// Parses one attribute, with the current token on its keyword.
    private mutating func parseAttribute(_ kind: TokenKind, into node: inout RoutineNode) -> Bool {
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
            guard token.kind == .word || token.kind == .identifier else {
                report(expected: "a number after 'target'")
                return false
            }
            var target = TargetValue(amount: 1)
            switch AttributeValues.targetAmount(text(token.span), span: token.span) {
            case .success(let amount): target.amount = amount
            case .failure(let diagnostic): diagnostics.append(diagnostic)
            }
            advance()
            if !token.atLineStart, token.kind == .identifier {
                target.unit = String(text(token.span))
                advance()
            } else if !token.atLineStart, token.kind == .string || token.kind == .unterminatedString {
                target.unit = expectString("a unit")?.0
            }
            node.target = target
        case .kwOn:
            var days = Weekdays()
            var span = keyword
            while token.kind == .identifier, !token.atLineStart {
                AttributeValues.addDay(text(token.span), span: token.span, to: &days, diagnostics: &diagnostics)
                span = span.union(token.span)
                advance()
            }
            if span == keyword {
                diagnostics.append(.missingDays(at: keyword))
            } else {
                node.days = days.isEmpty ? nil : days
                node.daysSpan = Span(start: keyword.upperBound + 1, end: span.upperBound)
            }
        default:
            guard let (note, span) = expectString("the note's text in quotes after 'note'") else { return false }
            node.note = note
            node.noteSpan = span
        }
        return true
    }
}
