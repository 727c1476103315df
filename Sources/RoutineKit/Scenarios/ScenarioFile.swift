/// A parsed `.rt.test` file: the routine it tests and its cases.
public struct ScenarioFile: Sendable {
    /// The routine named by a `routine FILE` line, relative to the test file; nil when the
    /// test file's own name says it (`morning.rt.test` tests `morning.rt`).
    public var routinePath: (path: String, span: Span)?
    public var cases: [Scenario] = []

    public init() {}
}

/// One named case: a day to run on, an optional history, and lines in order.
public struct Scenario: Sendable {
    public var name: String
    /// The `case NAME` line.
    public var span: Span
    public var date: CalendarDate?
    public var weekday: Weekdays?
    /// The export (JSON Lines) to load into the case's own history, relative to the test file.
    public var history: (path: String, span: Span)?
    public var steps: [ScenarioLine] = []

    /// The day the case runs on: its `date`, else its `weekday` in the week of 2024-01-01
    /// (a Monday), else that Monday; a case never depends on the day it is run.
    public var runDate: CalendarDate {
        if let date { return date }
        let offset = weekday.map { day in (0..<7).first { Weekdays.isoDay($0 + 1) == day } ?? 0 } ?? 0
        return CalendarDate(year: 2024, month: 1, day: 1 + offset)
    }
}

/// One line of a case after its setup.
public struct ScenarioLine: Sendable {
    public enum Kind: Sendable {
        /// `answer TEXT`: the person's answer to the question asked.
        case answer(String)
        /// `do d|s|b|q|VALUE`: what the person does at the current step.
        case act(ScenarioAction)
        /// `expect [next|eventually] EVENT`.
        case expect(TranscriptEvent, eventually: Bool)
        /// `expect ways N`: the routine's number of ways through.
        case ways(Int)
        /// `expect not-reached ID`: the node is neither asked nor recorded in the whole run.
        case notReached(String)
    }

    public var kind: Kind
    /// The whole line, without its comment.
    public var span: Span
    /// The node ID or option text the line names, for editors and diagnostics.
    public var argumentSpan: Span
}

/// What `do` does: the run's own vocabulary, as `run` reads it.
public enum ScenarioAction: Hashable, Sendable {
    case done, skip, back, quit
    case value(Double)

    /// The answer line the run engine reads.
    public var input: String {
        switch self {
        case .done: "d"
        case .skip: "s"
        case .back: "b"
        case .quit: "q"
        case .value(let value): NumberText.format(value)
        }
    }
}

/// One event of a case's transcript, as an `expect` line names it and as failures show it.
public enum TranscriptEvent: Hashable, Sendable {
    case habit(String, HabitResult)
    /// A habit passed over because a log or an earlier run had done it that day;
    /// `expect habit ID not-scheduled` without a reason matches it too.
    case passedOver(String, PassReason)
    /// A numeric habit done with this value.
    case value(String, Double)
    case question(String)
    /// The option chosen (its text); recorded in the transcript, not named by `expect`.
    case answer(String, option: String)
    case end(RunResult)

    /// The event in the test file's own words.
    public var text: String {
        switch self {
        case .habit(let id, let result): "habit \(id) \(result.rawValue)"
        case .passedOver(let id, let reason): "habit \(id) \(HabitResult.notScheduled.rawValue) \(reason.rawValue)"
        case .value(let id, let value): "value \(id) \(NumberText.format(value))"
        case .question(let id): "question \(id)"
        case .answer(_, let option): "answer \(ScenarioText.argument(option))"
        case .end(let result): "end \(result.rawValue)"
        }
    }

    /// Whether the event `actual` satisfies this expectation: a value expectation is met by
    /// the same value, and a habit expected done by a numeric habit done with any value.
    func matches(_ actual: TranscriptEvent) -> Bool {
        switch (self, actual) {
        case (.habit(let id, .done), .value(let other, _)): id == other
        case (.habit(let id, .notScheduled), .passedOver(let other, _)): id == other
        default: self == actual
        }
    }
}

/// How the test format writes free text.
public enum ScenarioText {
    /// `text` as it may follow a keyword: bare when it reads back the same, else quoted.
    public static func argument(_ text: String) -> String {
        let plain =
            !text.isEmpty && text.first != "\"" && !text.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" })
            && !text.hasPrefix(" ") && !text.hasSuffix(" ") && !text.contains(" #") && !text.hasPrefix("#")
            && !text.contains("  ") && !text.contains("\\") && !text.unicodeScalars.contains(where: Sanitizer.isUnsafe)
        return plain ? text : StringLiteral.encode(text)
    }
}

extension ScenarioFile {
    /// The routine a test file at `path` tests: its `routine` line (relative to the test
    /// file's folder), else its own name without `.test` (`morning.rt.test` tests
    /// `morning.rt`); nil when neither says.
    public func routinePath(forTestAt path: String) -> String? {
        if let written = routinePath?.path { return Self.resolve(written, besideTestAt: path) }
        guard path.hasSuffix(".test"), !path.hasSuffix("/.test"), path.count > 5 else { return nil }
        return String(path.dropLast(5))
    }

    /// `written`, a path in the test file at `testPath`, made relative to where `testPath` is.
    public static func resolve(_ written: String, besideTestAt testPath: String) -> String {
        guard !written.hasPrefix("/"), let slash = testPath.lastIndex(of: "/") else { return written }
        return String(testPath[...slash]) + written
    }
}
