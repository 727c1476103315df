import RoutineHistory
import RoutineKit

/// A `POST /api/day-off` body: `{date, reason?, undo?}`: the day made a day off of the
/// routine, as `routine off FILE DATE --reason R` makes it, or no longer one (`--undo`).
struct DayOffBody: RequestBody {
    var date: CalendarDate
    var reason: String?
    var undo: Bool

    static let members: Set<String> = ["date", "reason", "undo"]
    static let name = "a day off"

    init(_ members: BodyMembers) throws(StudioError) {
        guard let date = try members.optionalDate("date") else { throw .malformed("'date' is missing: the day, YYYY-MM-DD") }
        self.date = date
        reason = try members.optionalString("reason")
        undo = try members.optionalBool("undo") ?? false
        if undo, reason != nil { throw .malformed("an undo takes no reason") }
        if let reason, reason.isEmpty || RecordedValues.reasonProblem(reason) != nil {
            throw .malformed("the reason \(RecordedValues.reasonProblem(reason) ?? "must not be empty")")
        }
    }
}
