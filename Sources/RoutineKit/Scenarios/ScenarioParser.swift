/// Reads a `.rt.test` file. It recovers at every line: a line with a mistake is reported and
/// left out, and the lines after it are read as usual, so one typo costs one diagnostic.
public enum ScenarioParser {
    public static func parse(_ file: SourceFile) -> (file: ScenarioFile, diagnostics: [Diagnostic]) {
        let (tokens, lexed) = ScenarioLexer.tokens(file.bytes)
        var state = State(bytes: file.bytes)
        state.diagnostics.append(contentsOf: lexed)
        var line: [ScenarioToken] = []
        for token in tokens {
            if token.kind == .newline {
                state.read(line)
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(token)
            }
        }
        state.read(line)
        state.finishCase()
        if state.file.cases.isEmpty, !state.diagnostics.hasErrors {
            state.diagnostics.append(.noTestCases(at: Span(at: 0)))
        }
        return (state.file, state.diagnostics.finished())
    }

    /// The words that start a line, for messages and completion.
    public static let keywords = ["routine", "case", "date", "weekday", "history", "answer", "do", "expect"]
    /// The words after `expect` (after `next` or `eventually` as well, but for the last two).
    public static let expectations = ["next", "eventually", "habit", "question", "value", "end", "ways", "not-reached"]

    private struct State {
        let bytes: [UInt8]
        var file = ScenarioFile()
        var current: Scenario?
        var names: [String: Span] = [:]
        var diagnostics = DiagnosticList()

        mutating func finishCase() {
            if let current { file.cases.append(current) }
            current = nil
        }

        /// The source text from the first token to the last, as written; a single quoted
        /// string is its decoded value.
        func text(_ tokens: ArraySlice<ScenarioToken>) -> String {
            if tokens.count == 1, let only = tokens.first, only.kind == .string { return only.value }
            guard let first = tokens.first, let last = tokens.last else { return "" }
            return String(decoding: bytes[first.span.lowerBound..<last.span.upperBound], as: UTF8.self)
        }

        mutating func read(_ line: [ScenarioToken]) {
            guard let first = line.first else { return }
            let span = first.span.union(line.last!.span)
            let rest = line.dropFirst()
            guard first.kind == .word else {
                return diagnostics.append(.unknownTestLine(first.value, at: first.span))
            }
            switch first.value {
            case "routine":
                guard file.cases.isEmpty, current == nil else {
                    return diagnostics.append(.misplacedTestLine("routine", at: first.span, inCase: true))
                }
                guard !rest.isEmpty else {
                    return diagnostics.append(.missingTestArgument("routine", "a routine file, such as 'routine morning.rt'", at: span))
                }
                if let earlier = file.routinePath { return diagnostics.append(.duplicateTestLine("routine", at: span, first: earlier.span)) }
                file.routinePath = (text(rest), span)
            case "case":
                finishCase()
                guard !rest.isEmpty else {
                    return diagnostics.append(.missingTestArgument("case", "a name, such as 'case tired on a monday'", at: span))
                }
                let name = text(rest)
                if let earlier = names[name] { diagnostics.append(.duplicateTestLine("case '\(name)'", at: span, first: earlier)) }
                names[name] = span
                current = Scenario(name: name, span: span)
            default:
                guard current != nil else {
                    if ScenarioParser.keywords.contains(first.value) {
                        return diagnostics.append(.misplacedTestLine(first.value, at: first.span, inCase: false))
                    }
                    return diagnostics.append(.unknownTestLine(first.value, at: first.span))
                }
                readCaseLine(first, rest, span: span)
            }
        }

