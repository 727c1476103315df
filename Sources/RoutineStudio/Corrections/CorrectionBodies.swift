import Foundation
import RoutineHistory
import RoutineKit

/// The bodies of `POST /api/correct`, `/api/correct/undo`, `/api/run/delete` and
/// `/api/run/restore`, checked before anything is read or written.
enum StudioCorrectionBody {
    typealias Malformed = StudioEditRequest.Malformed

    /// What a correction is about: a recorded step, or a habit of a day that nothing recorded.
    enum Target: Equatable {
        case step(run: Int64, step: Int)
        case habit(String, date: CalendarDate)
    }

    /// A `POST /api/correct` body: `{run, step}` or `{date, habit}`, and the change; or
    /// `{run, step, answer}`, a question's step and its new answer.
    struct Correction: Equatable {
        var target: Target
        /// Done or skipped (done when only a value is given); `.answered` with `answer`.
        var result: RecordedStep.Result
        var value: Double?
        var seconds: Double?
        /// The new answer, by number or text as a run takes it.
        var answer: String?

        var change: AmendChange { AmendChange(result: result, value: value, seconds: seconds) }
    }

    static func object(_ bytes: [UInt8], keys: Set<String>, of what: String) throws(Malformed) -> StudioEditRequest.Fields {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw .init(reason: "the body is not a JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            throw .init(reason: "'\(unknown)' is not a member of \(what)")
        }
        return StudioEditRequest.Fields(object: object)
    }

    static func correction(_ bytes: [UInt8]) throws(Malformed) -> Correction {
        let fields = try object(bytes, keys: ["run", "step", "date", "habit", "result", "value", "seconds", "answer"], of: "a correction")
        let target: Target
        if let run = try fields.optionalInt("run") {
            if fields.value("date") != nil || fields.value("habit") != nil {
                throw .init(reason: "a correction names a recorded step (run, step) or a habit of a day (date, habit), not both")
            }
            target = .step(run: Int64(run), step: try fields.int("step"))
        } else if fields.value("step") != nil {
            throw .init(reason: "'run' is missing")
        } else {
            let habit = try fields.string("habit")
            target = .habit(habit, date: try date(fields.string("date")))
        }
        if let answer = try fields.optionalString("answer") {
            guard case .step = target else { throw .init(reason: "an answer is corrected on its recorded step (run, step)") }
            if ["result", "value", "seconds"].contains(where: { fields.value($0) != nil }) {
                throw .init(reason: "a correction of an answer takes no 'result', 'value' or 'seconds'")
            }
            return Correction(target: target, result: .answered, answer: answer)
        }
        let value = try fields.optionalNumber("value")
        let seconds = try fields.optionalNumber("seconds")
        try StudioToday.LogBody.check(value: value, seconds: seconds)
        let result: RecordedStep.Result
        switch try fields.optionalString("result") {
        case "done"?: result = .done
        case "skipped"?:
            if value != nil { throw .init(reason: "a skipped habit takes no value") }
            result = .skipped
        case nil:
            guard value != nil else { throw .init(reason: "a correction needs 'result' (done or skipped) or a 'value'") }
            result = .done
        case let other?: throw .init(reason: "'result' must be done or skipped, not '\(other)'")
        }
        return Correction(target: target, result: result, value: value, seconds: seconds)
    }

    /// A `POST /api/correct/undo` body: `{}`, or the `{run, step}` the page expects to undo.
    static func undo(_ bytes: [UInt8]) throws(Malformed) -> (run: Int64, step: Int)? {
        let fields = try object(bytes.isEmpty ? Array("{}".utf8) : bytes, keys: ["run", "step"], of: "an undo")
        guard let run = try fields.optionalInt("run") else {
            if fields.value("step") != nil { throw .init(reason: "'run' is missing") }
            return nil
        }
        return (Int64(run), try fields.int("step"))
    }

    /// A `POST /api/run/delete` or `/api/run/restore` body: `{run}`.
    static func run(_ bytes: [UInt8]) throws(Malformed) -> Int64 {
        Int64(try object(bytes, keys: ["run"], of: "a run's deletion").int("run"))
    }

    static func date(_ text: String) throws(Malformed) -> CalendarDate {
        guard let day = CalendarDate(text) else { throw .init(reason: "'\(text)' is not a date (YYYY-MM-DD)") }
        return day
    }
}
