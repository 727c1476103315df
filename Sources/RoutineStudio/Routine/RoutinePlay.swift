import RoutineKit

/// `POST /api/play`: the routine run with the run engine on today's date (or the one the page
/// chose, as `run --date`), with the answers the page gave so far, recording nothing. An
/// answer that no longer fits (the routine was edited under it) stops the replay there;
/// `used` says how many applied.
enum RoutinePlay {
    /// The body: `{"answers": [...], "date": "YYYY-MM-DD"?, "from": ID?}`; `from` starts the
    /// play at that card instead of the routine's start.
    struct Body: RequestBody {
        var answers: [String]
        var date: CalendarDate?
        var from: String?

        static let members: Set<String> = ["answers", "date", "from"]
        static let name = "a play"
        /// More than any routine could ask: a replay is bounded.
        static let maximumAnswers = 100_000

        init(_ members: BodyMembers) throws(StudioError) {
            answers = try members.strings("answers")
            if answers.count > Self.maximumAnswers { throw .malformed("'answers' holds at most \(Self.maximumAnswers) answers") }
            date = try members.optionalDate("date")
            from = try members.optionalString("from")
        }
    }

    /// Answers are `d` (done; a numeric habit counts its target), `v<AMOUNT>` (a numeric habit
    /// done with that amount), `s` (skip) and `o<N>` (answer N).
    static func play(_ loaded: LoadedRoutine, answers: [String], date: CalendarDate = .today(), from: String? = nil) throws(StudioError)
        -> [UInt8]
    {
        if let error = loaded.diagnostics.first(where: { $0.severity == .error }) {
            throw StudioError(
                .unprocessableContent, Diagnostic(.editRefused, "the routine cannot be played until its errors are fixed: \(error.message)", at: nil))
        }
        var routine = loaded.routine
        if let from {
            guard let index = routine.indexByID()[from] else { throw StudioError(.unprocessableContent, .unknownCard(from)) }
            routine.explicitStart = [Edge(.node(index), span: Span(at: 0))]
            routine.startSpan = Span(at: 0)
        }
        let nodes = routine.nodes
        var run = RoutineRun(routine: routine, date: date)
        var used = 0
        for answer in answers {
            guard let index = run.current else { break }
            let node = nodes[index]
            let decision: RunDecision
            if node.isQuestion, answer.hasPrefix("o"), let k = Int(answer.dropFirst()), (0..<node.options.count).contains(k) {
                decision = .option(k)
            } else if node.isHabit, answer == "d" {
                decision = .done(value: node.target?.amount)
            } else if node.isHabit, node.target != nil, answer.hasPrefix("v"), let amount = NumberText.parse(answer.dropFirst()),
                amount >= 0, amount <= TargetValue.maximum
            {
                decision = .done(value: amount)
            } else if node.isHabit, answer == "s" {
                decision = .skip
            } else {
                break
            }
            run.decide(decision)
            used += 1
        }
        let steps: [JSONValue] = run.records.map { record in
            let node = nodes[record.node]
            let outcome: String
            switch record.outcome {
            case .habit(.done, let value?):
                outcome =
                    "done: \(NumberText.format(value))"
                    + (node.target.map { " of \(NumberText.format($0.amount))" + ($0.unit.map { " \($0)" } ?? "") } ?? "")
            case .habit(.done, nil): outcome = "done"
            case .habit(.skipped, _): outcome = "skipped"
            case .habit(.notScheduled, _): outcome = "not scheduled on \(date.weekdayName)s"
            case .answer(let option): outcome = "“\(node.options[option].text)”"
            }
            return .object([("id", .string(node.id)), ("title", .string(node.title)), ("outcome", .string(outcome))])
        }
        var prompt = JSONValue.null
        if let index = run.current {
            let node = nodes[index]
            let choices: [JSONValue] =
                node.isQuestion
                ? node.options.enumerated().map { k, option in .object([("label", .string(option.text)), ("answer", .string("o\(k)"))]) }
                : [
                    .object([("label", .string("Done")), ("answer", .string("d"))]), .object([("label", .string("Skip")), ("answer", .string("s"))]),
                ]
            var members: [(String, JSONValue)] = [
                ("id", .string(node.id)), ("kind", .string(node.kind.rawValue)), ("title", .string(node.title)),
                ("note", node.note.map { .string($0) } ?? .null), ("choices", .array(choices)),
            ]
            // A numeric habit asks for its amount, as a run does: the target is offered.
            if node.isHabit, let target = node.target {
                members.append(("target", .number(target.amount)))
                members.append(("unit", target.unit.map { .string($0) } ?? .null))
            }
            prompt = .object(members)
        }
        var out = ByteWriter()
        JSONValue.object([
            ("date", .string(date.description)), ("weekday", .string(date.weekdayName)),
            ("used", .int(used)), ("steps", .array(steps)), ("prompt", prompt), ("finished", .bool(run.isFinished)),
        ]).write(to: &out)
        return out.bytes
    }
}