        private mutating func readCaseLine(_ first: ScenarioToken, _ rest: ArraySlice<ScenarioToken>, span: Span) {
            let argument = rest.first.map { $0.span.union(rest.last!.span) } ?? Span(at: span.upperBound)
            func step(_ kind: ScenarioLine.Kind, _ argumentSpan: Span = argument) {
                current!.steps.append(ScenarioLine(kind: kind, span: span, argumentSpan: argumentSpan))
            }
            switch first.value {
            case "date", "weekday", "history":
                guard current!.steps.isEmpty else { return diagnostics.append(.setupAfterSteps(first.value, at: first.span)) }
                readSetup(first.value, rest, span: span)
            case "answer":
                guard !rest.isEmpty else {
                    return diagnostics.append(.missingTestArgument("answer", "an option's text or number, such as 'answer Great!'", at: span))
                }
                step(.answer(text(rest)))
            case "do":
                guard let word = single(rest, "do", "d, s, b, q or a value, such as 'do 8'", span: span) else { return }
                guard let action = Self.action(word.value) else {
                    return diagnostics.append(
                        .invalidTestArgument(word.value, "d (done), s (skip), b (back), q (quit) or a habit's value", at: word.span))
                }
                step(.act(action))
            case "expect":
                readExpect(rest, span: span)
            default:
                diagnostics.append(.unknownTestLine(first.value, at: first.span))
            }
        }

        private mutating func readSetup(_ keyword: String, _ rest: ArraySlice<ScenarioToken>, span: Span) {
            switch keyword {
            case "date":
                guard let word = single(rest, "date", "a date, such as 'date 2026-11-23'", span: span) else { return }
                guard let date = CalendarDate(word.value) else {
                    return diagnostics.append(.invalidTestArgument(word.value, "a date written YYYY-MM-DD, such as 2026-11-23", at: word.span))
                }
                if current!.date != nil || current!.weekday != nil { return diagnostics.append(.duplicateTestLine("day", at: span, first: nil)) }
                current!.date = date
            case "weekday":
                guard let word = single(rest, "weekday", "a day, such as 'weekday mon'", span: span) else { return }
                guard let index = Weekdays.dayNames.firstIndex(of: word.value.lowercased()) else {
                    return diagnostics.append(.invalidTestArgument(word.value, "a day: mon, tue, wed, thu, fri, sat or sun", at: word.span))
                }
                if current!.date != nil || current!.weekday != nil { return diagnostics.append(.duplicateTestLine("day", at: span, first: nil)) }
                current!.weekday = .isoDay(index + 1)
            default:
                guard !rest.isEmpty else {
                    return diagnostics.append(.missingTestArgument("history", "an export, such as 'history week.jsonl'", at: span))
                }
                if let earlier = current!.history { return diagnostics.append(.duplicateTestLine("history", at: span, first: earlier.span)) }
                current!.history = (text(rest), span)
            }
        }

