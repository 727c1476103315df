import Foundation
import RoutineKit

/// `POST /api/play`: the routine run with the run engine on today's date, with the answers the
/// page gave so far, recording nothing. An answer that no longer fits (the routine was edited
/// under it) stops the replay there; `used` says how many applied.
enum StudioPlay {
    /// Answers are `d` (done; a numeric habit counts its target), `s` (skip) and `o<N>` (answer N).
    static func play(_ loaded: LoadedRoutine, answers: [String], date: CalendarDate = .today()) -> [UInt8] {
        if let error = loaded.diagnostics.first(where: { $0.severity == .error }) {
            return StudioState.refusal(Diagnostic(.editRefused, "the routine cannot be played until its errors are fixed: \(error.message)", at: nil), state: nil)
        }
        let routine = loaded.routine
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
            case .habit(.done, _): outcome = "done"
            case .habit(.skipped, _): outcome = "skipped"
            case .habit(.notScheduled, _): outcome = "not scheduled today"
            case .answer(let option): outcome = "“\(node.options[option].text)”"
            }
            return .object([("id", .string(node.id)), ("title", .string(node.title)), ("outcome", .string(outcome))])
        }
        var prompt = JSONValue.null
        if let index = run.current {
            let node = nodes[index]
            let choices: [JSONValue] = node.isQuestion
                ? node.options.enumerated().map { k, option in .object([("label", .string(option.text)), ("answer", .string("o\(k)"))]) }
                : [.object([("label", .string("Done")), ("answer", .string("d"))]), .object([("label", .string("Skip")), ("answer", .string("s"))])]
            prompt = .object([
                ("id", .string(node.id)), ("kind", .string(node.kind.rawValue)), ("title", .string(node.title)),
                ("note", node.note.map { .string($0) } ?? .null), ("choices", .array(choices)),
            ])
        }
        var out = ByteWriter()
        JSONValue.object([
            ("used", .int(used)), ("steps", .array(steps)), ("prompt", prompt), ("finished", .bool(run.isFinished)),
        ]).write(to: &out)
        return out.bytes
    }

    static func answers(from body: [UInt8]) -> [String]? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
            let answers = object["answers"] as? [Any], answers.count <= 100_000, answers.allSatisfy({ $0 is String })
        else { return nil }
        return answers.map { $0 as! String }
    }
}
