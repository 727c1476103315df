import Foundation
import RoutineKit

/// Runs as JSON Lines: what `log --json` prints and `history export` writes, one run per
/// line with its steps; `history import` reads it back without loss.
public enum HistoryJSON {
    public static func encode(_ run: StoredRun) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("date", .string(run.date)), ("routine", .string(run.routine)), ("result", .string(run.resultText)),
            ("reachedEnd", .bool(run.reachedEnd)), ("started", .string(run.startedAt.description)),
            ("ended", run.endedAt.map { .string($0.description) } ?? .null), ("utcOffset", .string(offsetText(run.utcOffset))),
            ("path", .string(run.path)), ("sourceHash", .string(run.sourceHash)),
        ]
        members.append(("steps", .array(run.steps.map(encode))))
        return .object(members)
    }

    static func encode(_ step: StoredStep) -> JSONValue {
        let d = step.decision
        var members: [(String, JSONValue)] = [
            ("step", .int(d.step)), ("node", .string(d.node)), ("kind", .string(d.kind.rawValue)), ("title", .string(step.title)),
            ("result", .string(d.result.rawValue)),
        ]
        if let value = d.value { members.append(("value", .number(value))) }
        if let target = step.target { members.append(("target", .number(target))) }
        if let unit = step.unit { members.append(("unit", .string(unit))) }
        if let option = d.option {
            members.append(("option", .string(d.optionText ?? "")))
            members.append(("index", .int(option + 1)))
        }
        members.append(("at", .string(step.decidedAt.description)))
        members.append(("seconds", step.seconds.map { .number(($0 * 1000).rounded() / 1000) } ?? .null))
        return .object(members)
    }

    /// Reads one line as `encode` writes it; the error says what is wrong with it.
    public static func decode(_ line: Substring) throws(ImportProblem) -> StoredRun {
        let run: RunLine
        do {
            run = try JSONDecoder().decode(RunLine.self, from: Data(line.utf8))
        } catch let error as DecodingError {
            throw ImportProblem(describe(error))
        } catch {
            throw ImportProblem("not JSON")
        }
        guard CalendarDate(run.date) != nil else { throw ImportProblem("'date' is not a date (YYYY-MM-DD): '\(run.date)'") }
        let result: RunResult?
        if run.result == "unfinished" {
            result = nil
        } else if let known = RunResult(rawValue: run.result) {
            result = known
        } else {
            throw ImportProblem("'result' is not completed, quit, incomplete, interrupted or unfinished: '\(run.result)'")
        }
        guard let offset = parseOffset(run.utcOffset) else { throw ImportProblem("'utcOffset' is not an offset such as +01:00") }
        var decoded = StoredRun(
            routine: run.routine, path: run.path, sourceHash: run.sourceHash, date: run.date,
            startedAt: try timestamp(run.started, "started"), utcOffset: offset,
            endedAt: try run.ended.map { (text: String) throws(ImportProblem) in try timestamp(text, "ended") }, result: result,
            reachedEnd: run.reachedEnd)
        for (k, step) in run.steps.enumerated() {
            guard step.step == k + 1 else { throw ImportProblem("the steps are not numbered 1, 2, 3 and so on") }
            decoded.steps.append(try decode(step))
        }
        return decoded
    }

    private static func decode(_ step: StepLine) throws(ImportProblem) -> StoredStep {
        let n = step.step
        guard let kind = RoutineNode.Kind(rawValue: step.kind) else { throw ImportProblem("step \(n): 'kind' is not habit or question") }
        guard let result = RecordedStep.Result(rawValue: step.result) else {
            throw ImportProblem("step \(n): 'result' is not done, skipped, not-scheduled or answered: '\(step.result)'")
        }
        guard (kind == .question) == (result == .answered) else {
            throw ImportProblem("step \(n): a \(kind.rawValue) cannot have the result '\(step.result)'")
        }
        var option: Int?
        if result == .answered {
            guard let index = step.index, index >= 1, step.option != nil else {
                throw ImportProblem("step \(n): an answer needs 'option' and 'index' (counted from 1)")
            }
            option = index - 1
        }
        return StoredStep(
            decision: RecordedStep(
                step: n, node: step.node, kind: kind, result: result, value: step.value, option: option,
                optionText: result == .answered ? step.option : nil),
            title: step.title, target: step.target, unit: step.unit, decidedAt: try timestamp(step.at, "step \(n): 'at'"),
            seconds: step.seconds)
    }

    private static func timestamp(_ text: String, _ what: String) throws(ImportProblem) -> Timestamp {
        guard let value = Timestamp(text) else { throw ImportProblem("\(what) is not a UTC time such as 2026-11-23T06:12:03.120Z") }
        return value
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, _ key: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (key.map { [$0] } ?? [])
            let step = keys.last { $0.intValue != nil }.flatMap(\.intValue).map { "step \($0 + 1): " } ?? ""
            guard let name = keys.last(where: { $0.intValue == nil }) else { return "the line" }
            if !step.isEmpty, name.stringValue == "steps" { return step + "the step" }
            return step + "'" + name.stringValue + "'"
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context, key)) is missing"
        case .typeMismatch(let type, let context): return "\(path(context)) must be \(kind(type))"
        case .valueNotFound(let type, let context): return "\(path(context)) must be \(kind(type)), not null"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "not JSON" : "\(path(context)) is not valid"
        @unknown default: return "not a run as 'history export' writes it"
        }
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is [StepLine].Type, is [Any].Type: "a list"
        default: "an object"
        }
    }

    private struct RunLine: Decodable {
        var date, routine, result, started, utcOffset, path, sourceHash: String
        var ended: String?
        var reachedEnd: Bool
        var steps: [StepLine]
    }

    private struct StepLine: Decodable {
        var step: Int
        var node, kind, title, result, at: String
        var value, target, seconds: Double?
        var unit, option: String?
        var index: Int?
    }
}

/// What is wrong with one line of an import.
public struct ImportProblem: Error, Hashable, Sendable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}
