/// The rules for attribute values, shared by every reader so that `.rt` and YAML accept
/// and refuse exactly the same values with the same diagnostics.
enum AttributeValues {
    static func duration(_ text: Substring, span: Span) -> Result<Int, Diagnostic> {
        DurationText.parse(text).mapError { .invalidDuration(String(text), at: span, reason: $0.reason) }
    }

    static func targetAmount(_ text: Substring, span: Span) -> Result<Double, Diagnostic> {
        guard let value = NumberText.parse(text) else {
            let looksNumeric = text.first.map { $0.isNumber } ?? false
            let reason = looksNumeric && text.contains(where: { $0 == "e" || $0 == "E" })
                ? "exponents are not allowed" : "expected a number such as '8' or '2.5'"
            return .failure(.invalidNumber(String(text), at: span, reason: reason))
        }
        if value == 0 { return .failure(.invalidNumber(String(text), at: span, reason: "a target must be greater than zero")) }
        if value > TargetValue.maximum { return .failure(.invalidNumber(String(text), at: span, reason: "the number is too large")) }
        return .success(value)
    }

    /// Adds one schedule word to `days`, reporting unknown and repeated days.
    static func addDay(_ word: Substring, span: Span, to days: inout Weekdays, diagnostics: inout [Diagnostic]) {
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
