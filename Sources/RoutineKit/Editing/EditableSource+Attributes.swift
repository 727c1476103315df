/// `setAttributes`: each attribute replaced where it is written, removed with the blanks
/// before it, or added after the attributes that come before it in `fmt`'s order.
extension EditableSource {
    enum Attribute: Int, CaseIterable { case duration, target, days, perWeek, note }

    /// Where each attribute of node `index` is written, from its keyword to its last word.
    func attributeSpans(of index: Int) -> [Attribute: Span] {
        let range = declaration(index)
        var found: [Attribute: Span] = [:]
        var i = range.lowerBound + 3
        func sameLine(_ k: Int) -> Bool { k < range.upperBound && !tokens[k].atLineStart }
        while i < range.upperBound {
            let token = tokens[i]
            var last = i
            switch token.kind {
            case .kwFor:
                if i + 1 < range.upperBound, tokens[i + 1].kind == .word { last = i + 1 }
                found[.duration] = Span(start: token.span.lowerBound, end: tokens[last].span.upperBound)
            case .kwTarget:
                // `target at most 2`: the limit's two words before the number.
                if sameLine(i + 2), text(tokens[i + 1].span) == "at", text(tokens[i + 2].span) == "most" { last = i + 2 }
                if last + 1 < range.upperBound, tokens[last + 1].kind == .word { last += 1 }
                if sameLine(last + 1), tokens[last + 1].kind == .identifier || tokens[last + 1].kind == .string { last += 1 }
                found[.target] = Span(start: token.span.lowerBound, end: tokens[last].span.upperBound)
            case .kwOn:
                while sameLine(last + 1), tokens[last + 1].kind == .identifier, Weekdays.named(text(tokens[last + 1].span)) != nil { last += 1 }
                found[.days] = Span(start: token.span.lowerBound, end: tokens[last].span.upperBound)
            case .word where i + 2 < range.upperBound && text(tokens[i + 1].span) == "per" && text(tokens[i + 2].span) == "week":
                last = i + 2
                found[.perWeek] = Span(start: token.span.lowerBound, end: tokens[last].span.upperBound)
            case .kwNote:
                if i + 1 < range.upperBound, tokens[i + 1].kind == .string { last = i + 1 }
                found[.note] = Span(start: token.span.lowerBound, end: tokens[last].span.upperBound)
            case .arrow:
                // Targets are never attributes.
                while last + 1 < range.upperBound, [.identifier, .comma, .kwEnd].contains(tokens[last + 1].kind) { last += 1 }
            default: break
            }
            i = last + 1
        }
        return found
    }

    func settingAttributes(of index: Int, _ changes: AttributeChanges) throws(Diagnostic) -> [TextEdit] {
        let node = routine.nodes[index]
        if node.isQuestion,
            changes.duration != .keep || changes.target != .keep || changes.unit != .keep
                || changes.days != .keep || changes.perWeek != .keep || changes.atMost != nil
        {
            throw .notAHabitAttribute(node.id)
        }
        var wanted: [Attribute: String?] = [:]
        switch changes.duration {
        case .keep: break
        case .remove: wanted[.duration] = .some(nil)
        case .set(let seconds): wanted[.duration] = "for " + DurationText.format(seconds)
        }
        if changes.target != .keep || changes.unit != .keep || changes.atMost != nil {
            var amount = node.target?.amount
            var unit = node.target?.unit
            if case .set(let value) = changes.target { amount = value }
            if case .remove = changes.target {
                amount = nil
                unit = nil
            }
            if case .set(let value) = changes.unit { unit = value }
            if case .remove = changes.unit { unit = nil }
            if let amount {
                // An edit of the amount keeps the target a limit when it was one, unless told otherwise.
                var text = "target " + TargetValue(amount: amount, atMost: changes.atMost ?? node.target?.atMost ?? false).boundText
                if let unit {
                    let bare = Identifiers.isValid(unit) && !Identifiers.keywords.contains(unit)
                    text += " " + (bare ? unit : StringLiteral.encode(unit))
                }
                wanted[.target] = text
            } else if unit != nil {
                throw .unitWithoutTarget(node.id)
            } else {
                wanted[.target] = .some(nil)
            }
        }
        switch changes.days {
        case .keep: break
        case .remove: wanted[.days] = .some(nil)
        case .set(let days): wanted[.days] = "on " + days.words.joined(separator: " ")
        }
        switch changes.perWeek {
        case .keep: break
        case .remove: wanted[.perWeek] = .some(nil)
        case .set(let count): wanted[.perWeek] = "\(count) per week"
        }
        switch changes.note {
        case .keep: break
        case .remove: wanted[.note] = .some(nil)
        case .set(let note): wanted[.note] = "note " + StringLiteral.encode(note)
        }
        let spans = attributeSpans(of: index)
        var edits: [TextEdit] = []
        for attribute in Attribute.allCases {
            guard let change = wanted[attribute] else { continue }
            if let span = spans[attribute] {
                edits.append(change.map { TextEdit(span, $0) } ?? removal(of: span))
            } else if let text = change {
                // After the attributes before it in fmt's order, or else after the title.
                let anchor = Attribute.allCases.prefix(attribute.rawValue).reversed().compactMap { spans[$0] }.first
                edits.append(TextEdit(Span(at: (anchor ?? node.titleSpan).upperBound), " " + text))
            }
        }
        return edits
    }
}
