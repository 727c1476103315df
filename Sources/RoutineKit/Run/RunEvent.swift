/// How a run ended.
public enum RunResult: String, Sendable {
    /// The agenda emptied or `end` was reached.
    case completed
    /// The person quit (`q`, or end of input at a terminal).
    case quit
    /// Scripted answers ran out before the routine ended.
    case incomplete
    /// Ctrl-C.
    case interrupted
}

/// Everything a run reports, in order; the terminal view and `--json` both render these.
public enum RunEvent: Sendable {
    case start
    /// The node at `step` is waiting for an answer; `again` when it was just asked and the
    /// answer was refused (or help was shown), so a screen need only repeat the input line.
    case prompt(node: Int, step: Int, again: Bool)
    case record(RunRecord)
    /// The decision about `node` was undone; it is asked again.
    case back(node: Int)
    case invalid(node: Int, input: String, message: String)
    case help(node: Int)
    /// The run would finish here; a person may still go back (interactive runs only).
    case confirmEnd
    case end(RunResult)
}

/// The totals shown when a run ends.
public struct RunSummary: Sendable {
    public var done = 0
    public var skipped = 0
    public var notScheduled = 0
    public var answered = 0
    /// Numeric habits' values, in run order.
    public var values: [(node: Int, value: Double)] = []
    /// The durations of the habits done, in seconds.
    public var plannedSeconds = 0

    public init(_ run: RoutineRun) {
        for record in run.records {
            switch record.outcome {
            case .answer: answered += 1
            case .habit(.done, let value):
                done += 1
                plannedSeconds += run.routine.duration(of: record.node) ?? 0
                if let value { values.append((record.node, value)) }
            case .habit(.skipped, _): skipped += 1
            case .habit(.notScheduled, _): notScheduled += 1
            }
        }
    }
}

extension RunEvent {
    /// The event as one JSON Lines object, or nil for events only a terminal shows.
    /// `elapsed`: the time the run took, for `end`; nil (JSON null) when it was not measured.
    public func json(_ run: RoutineRun, elapsed: Double? = nil) -> JSONValue? {
        switch self {
        case .start:
            return .object([
                ("event", .string("start")), ("routine", .string(run.routine.name)), ("date", .string(run.date.description)),
                ("weekday", .string(run.date.weekdayName.lowercased())),
            ])
        case .prompt, .help, .confirmEnd:
            return nil
        case .record(let record):
            let routine = run.routine
            let node = record.node
            switch record.outcome {
            case .habit(let result, let value):
                var members: [(String, JSONValue)] = [
                    ("event", .string("habit")), ("step", .int(record.step)), ("node", .string(routine.id(of: node))),
                    ("title", .string(routine.title(of: node))), ("result", .string(result.rawValue)),
                ]
                if let value { members.append(("value", .number(value))) }
                if let target = routine.target(of: node) {
                    members.append(("target", .number(target.amount)))
                    if let unit = target.unit { members.append(("unit", .string(unit))) }
                }
                if let seconds = routine.duration(of: node) { members.append(("seconds", .int(seconds))) }
                return .object(members)
            case .answer(let k):
                return .object([
                    ("event", .string("answer")), ("step", .int(record.step)), ("node", .string(routine.id(of: node))),
                    ("prompt", .string(routine.title(of: node))), ("option", .string(routine.answer(k, of: node))),
                    ("index", .int(k + 1)),
                ])
            }
        case .back(let node):
            return .object([("event", .string("back")), ("node", .string(run.routine.id(of: node))), ("step", .int(run.step))])
        case .invalid(let node, let input, let message):
            return .object([
                ("event", .string("invalid")), ("node", .string(run.routine.id(of: node))), ("input", .string(input)),
                ("message", .string(message)),
            ])
        case .end(let result):
            let summary = RunSummary(run)
            var members: [(String, JSONValue)] = [
                ("event", .string("end")), ("result", .string(result.rawValue)), ("reachedEnd", .bool(run.reachedEnd)),
                ("done", .int(summary.done)), ("skipped", .int(summary.skipped)),
                ("notScheduled", .int(summary.notScheduled)), ("plannedSeconds", .int(summary.plannedSeconds)),
            ]
            members.append(("elapsedSeconds", elapsed.map { .number(($0 * 1000).rounded() / 1000) } ?? .null))
            return .object(members)
        }
    }
}