        private mutating func readExpect(_ words: ArraySlice<ScenarioToken>, span: Span) {
            var rest = words
            var eventually = false
            var strictness: String?
            if let word = rest.first, word.value == "next" || word.value == "eventually" {
                eventually = word.value == "eventually"
                strictness = word.value
                rest = rest.dropFirst()
            }
            guard let kind = rest.first, kind.kind == .word, ScenarioParser.expectations.contains(kind.value), kind.value != "next",
                kind.value != "eventually"
            else {
                let what = "habit, question, value, end, ways or not-reached"
                guard let word = rest.first else { return diagnostics.append(.missingTestArgument("expect", what, at: span)) }
                return diagnostics.append(.invalidTestArgument(word.value, what, at: word.span))
            }
            let arguments = rest.dropFirst()
            let argument = arguments.first.map { $0.span.union(arguments.last!.span) } ?? Span(at: span.upperBound)
            func add(_ step: ScenarioLine.Kind, _ at: Span = argument) {
                current!.steps.append(ScenarioLine(kind: step, span: span, argumentSpan: at))
            }
            switch kind.value {
            case "habit":
                // `not-scheduled` may say why: a log or an earlier run had done the habit.
                var words = arguments
                var reason: PassReason?
                if words.count == 3, words[words.startIndex + 1].value == HabitResult.notScheduled.rawValue, let last = words.last {
                    guard let named = PassReason(rawValue: last.value) else {
                        return diagnostics.append(.invalidTestArgument(last.value, "done-by-log or done-by-run", at: last.span))
                    }
                    reason = named
                    words = words.dropLast()
                }
                guard let (id, result) = pair(words, "habit", span: span) else { return }
                guard let outcome = HabitResult(rawValue: result.value) else {
                    return diagnostics.append(.invalidTestArgument(result.value, "done, skipped or not-scheduled", at: result.span))
                }
                add(.expect(reason.map { .passedOver(id.value, $0) } ?? .habit(id.value, outcome), eventually: eventually), id.span)
            case "value":
                guard let (id, number) = pair(arguments, "value", span: span) else { return }
                guard let value = NumberText.parse(Substring(number.value)) else {
                    return diagnostics.append(.invalidTestArgument(number.value, "a number, such as 30 or 2.5", at: number.span))
                }
                add(.expect(.value(id.value, value), eventually: eventually), id.span)
            case "question":
                guard let id = single(arguments, "expect question", "a question's ID", span: span) else { return }
                add(.expect(.question(id.value), eventually: eventually), id.span)
            case "end":
                guard let word = single(arguments, "expect end", "completed or quit", span: span) else { return }
                guard let result = RunResult(rawValue: word.value), result == .completed || result == .quit else {
                    return diagnostics.append(.invalidTestArgument(word.value, "completed or quit", at: word.span))
                }
                add(.expect(.end(result), eventually: eventually))
            case "ways":
                if let strictness { return diagnostics.append(.strictnessNotApplicable(strictness, "ways", at: span)) }
                guard let word = single(arguments, "expect ways", "a number, such as 'expect ways 4'", span: span) else { return }
                guard let count = Int(word.value), count >= 0 else {
                    return diagnostics.append(.invalidTestArgument(word.value, "a whole number, such as 4", at: word.span))
                }
                add(.ways(count))
            default:
                if let strictness { return diagnostics.append(.strictnessNotApplicable(strictness, "not-reached", at: span)) }
                guard let id = single(arguments, "expect not-reached", "a node's ID", span: span) else { return }
                add(.notReached(id.value), id.span)
            }
        }

        /// The one word after a keyword; reports a missing word or extra words.
        private mutating func single(_ words: ArraySlice<ScenarioToken>, _ keyword: String, _ what: String, span: Span) -> ScenarioToken? {
            guard let word = words.first else {
                diagnostics.append(.missingTestArgument(keyword, what, at: span))
                return nil
            }
            if words.count > 1 {
                let extra = words[words.startIndex + 1].span.union(words.last!.span)
                diagnostics.append(.extraTestWords(after: keyword, at: extra))
                return nil
            }
            return word
        }

        private mutating func pair(_ words: ArraySlice<ScenarioToken>, _ keyword: String, span: Span) -> (ScenarioToken, ScenarioToken)? {
            let shape =
                keyword == "habit" ? "an ID and a result, such as 'expect habit water done'" : "an ID and a number, such as 'expect value pushups 30'"
            guard words.count >= 2 else {
                diagnostics.append(.missingTestArgument("expect \(keyword)", shape, at: span))
                return nil
            }
            if words.count > 2 {
                diagnostics.append(.extraTestWords(after: "expect \(keyword)", at: words[words.startIndex + 2].span.union(words.last!.span)))
                return nil
            }
            return (words[words.startIndex], words[words.startIndex + 1])
        }

        static func action(_ word: String) -> ScenarioAction? {
            switch word.lowercased() {
            case "d", "done": .done
            case "s", "skip": .skip
            case "b", "back": .back
            case "q", "quit": .quit
            default: NumberText.parse(Substring(word)).flatMap { $0 <= TargetValue.maximum ? .value($0) : nil }
            }
        }
    }
}
