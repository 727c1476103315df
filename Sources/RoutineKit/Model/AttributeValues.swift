/// The rules for attribute values, shared by every reader so that `.rt` and YAML accept
/// and refuse exactly the same values with the same diagnostics.
enum AttributeValues {
    static func duration(_ text: Substring, span: Span) -> Result<Int, Diagnostic> {
        DurationText.parse(text).mapError { failure in
            // `1h30`: the last unit left out, read as the next smaller one.
            if failure == .malformed, let last = text.last, last.isASCII, last.isNumber,
                let unit = text.last(where: { $0 == "h" || $0 == "m" }), case .success = DurationText.parse(text + (unit == "h" ? "m" : "s"))
            {
                var diagnostic = Diagnostic.invalidDuration(String(text), at: span, reason: "the last number has no unit")
                let replacement = String(text) + (unit == "h" ? "m" : "s")
                diagnostic.fixIt = FixIt("write '\(replacement)'", replacing: span, with: replacement)
                return diagnostic
            }
            guard failure == .malformed, let (number, word) = numberAndWord(text) else {
                return .invalidDuration(String(text), at: span, reason: failure.reason)
            }
            // `5min`: the unit spelled out, as `for 5 min` is.
            if let letter = DurationText.unitLetter(for: word), number.allSatisfy(\.isNumber) {
                return .spelledOutDuration(String(text), at: span, replacement: String(number) + letter)
            }
            // `1.5m`: a fraction of a unit, which is a whole number of a smaller one.
            if word.count == 1, let letter = DurationText.unitLetter(for: word), let value = NumberText.parse(number) {
                let seconds = value * (letter == "h" ? 3600 : letter == "m" ? 60 : 1)
                if seconds == seconds.rounded(), seconds >= 1, seconds <= Double(DurationText.maximumSeconds) {
                    return .fractionalDuration(String(text), at: span, replacement: DurationText.format(Int(seconds)))
                }
                return .invalidDuration(String(text), at: span, reason: "durations are whole numbers of hours, minutes and seconds")
            }
            return .invalidDuration(String(text), at: span, reason: failure.reason)
        }
    }

    /// `form` says how the advice is worded: a unit goes after the number in `.rt`, under its
    /// own key in YAML.
    /// `atMost`: a limit, which may be 0 ("no smoking": `target at most 0`); a goal may not.
    static func targetAmount(_ text: Substring, span: Span, form: SourceFormat = .rt, atMost: Bool = false) -> Result<Double, Diagnostic> {
        guard let value = NumberText.parse(text) else {
            if let (number, unit) = numberAndWord(text), !isExponent(unit) {
                return .failure(
                    form == .rt
                        ? .unitGluedToTarget(String(text), number: String(number), unit: String(unit), at: span)
                        : .unitInYAMLTarget(String(text), number: String(number), unit: String(unit), at: span))
            }
            let looksNumeric = text.first.map { $0.isNumber } ?? false
            let reason =
                looksNumeric && text.contains(where: { $0 == "e" || $0 == "E" })
                ? "exponents are not allowed" : "expected a number such as '8' or '2.5'"
            return .failure(.invalidNumber(String(text), at: span, reason: reason))
        }
        if value == 0, !atMost {
            // Only a goal: a limit of 0 ("no smoking") is a target a day can meet.
            let limit = form == .rt ? "'target at most 0'" : "'at-most: 0'"
            return .failure(.invalidNumber(String(text), at: span, reason: "a goal must be greater than zero (for none at all, write \(limit))"))
        }
        if value > TargetValue.maximum { return .failure(.invalidNumber(String(text), at: span, reason: "the number is too large")) }
        return .success(value)
    }

    /// `20reps`, `20 reps`, `1.5m`: a number (digits and at most one point) and then a word
    /// of letters, with or without spaces between; nil for anything else.
    static func numberAndWord(_ text: Substring) -> (Substring, Substring)? {
        let number = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let word = text.dropFirst(number.count).drop { $0 == " " || $0 == "\t" }
        guard NumberText.parse(number) != nil, let first = word.first, first.isLetter,
            word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
        else { return nil }
        return (number, word)
    }

    private static func isExponent(_ word: Substring) -> Bool {
        guard let first = word.first, first == "e" || first == "E" else { return false }
        let rest = word.dropFirst().drop { $0 == "+" || $0 == "-" }
        return !rest.isEmpty && rest.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Adds one schedule word to `days`, reporting unknown and repeated days.
    static func addDay(_ word: Substring, span: Span, to days: inout Weekdays, diagnostics: inout DiagnosticList) {
        guard let set = Weekdays.named(word) else {
            diagnostics.append(.unknownDay(String(word), at: span))
            return
        }
        if days.isSuperset(of: set) {
            diagnostics.append(.duplicateDay(String(word), at: span))
        }
        days.formUnion(set)
    }
}
