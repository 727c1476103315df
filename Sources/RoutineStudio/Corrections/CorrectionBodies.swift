import RoutineHistory
import RoutineKit

/// A `POST /api/correct` body: `{run, step}` or `{date, habit}`, and the change; or
/// `{run, step, answer}`, a question's step and its new answer.
struct CorrectionBody: RequestBody, Equatable {
    /// What a correction is about: a recorded step, or a habit of a day that nothing recorded.
    enum Target: Equatable {
        case step(run: Int64, step: Int)
        case habit(String, date: CalendarDate)
    }

    var target: Target
    /// Done or skipped (done when only a value is given); `.answered` with `answer`.
    var result: RecordedStep.Result
    var value: Double?
    var seconds: Double?
    /// The new answer, by number or text as a run takes it.
    var answer: String?

    var change: AmendChange { AmendChange(result: result, value: value, seconds: seconds) }

    static let members: Set<String> = ["run", "step", "date", "habit", "result", "value", "seconds", "answer"]
    static let name = "a correction"

    init(_ members: BodyMembers) throws(StudioError) {
        if let run = try members.optionalInt("run") {
            if members.has("date") || members.has("habit") {
                throw .malformed("a correction names a recorded step (run, step) or a habit of a day (date, habit), not both")
            }
            target = .step(run: Int64(run), step: try members.int("step"))
        } else if members.has("step") {
            throw .malformed("'run' is missing")
        } else {
            let habit = try members.string("habit")
            guard let date = try members.optionalDate("date") else { throw .malformed("'date' is missing") }
            target = .habit(habit, date: date)
        }
        if let answer = try members.optionalString("answer") {
            guard case .step = target else { throw .malformed("an answer is corrected on its recorded step (run, step)") }
            if ["result", "value", "seconds"].contains(where: members.has) {
                throw .malformed("a correction of an answer takes no 'result', 'value' or 'seconds'")
            }
            (result, self.answer) = (.answered, answer)
            return
        }
        value = try members.optionalNumber("value")
        seconds = try members.optionalNumber("seconds")
        try LogBody.check(value: value, seconds: seconds)
        switch try members.optionalString("result") {
        case "done"?: result = .done
        case "skipped"?:
            if value != nil { throw .malformed("a skipped habit takes no value") }
            result = .skipped
        case nil:
            guard value != nil else { throw .malformed("a correction needs 'result' (done or skipped) or a 'value'") }
            result = .done
        case let other?: throw .malformed("'result' must be done or skipped, not '\(other)'")
        }
    }
}

/// A `POST /api/correct/undo` body: `{}`, or the `{run, step}` the page expects to undo.
struct CorrectionUndoBody: RequestBody {
    var expected: (run: Int64, step: Int)?

    static let members: Set<String> = ["run", "step"]
    static let name = "an undo"

    init(_ members: BodyMembers) throws(StudioError) {
        guard let run = try members.optionalInt("run") else {
            if members.has("step") { throw .malformed("'run' is missing") }
            return
        }
        expected = (Int64(run), try members.int("step"))
    }
}
