/// The catalogue, continued: mistakes read as meant, each said once with its fix.
extension Diagnostic {
    /// `0 per week`, `9 per week`: a quota a week cannot hold.
    static func perWeekOutOfRange(_ text: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .invalidNumber, "invalid quota '\(text) per week': a habit can be due 1 to 7 times a week", at: span,
            notes: [Note("for a habit due every day, leave the quota out")])
    }

    /// `3 per` without `week`, or a number where an attribute belongs.
    static func expectedPerWeek(after number: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .expectedToken, "expected 'per week' after '\(number)', as in '\(number) per week'", at: span,
            fixIt: FixIt("write the quota in full", replacing: span, with: "\(number) per week"))
    }

    /// `target at 2`: the limit's words cut short.
    static func expectedAtMost(at span: Span) -> Diagnostic {
        Diagnostic(
            .expectedMost, "expected 'most' after 'target at', as in 'target at most 2'", at: span,
            fixIt: FixIt("write 'at most'", replacing: span, with: "at most"))
    }

    static func unquotedOption(_ text: String, at span: Span) -> Diagnostic {
        let quoted = StringLiteral.encode(text)
        return Diagnostic(
            .expectedToken, "an option's text goes in double quotes", at: span, label: "read as the option \(quoted)",
            fixIt: FixIt("write \(quoted)", replacing: span, with: quoted))
    }

    static func commasBetweenDays(at comma: Span, list: Span, replacement: String) -> Diagnostic {
        Diagnostic(
            .unknownDay, "days are separated by spaces, not commas", at: comma,
            fixIt: FixIt("write 'on \(replacement)'", replacing: list, with: replacement))
    }

    static func daysOnNextLine(at keyword: Span, days: Span, replacement: String, replacing span: Span) -> Diagnostic {
        Diagnostic(
            .unknownDay, "the days go on the same line as 'on'", at: keyword, label: "its days are on the next line",
            secondary: [Label(days, "read as the days of 'on'")],
            fixIt: FixIt("write 'on\(replacement)'", replacing: span, with: replacement))
    }

    /// Option texts that are numbers, not each its own position: a typed number picks by
    /// position, so `1` would pick the option written "0".
    static func numberedOptions(_ id: String, typed: Int, picks: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .misleadingNumbers,
            "the options of question '\(id)' are numbers in another order: typing '\(typed)' picks the option \(StringLiteral.encode(picks))",
            at: span,
            notes: [Note("in a run a number picks the option at that position; write the options in their numbers' order, or give them words")])
    }

    /// Words that make an option read like a day off: kept few, so the note is rare and right.
    static let dayOffWords = ["sick", "ill", "unwell", "holiday", "vacation", "day off"]

    /// Whether an option's text reads like a sick day or a holiday.
    static func readsLikeDayOff(_ text: String) -> Bool {
        let lowered = text.lowercased()
        let words = lowered.split(whereSeparator: { !$0.isLetter }).map(String.init)
        return dayOffWords.contains { $0.contains(" ") ? lowered.contains($0) : words.contains($0) }
    }

    static func dayOffOption(_ text: String, question id: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .dayOffOption, "option \(StringLiteral.encode(text)) of question '\(id)' only leads to 'end'", at: span,
            notes: [
                Note(
                    "for a sick day or a holiday, 'routine off FILE DATE' records a day off: every habit is then not due, and no day counts as unknown"
                )
            ])
    }

    static func looksLikeYAML(at span: Span) -> Diagnostic {
        Diagnostic(
            .looksLikeYAML, "this looks like YAML: use --input-format yaml or a .yaml name", at: span,
            notes: [Note("a routine in the .rt language starts with 'routine \"NAME\"'")])
    }

    static func commaString(_ key: String, text: String, at span: Span, list: String) -> Diagnostic {
        Diagnostic(
            .wrongType, "'\(key): \(text)' is one string: write a list", at: span,
            fixIt: FixIt("write '\(key): \(list)'", replacing: span, with: list))
    }

    static func emptyOptions(_ id: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .questionWithoutOptions, "the options of question '\(id)' are an empty list", at: span,
            notes: [Note("list at least two answers, each as '- answer: Yes' with its 'next:'")])
    }

    static func wideEncoding(_ encoding: String, iconvName: String) -> Diagnostic {
        Diagnostic(
            .invalidUTF8, "input is not UTF-8: it looks like \(encoding)", at: nil,
            notes: [Note("save the file as UTF-8, for example with 'iconv -f \(iconvName) -t UTF-8'")])
    }
}
