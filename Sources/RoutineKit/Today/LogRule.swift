/// What a log outside a run asks to record: a habit done (with its value and time) or skipped.
public struct LogRequest: Sendable, Hashable {
    /// The node's ID as given.
    public var id: String
    public var skip: Bool
    public var value: Double?
    /// `--took`: how long it took, in seconds.
    public var seconds: Double?
    /// Records past the refusals that `force` may override.
    public var force: Bool

    public init(id: String, skip: Bool = false, value: Double? = nil, seconds: Double? = nil, force: Bool = false) {
        self.id = id
        self.skip = skip
        self.value = value
        self.seconds = seconds
        self.force = force
    }
}

/// Why a log is refused. Each has a stable code; ``isForceable`` says which `--force` overrides.
public enum LogRefusal: Error, Sendable, Hashable {
    case unknownNode(id: String, suggestion: String?)
    case question(id: String)
    case alreadyDone(id: String, title: String, date: CalendarDate, by: Completion)
    case alreadySkipped(id: String, title: String, date: CalendarDate, by: Completion)
    case notScheduled(id: String, title: String, date: CalendarDate, days: Weekdays)
    case quotaMet(id: String, title: String, quota: Int, done: Int)
    case valueNeeded(id: String, target: TargetValue)
    case valueNotExpected(id: String)
    case nothingToUndo(id: String, date: CalendarDate)
    /// An amended answer that names no option; `reason` as a run would say it.
    case notAnOption(id: String, answer: String, reason: String)
    /// An amendment to what the step already holds.
    case answerUnchanged(id: String, answer: String, date: CalendarDate)
    case questionNotAnswered(id: String, date: CalendarDate)

    /// Whether `--force` records anyway: a habit that exists, whatever the day says of it.
    public var isForceable: Bool {
        switch self {
        case .alreadyDone, .alreadySkipped, .notScheduled, .quotaMet: true
        default: false
        }
    }

    public var diagnostic: Diagnostic {
        switch self {
        case .unknownNode(let id, let suggestion): .unknownHabit(id, suggestion: suggestion)
        case .question(let id): .logOfQuestion(id)
        case .alreadyDone(let id, let title, let date, let by): .alreadyDone(id, title: title, date: date, by: by, skipped: false)
        case .alreadySkipped(let id, let title, let date, let by): .alreadyDone(id, title: title, date: date, by: by, skipped: true)
        case .notScheduled(let id, let title, let date, let days): .notScheduledThatDay(id, title: title, date: date, days: days)
        case .quotaMet(let id, let title, let quota, let done): .quotaMet(id, title: title, quota: quota, done: done)
        case .valueNeeded(let id, let target): .valueNeeded(id, target: target)
        case .valueNotExpected(let id): .valueNotExpected(id)
        case .nothingToUndo(let id, let date): .nothingToUndo(id, date: date)
        case .notAnOption(let id, let answer, let reason): .notAnOption(id, answer: answer, reason: reason)
        case .answerUnchanged(let id, let answer, let date): .answerUnchanged(id, answer: answer, date: date)
        case .questionNotAnswered(let id, let date): .questionNotAnswered(id, date: date)
        }
    }
}

extension DayRules {
    /// The node `id` names, or why it cannot be logged: unknown (with the closest ID), or a question.
    public func habit(_ id: String) -> Result<Int, LogRefusal> {
        guard let index = routine.indexByID()[id] else {
            let habits = (0..<routine.nodeCount).filter { !routine.isQuestion($0) }.map { routine.id(of: $0) }
            return .failure(.unknownNode(id: id, suggestion: closestMatch(to: id, among: habits)))
        }
        if routine.isQuestion(index) { return .failure(.question(id: id)) }
        return .success(index)
    }

    /// Whether `request` may be recorded on the facts' day: the habit's node, or the first
    /// refusal that applies (`force` passes over the ones it may override).
    public func mayLog(_ request: LogRequest) -> Result<Int, LogRefusal> {
        let index: Int
        switch habit(request.id) {
        case .success(let found): index = found
        case .failure(let refusal): return .failure(refusal)
        }
        let target = routine.target(of: index)
        if !request.skip {
            if let target, request.value == nil { return .failure(.valueNeeded(id: request.id, target: target)) }
            if target == nil, request.value != nil { return .failure(.valueNotExpected(id: request.id)) }
        }
        if request.force { return .success(index) }
        let title = routine.title(of: index)
        if let by = completion(of: index) { return .failure(.alreadyDone(id: request.id, title: title, date: facts.date, by: by)) }
        if request.skip, case .skipped(let by) = state(index) {
            return .failure(.alreadySkipped(id: request.id, title: title, date: facts.date, by: by))
        }
        if let days = routine.days(of: index), !days.contains(facts.date.weekday) {
            return .failure(.notScheduled(id: request.id, title: title, date: facts.date, days: days))
        }
        if let quota = routine.perWeek(of: index), isQuotaMet(index) {
            return .failure(.quotaMet(id: request.id, title: title, quota: quota, done: facts.doneEarlierThisWeek[index, default: 0]))
        }
        return .success(index)
    }
}

extension Routine {
    /// The option `text` names at question `index`, read exactly as a scripted answer line
    /// (`run --answers`) is: its number, its text or a prefix of it; else why not.
    public func option(_ text: String, of index: Int) -> Result<Int, LogRefusal> {
        let id = self.id(of: index)
        switch AnswerInterpreter.interpret(text, at: AskedNode(index, of: self)) {
        case .decision(.option(let k)): return .success(k)
        case .invalid(let reason): return .failure(.notAnOption(id: id, answer: text, reason: reason))
        default: return .failure(.notAnOption(id: id, answer: text, reason: "choose 1 to \(optionCount(of: index)), or an option's text"))
        }
    }
}
