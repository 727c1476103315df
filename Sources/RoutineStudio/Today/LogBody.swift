import RoutineHistory
import RoutineKit

/// A `POST /api/log` body: `{habit, date?, value?, seconds?, skip?, undo?, force?}`.
struct LogBody: RequestBody {
    var habit: String
    var date: CalendarDate?
    var undo: Bool
    var request: LogRequest

    static let members: Set<String> = ["habit", "value", "seconds", "skip", "undo", "date", "force"]
    static let name = "a log"

    init(_ members: BodyMembers) throws(StudioError) {
        habit = try members.string("habit")
        date = try members.optionalDate("date")
        undo = try members.optionalBool("undo") ?? false
        let skip = try members.optionalBool("skip") ?? false
        let force = try members.optionalBool("force") ?? false
        let value = try members.optionalNumber("value")
        let seconds = try members.optionalNumber("seconds")
        if skip, undo { throw .malformed("skip and undo contradict each other: choose one") }
        if undo, value != nil || seconds != nil || force {
            throw .malformed("an undo takes back a log: it takes no value, seconds or force")
        }
        if skip, value != nil { throw .malformed("a skip takes no value") }
        try Self.check(value: value, seconds: seconds)
        request = LogRequest(id: habit, skip: skip, value: value, seconds: seconds, force: force)
    }

    /// A value a habit can record, and a time within a day: what a log, a correction or a
    /// run's answer may carry.
    static func check(value: Double?, seconds: Double?) throws(StudioError) {
        if let value, !(value >= 0 && value <= TargetValue.maximum) {
            throw .malformed("\(NumberText.format(value)) is not a value: give a number from 0 to \(NumberText.format(TargetValue.maximum))")
        }
        if let seconds, !(seconds > 0 && seconds <= Double(DurationText.maximumSeconds)) {
            throw .malformed("seconds must be more than nothing and at most a day")
        }
    }
}
