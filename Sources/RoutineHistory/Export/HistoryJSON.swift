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
            run = try RunLine(JSONParser.parse(Array(line)))
        } catch let problem as ImportProblem {
            throw problem
        } catch {
            throw ImportProblem("not JSON")
        }
        return (try validated(run), false)
    }

    /// The run of a line exactly as `encode` writes it, which every line of an export and of a
    /// sync journal is, read member by member where it can be; nil for any other line, which
    /// ``decode(_:)`` reads, checks and explains. The checks are the same: only the reading of
    /// the JSON differs, and a line is taken here only when writing back the run gives its bytes.
    static func decodeCanonical(_ line: some Collection<UInt8>) -> StoredRun? {
        let bytes = Array(line)
        // Member by member where the line allows it (no escapes), else through a tree of values.
        let read = bytes.withUnsafeBufferPointer { CanonicalReader.run($0) }
        guard let fields = read ?? (try? JSONParser.parse(bytes)).flatMap({ try? RunLine($0) }), let run = try? validated(fields),
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

    /// A run line's members, read from the tree in the order they are declared: the first that
    /// is missing or of another type is the one named ("'routine' is missing", "step 2: 'value'
    /// must be a number").
    struct RunLine {
        var date, routine, result, started, utcOffset, path, sourceHash: String
        var ended, kind: String?
        var reachedEnd: Bool
        var steps: [StepLine]
        var amendments: [AmendmentLine]?

        init(_ json: JSON) throws(ImportProblem) {
            let o = try LineObject(json, at: [])
            (date, routine, result) = (try o.string("date"), try o.string("routine"), try o.string("result"))
            (started, utcOffset, path, sourceHash) = (
                try o.string("started"), try o.string("utcOffset"), try o.string("path"), try o.string("sourceHash")
            )
            (ended, kind, reachedEnd) = (try o.optionalString("ended"), try o.optionalString("kind"), try o.bool("reachedEnd"))
            steps = try o.list("steps").enumerated().map { (k, step) throws(ImportProblem) in try StepLine(step, at: [.name("steps"), .index(k)]) }
            amendments = try o.optionalList("amendments")?.enumerated().map { (k, item) throws(ImportProblem) in
                try AmendmentLine(item, at: [.name("amendments"), .index(k)])
            }
        }
    }

    struct AmendmentLine {
        var step: Int
        var at: String
        var added: Bool?
        var before: BeforeLine?

        init(_ json: JSON, at path: [LineObject.Key]) throws(ImportProblem) {
            let o = try LineObject(json, at: path)
            (step, at, added) = (try o.int("step"), try o.string("at"), try o.optionalBool("added"))
            before = try o.optional("before").map { (value) throws(ImportProblem) in try BeforeLine(value, at: path + [.name("before")]) }
        }
    }

    struct BeforeLine {
        var result: String
        var value, seconds: Double?
        /// An answer's option text and its 1-based index (v7).
        var option: String?
        var index: Double?

        init(_ json: JSON, at path: [LineObject.Key]) throws(ImportProblem) {
            let o = try LineObject(json, at: path)
            (result, value, seconds) = (try o.string("result"), try o.optionalNumber("value"), try o.optionalNumber("seconds"))
            (option, index) = (try o.optionalString("option"), try o.optionalNumber("index"))
        }
    }

    /// Counts are read as numbers and checked after, so that `1.5` or `2^63 + 5` is named
    /// as a count that is wrong rather than as a line that is not JSON.
    struct StepLine {
        var step: Double
        var node, kind, title, result, at: String
        var value, target, seconds: Double?
        var unit, option, reason: String?
        var index: Double?

        init(_ json: JSON, at path: [LineObject.Key]) throws(ImportProblem) {
            let o = try LineObject(json, at: path)
            (step, node, kind, title) = (try o.number("step"), try o.string("node"), try o.string("kind"), try o.string("title"))
            (result, at) = (try o.string("result"), try o.string("at"))
            (value, target, seconds) = (try o.optionalNumber("value"), try o.optionalNumber("target"), try o.optionalNumber("seconds"))
            (unit, option, reason) = (try o.optionalString("unit"), try o.optionalString("option"), try o.optionalString("reason"))
            index = try o.optionalNumber("index")
        }
    }

    /// One object of a run line and where it is in the line, whose members are read by type; a
    /// member that is missing or of another type is refused, named by its place ("step 2:
    /// 'value'"). Absent and null are alike for an optional member.
    struct LineObject {
        enum Key {
            case name(String)
            case index(Int)
        }

        let members: [String: JSON]
        let path: [Key]

        init(_ json: JSON, at path: [Key]) throws(ImportProblem) {
            switch json {
            case .object(let members): (self.members, self.path) = (members, path)
            case .null: throw Self.refusal(path, "must be an object, not null")
            default: throw Self.refusal(path, "must be an object")
            }
        }

        /// "the line", "'routine'", "step 2: 'value'", or "step 2: the step" for a step itself.
        private static func refusal(_ path: [Key], _ problem: String) -> ImportProblem {
            var step = ""
            if let last = path.last(where: { if case .index = $0 { true } else { false } }), case .index(let k) = last { step = "step \(k + 1): " }
            guard let last = path.last(where: { if case .name = $0 { true } else { false } }), case .name(let name) = last else {
                return ImportProblem("the line " + problem)
            }
            if !step.isEmpty, name == "steps", case .index? = path.last { return ImportProblem(step + "the step " + problem) }
            return ImportProblem(step + "'" + name + "' " + problem)
        }

        /// The member `name`; nil when absent or null.
        func optional(_ name: String) -> JSON? {
            guard let value = members[name], value != .null else { return nil }
            return value
        }

        private func read<T>(_ name: String, _ what: String, _ cast: (JSON) -> T?) throws(ImportProblem) -> T? {
            guard let value = optional(name) else { return nil }
            return try required(name, what, cast)
        }

        private func required<T>(_ name: String, _ what: String, _ cast: (JSON) -> T?) throws(ImportProblem) -> T {
            switch members[name] {
            case nil: throw Self.refusal(path + [.name(name)], "is missing")
            case .null?: throw Self.refusal(path + [.name(name)], "must be " + Self.kind(name, what) + ", not null")
            case let value?:
                guard let read = cast(value) else { throw Self.refusal(path + [.name(name)], "must be " + Self.kind(name, what)) }
                return read
            }
        }

        /// A count is named a whole number whatever type it is read as.
        private static func kind(_ name: String, _ what: String) -> String { name == "step" || name == "index" ? "a whole number" : what }

        func string(_ name: String) throws(ImportProblem) -> String { try required(name, "a string", \.string) }
        func optionalString(_ name: String) throws(ImportProblem) -> String? { try read(name, "a string", \.string) }
        func bool(_ name: String) throws(ImportProblem) -> Bool { try required(name, "true or false", \.bool) }
        func optionalBool(_ name: String) throws(ImportProblem) -> Bool? { try read(name, "true or false", \.bool) }
        func list(_ name: String) throws(ImportProblem) -> [JSON] { try required(name, "a list", \.array) }
        func optionalList(_ name: String) throws(ImportProblem) -> [JSON]? { try read(name, "a list", \.array) }

        func number(_ name: String) throws(ImportProblem) -> Double { try required(name, "a number", \.double) }
        func optionalNumber(_ name: String) throws(ImportProblem) -> Double? { try read(name, "a number", \.double) }

        /// A whole number. A number that is not one an Int holds (1.5, 1e20) makes the line "not
        /// JSON", as one no Double holds (1e400) does, as Foundation's decoder said before this reader.
        func int(_ name: String) throws(ImportProblem) -> Int {
            guard let value = Int(exactly: try number(name)) else { throw ImportProblem("not JSON") }
            return value
        }
    }

}

/// What is wrong with one line of an import.
public struct ImportProblem: Error, Hashable, Sendable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// An optional member: absent or null is nil, another type fails. `.some(nil)` is a member
/// that is not there; nil, one of another type.
func optional<T>(_ value: JSON?, _ read: (JSON) -> T?) -> T?? {
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
