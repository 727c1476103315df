import FoundationEssentials
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

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
        // Written only when they are not what every older export meant: a run, never amended.
        if run.kind != .run { members.append(("kind", .string(run.kind.rawValue))) }
        members.append(("steps", .array(run.steps.map(encode))))
        if !run.amendments.isEmpty { members.append(("amendments", .array(run.amendments.map(encode)))) }
        return .object(members)
    }

    static func encode(_ amendment: Amendment) -> JSONValue {
        var members: [(String, JSONValue)] = [("step", .int(amendment.step)), ("at", .string(amendment.madeAt.description))]
        if let before = amendment.before {
            var was: [(String, JSONValue)] = [("result", .string(before.result.rawValue))]
            if let value = before.value { was.append(("value", .number(value))) }
            // An answer's, as a step writes it.
            if let option = before.option {
                was.append(("option", .string(before.optionText ?? "")))
                was.append(("index", .int(option + 1)))
            }
            if let seconds = before.seconds { was.append(("seconds", .number((seconds * 1000).rounded() / 1000))) }
            members.append(("before", .object(was)))
        } else {
            members.append(("added", .bool(true)))
        }
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
        if let reason = step.reason { members.append(("reason", .string(reason.rawValue))) }
        return .object(members)
    }

    /// Reads one line as `encode` writes it; the error says what is wrong with it. Every
    /// value is checked by the rules the runner records by (``RecordedValues``), dates and
    /// times must be in exactly the form `encode` writes, and no text may hold a NUL.
    public static func decode(_ line: some Collection<UInt8>) throws(ImportProblem) -> StoredRun {
        try decodeTelling(line).run
    }

    /// ``decode(_:)``, and whether the line is exactly what ``encode(_:)`` writes for the run.
    static func decodeTelling(_ line: some Collection<UInt8>) throws(ImportProblem) -> (run: StoredRun, isCanonical: Bool) {
        if let run = decodeCanonical(line) { return (run, true) }
        let run: RunLine
        do {
            run = try JSONDecoder().decode(RunLine.self, from: Data(line))
        } catch let error as DecodingError {
            throw ImportProblem(describe(error))
        } catch {
            throw ImportProblem("not JSON")
        }
        return (try validated(run), false)
    }

    /// The run of a line exactly as `encode` writes it, which every line of an export and of a
    /// sync journal is, read without `Codable` (a tenth of the cost); nil for any other line,
    /// which ``decode(_:)`` reads, checks and explains through `JSONDecoder`. The checks are
    /// the same: only the reading of the JSON differs, and a line is taken here only when
    /// writing back the run gives its bytes.
    static func decodeCanonical(_ line: some Collection<UInt8>) -> StoredRun? {
        let bytes = Array(line)
        // Member by member where the line allows it (no escapes), else through a tree of values.
        let read = bytes.withUnsafeBufferPointer { CanonicalReader.run($0) }
        guard let fields = read ?? (try? JSONParser.parse(bytes)).flatMap { RunLine($0) }, let run = try? validated(fields),
            sameBytes(encode(run).text, bytes)
        else { return nil }
        return run
    }

    /// Whether `text` is `bytes` in UTF-8, compared in one pass over memory.
    static func sameBytes(_ text: String, _ bytes: some Collection<UInt8>) -> Bool {
        var text = text
        return text.withUTF8 { written in
            bytes.withContiguousStorageIfAvailable { read in
                written.count == read.count && (read.isEmpty || memcmp(written.baseAddress!, read.baseAddress!, read.count) == 0)
            } ?? written.elementsEqual(bytes)
        }
    }

    private static func validated(_ run: RunLine) throws(ImportProblem) -> StoredRun {
        switch CalendarDate.checked(run.date) {
        case .success: break
        case .failure(let problem): throw ImportProblem("'date' '\(run.date)' \(problem.reason)")
        }
        for (name, text) in [("routine", run.routine), ("path", run.path), ("sourceHash", run.sourceHash)] {
            if let problem = RecordedValues.textProblem(text) { throw ImportProblem("'\(name)' \(problem)") }
        }
        let result: RunResult?
        if run.result == "unfinished" {
            result = nil
        } else if let known = RunResult(rawValue: run.result) {
            result = known
        } else {
            throw ImportProblem("'result' is not completed, quit, incomplete, interrupted or unfinished: '\(run.result)'")
        }
        guard let offset = parseOffset(run.utcOffset), offsetText(offset) == run.utcOffset else {
            throw ImportProblem("'utcOffset' is not an offset such as +01:00")
        }
        var decoded = StoredRun(
            routine: run.routine, path: run.path, sourceHash: run.sourceHash, date: run.date,
            startedAt: try timestamp(run.started, "'started'"), utcOffset: offset,
            endedAt: try run.ended.map { (text: String) throws(ImportProblem) in try timestamp(text, "'ended'") }, result: result,
            reachedEnd: run.reachedEnd)
        switch run.kind {
        case nil, "run": break
        case "log":
            guard run.steps.count == 1, run.steps[0].kind == "habit" else { throw ImportProblem("a log has exactly one step, of a habit") }
            decoded.kind = .log
        case let other?: throw ImportProblem("'kind' is not run or log: '\(other)'")
        }
        for (k, step) in run.steps.enumerated() {
            let n = try whole(step.step, "step \(k + 1): 'step'")
            guard n == k + 1 else { throw ImportProblem("the steps are not numbered 1, 2, 3 and so on") }
            decoded.steps.append(try decode(step, n))
        }
        for amendment in run.amendments ?? [] { decoded.amendments.append(try decode(amendment, steps: decoded.steps)) }
        return decoded
    }

    private static func decode(_ line: AmendmentLine, steps: [StoredStep]) throws(ImportProblem) -> Amendment {
        guard line.step >= 1, line.step <= steps.count else {
            throw ImportProblem("an amendment names step \(line.step), which the run does not have")
        }
        let at = try timestamp(line.at, "an amendment's 'at'")
        if line.added == true {
            guard line.before == nil else { throw ImportProblem("an amendment that added its step has no 'before'") }
            return Amendment(step: line.step, madeAt: at, added: true, before: nil)
        }
        guard let before = line.before else { throw ImportProblem("an amendment needs 'before' (or 'added': true)") }
        guard let result = RecordedStep.Result(rawValue: before.result) else {
            throw ImportProblem("an amendment's 'before.result' is not done, skipped, not-scheduled or answered: '\(before.result)'")
        }
        // An answer changed before was a question's; a habit's result, a habit's.
        if (result == .answered) != (steps[line.step - 1].decision.kind == .question) {
            throw ImportProblem(
                "an amendment of step \(line.step) holds a '\(before.result)' before, which a \(steps[line.step - 1].decision.kind.rawValue) cannot")
        }
        if result == .answered {
            guard let index = before.index, index >= 1, index <= Double(Int16.max), index.rounded() == index, let text = before.option,
                before.value == nil
            else {
                throw ImportProblem("an amendment of an answer needs 'option' and its 'index' (1, 2, 3...) before, and no 'value'")
            }
            if let problem = RecordedValues.textProblem(text) { throw ImportProblem("an amendment's 'before.option' \(problem)") }
            if let seconds = before.seconds, let why = RecordedValues.secondsProblem(seconds) {
                throw ImportProblem("an amendment's 'before.seconds' \(why)")
            }
            return Amendment(
                step: line.step, madeAt: at, added: false,
                before: Amendment.Before(result: .answered, seconds: before.seconds, option: Int(index) - 1, optionText: text))
        }
        if before.option != nil || before.index != nil { throw ImportProblem("an amendment of a habit's step has no 'option' before") }
        if let value = before.value, let why = RecordedValues.amountProblem(value) { throw ImportProblem("an amendment's 'before.value' \(why)") }
        if let seconds = before.seconds, let why = RecordedValues.secondsProblem(seconds) {
            throw ImportProblem("an amendment's 'before.seconds' \(why)")
        }
        return Amendment(
            step: line.step, madeAt: at, added: false, before: Amendment.Before(result: result, value: before.value, seconds: before.seconds))
    }

    private static func decode(_ step: StepLine, _ n: Int) throws(ImportProblem) -> StoredStep {
        guard let kind = RoutineNode.Kind(rawValue: step.kind) else { throw ImportProblem("step \(n): 'kind' is not habit or question") }
        guard let result = RecordedStep.Result(rawValue: step.result) else {
            throw ImportProblem("step \(n): 'result' is not done, skipped, not-scheduled or answered: '\(step.result)'")
        }
        guard (kind == .question) == (result == .answered) else {
            throw ImportProblem("step \(n): a \(kind.rawValue) cannot have the result '\(step.result)'")
        }
        for (name, text) in [("node", step.node), ("title", step.title), ("unit", step.unit), ("option", step.option)] {
            if let text, let problem = RecordedValues.textProblem(text) { throw ImportProblem("step \(n): '\(name)' \(problem)") }
        }
        let checks: [(String, Double?, (Double) -> String?)] = [
            ("value", step.value, RecordedValues.amountProblem), ("target", step.target, RecordedValues.targetProblem),
            ("seconds", step.seconds, RecordedValues.secondsProblem),
        ]
        for (name, value, problem) in checks {
            if let value, let why = problem(value) { throw ImportProblem("step \(n): '\(name)' \(why)") }
        }
        if step.value != nil, result != .done { throw ImportProblem("step \(n): only a habit done has a 'value'") }
        var option: Int?
        if result == .answered {
            guard let index = step.index, step.option != nil else {
                throw ImportProblem("step \(n): an answer needs 'option' and 'index' (counted from 1)")
            }
            option = try whole(index, "step \(n): 'index'") - 1
        }
        return StoredStep(
            decision: RecordedStep(
                step: n, node: step.node, kind: kind, result: result, value: step.value, option: option,
                optionText: result == .answered ? step.option : nil),
            title: step.title, target: step.target, unit: step.unit, decidedAt: try timestamp(step.at, "step \(n): 'at'"),
            seconds: step.seconds,
            reason: try step.reason.map { (text: String) throws(ImportProblem) in
                guard let reason = PassReason(rawValue: text), result == .notScheduled else {
                    throw ImportProblem("step \(n): 'reason' is not done-by-log or done-by-run on a not-scheduled step: '\(text)'")
                }
                return reason
            })
    }

    /// A count from 1, as JSON gives it: a number, which must be whole and not too large.
    private static func whole(_ value: Double, _ what: String) throws(ImportProblem) -> Int {
        guard value == value.rounded(), value >= 1, value <= Double(Int32.max) else {
            throw ImportProblem("\(what) must be a whole number from 1 to \(Int32.max)")
        }
        return Int(value)
    }

    /// A UTC time in exactly the form `encode` writes (with milliseconds, seconds below 60),
    /// within the supported years.
    private static func timestamp(_ text: String, _ what: String) throws(ImportProblem) -> Timestamp {
        guard let value = Timestamp(exactly: text) else {
            throw ImportProblem("\(what) is not a UTC time such as 2026-11-23T06:12:03.120Z")
        }
        if let year = Int(text.prefix(4)), !CalendarDate.supportedYears.contains(year) {
            let years = CalendarDate.supportedYears
            throw ImportProblem("\(what) '\(text)' is outside the years routine supports, \(years.lowerBound) to \(years.upperBound)")
        }
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
        case .typeMismatch(let type, let context): return "\(path(context)) must be \(kind(type, context))"
        case .valueNotFound(let type, let context): return "\(path(context)) must be \(kind(type, context)), not null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\(path(context)) is not valid"
        @unknown default: return "not a run as 'history export' writes it"
        }
    }

    private static func kind(_ type: Any.Type, _ context: DecodingError.Context) -> String {
        if let name = context.codingPath.last?.stringValue, name == "step" || name == "index" { return "a whole number" }
        return switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is [StepLine].Type, is [Any].Type: "a list"
        default: "an object"
        }
    }

    struct RunLine: Decodable {
        var date, routine, result, started, utcOffset, path, sourceHash: String
        var ended, kind: String?
        var reachedEnd: Bool
        var steps: [StepLine]
        var amendments: [AmendmentLine]?

        /// As `JSONDecoder` reads it, for the lines it reads alike; nil when a member is missing
        /// or of another type.
        init?(_ json: JSON) {
            guard case .object(let o) = json, let date = o["date"]?.string, let routine = o["routine"]?.string,
                let result = o["result"]?.string, let started = o["started"]?.string, let utcOffset = o["utcOffset"]?.string,
                let path = o["path"]?.string, let sourceHash = o["sourceHash"]?.string, let reachedEnd = o["reachedEnd"]?.bool,
                let ended = optional(o["ended"], \.string), let kind = optional(o["kind"], \.string), case .array(let steps)? = o["steps"]
            else { return nil }
            (self.date, self.routine, self.result, self.started, self.utcOffset) = (date, routine, result, started, utcOffset)
            (self.path, self.sourceHash, self.reachedEnd, self.ended, self.kind) = (path, sourceHash, reachedEnd, ended, kind)
            self.steps = []
            for step in steps {
                guard let line = StepLine(step) else { return nil }
                self.steps.append(line)
            }
            switch o["amendments"] {
            case nil, .null?: amendments = nil
            case .array(let items)?:
                amendments = []
                for item in items {
                    guard let line = AmendmentLine(item) else { return nil }
                    amendments?.append(line)
                }
            default: return nil
            }
        }
    }

    struct AmendmentLine: Decodable {
        var step: Int
        var at: String
        var added: Bool?
        var before: BeforeLine?

        init?(_ json: JSON) {
            guard case .object(let o) = json, let step = o["step"]?.int, let at = o["at"]?.string,
                let added = optional(o["added"], \.bool)
            else { return nil }
            (self.step, self.at, self.added) = (step, at, added)
            switch o["before"] {
            case nil, .null?: before = nil
            case let value?:
                guard let line = BeforeLine(value) else { return nil }
                before = line
            }
        }
    }

    struct BeforeLine: Decodable {
        var result: String
        var value, seconds: Double?
        /// An answer's option text and its 1-based index (v7).
        var option: String?
        var index: Double?

        init?(_ json: JSON) {
            guard case .object(let o) = json, let result = o["result"]?.string, let value = optional(o["value"], \.double),
                let seconds = optional(o["seconds"], \.double), let option = optional(o["option"], \.string),
                let index = optional(o["index"], \.double)
            else { return nil }
            (self.result, self.value, self.seconds, self.option, self.index) = (result, value, seconds, option, index)
        }
    }

    /// Counts are read as numbers and checked after, so that `1.5` or `2^63 + 5` is named
    /// as a count that is wrong rather than as a line that is not JSON.
    struct StepLine: Decodable {
        var step: Double
        var node, kind, title, result, at: String
        var value, target, seconds: Double?
        var unit, option, reason: String?
        var index: Double?

        init?(_ json: JSON) {
            guard case .object(let o) = json, let step = o["step"]?.double, let node = o["node"]?.string, let kind = o["kind"]?.string,
                let title = o["title"]?.string, let result = o["result"]?.string, let at = o["at"]?.string,
                let value = optional(o["value"], \.double), let target = optional(o["target"], \.double),
                let seconds = optional(o["seconds"], \.double), let unit = optional(o["unit"], \.string),
                let option = optional(o["option"], \.string), let reason = optional(o["reason"], \.string),
                let index = optional(o["index"], \.double)
            else { return nil }
            (self.step, self.node, self.kind, self.title, self.result, self.at) = (step, node, kind, title, result, at)
            (self.value, self.target, self.seconds, self.unit, self.option, self.reason) = (value, target, seconds, unit, option, reason)
            self.index = index
        }
    }

}

/// What is wrong with one line of an import.
public struct ImportProblem: Error, Hashable, Sendable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// An optional member as `JSONDecoder` reads it: absent or null is nil, another type fails.
/// `.some(nil)` is a member that is not there; nil, one of another type.
private func optional<T>(_ value: JSON?, _ read: (JSON) -> T?) -> T?? {
    switch value {
    case nil, .null?: .some(nil)
    case let value?: read(value).map { .some($0) }
    }
}

extension JSON {
    fileprivate var double: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
}
