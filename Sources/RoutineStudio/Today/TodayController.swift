import Foundation
import HTTPTypes
import RoutineHistory
import RoutineKit

/// The Today view's API: the day as `routine today --json` gives it, and logs recorded as
/// `routine done` records them, through the same library rules.
struct StudioToday: Sendable {
    /// The history file; nil when the studio records nothing (`--no-history`, or no place for one).
    let historyPath: String?

    /// An answer: its status and JSON body.
    typealias Answer = (status: HTTPResponse.Status, body: [UInt8])

    /// A `POST /api/log` body.
    struct LogBody {
        var habit: String
        var date: CalendarDate?
        var undo: Bool
        var request: LogRequest

        init(json bytes: [UInt8]) throws(StudioEditRequest.Malformed) {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
                throw .init(reason: "the body is not a JSON object")
            }
            let fields = StudioEditRequest.Fields(object: object)
            if let unknown = object.keys.sorted().first(where: { !Self.keys.contains($0) }) {
                throw .init(reason: "'\(unknown)' is not a member of a log")
            }
            habit = try fields.string("habit")
            date = try fields.optionalString("date").map { text throws(StudioEditRequest.Malformed) in
                guard let day = CalendarDate(text) else { throw .init(reason: "'\(text)' is not a date (YYYY-MM-DD)") }
                return day
            }
            undo = try fields.optionalBool("undo") ?? false
            let skip = try fields.optionalBool("skip") ?? false
            let force = try fields.optionalBool("force") ?? false
            let value = try fields.optionalNumber("value")
            let seconds = try fields.optionalNumber("seconds")
            if skip, undo { throw .init(reason: "skip and undo contradict each other: choose one") }
            if undo, value != nil || seconds != nil || force { throw .init(reason: "an undo takes back a log: it takes no value, seconds or force") }
            if skip, value != nil { throw .init(reason: "a skip takes no value") }
            try Self.check(value: value, seconds: seconds)
            request = LogRequest(id: habit, skip: skip, value: value, seconds: seconds, force: force)
        }

        static let keys: Set<String> = ["habit", "value", "seconds", "skip", "undo", "date", "force"]

        /// A value a habit can record, and a time within a day: what a log or a correction may carry.
        static func check(value: Double?, seconds: Double?) throws(StudioEditRequest.Malformed) {
            if let value, !(value >= 0 && value <= TargetValue.maximum) {
                throw .init(reason: "\(NumberText.format(value)) is not a value: give a number from 0 to \(NumberText.format(TargetValue.maximum))")
            }
            if let seconds, !(seconds > 0 && seconds <= Double(DurationText.maximumSeconds)) {
                throw .init(reason: "seconds must be more than nothing and at most a day")
            }
        }
    }

    /// `GET /api/today`: the day of `loaded` on `date` (today by default).
    func day(_ loaded: LoadedRoutine, date text: String?) -> Answer {
        Self.readDay(loaded, date: text ?? CalendarDate.today().description, historyPath: historyPath) { routine, date, store throws(HistoryError) in
            try Self.json(routine, on: date, store: store)
        }
    }

    /// A GET of one day of `loaded`, read by `json` from the history (nil without one): a date
    /// that is not one is refused with 400, a routine with errors with 422.
    static func readDay(
        _ loaded: LoadedRoutine, date text: String, historyPath: String?,
        _ json: (Routine, CalendarDate, HistoryStore?) throws(HistoryError) -> [UInt8]
    ) -> Answer {
        guard let date = CalendarDate(text) else {
            return refusal(Diagnostic(.editRefused, "'\(text)' is not a date (YYYY-MM-DD)", at: nil), .badRequest)
        }
        if let invalid = invalid(loaded) { return invalid }
        do {
            let store = try StudioToday.readOnlyStore(historyPath)
            return (.ok, try json(loaded.routine, date, store))
        } catch {
            return refusal(error.readingDiagnostic, .internalServerError)
        }
    }

    /// `POST /api/log`: records (or takes back) one log, and answers with the new day.
    func log(_ loaded: LoadedRoutine, path: String, body bytes: [UInt8]) -> Answer {
        let body: LogBody
        do { body = try LogBody(json: bytes) } catch {
            return Self.refusal(Diagnostic(.editRefused, error.reason, at: nil), .badRequest)
        }
        if let invalid = Self.invalid(loaded) { return invalid }
        guard let historyPath else { return Self.refusal(.noHistoryForLog(), .unprocessableContent) }
        let routine = loaded.routine
        let date = body.date ?? .today()
        do {
            guard let store = try HistoryStore.open(historyPath, create: true) else { return Self.refusal(.noHistoryForLog(), .unprocessableContent) }
            let refusal: LogRefusal?
            if body.undo {
                let rules = DayRules(routine: routine, facts: DayFacts(date: date), unconditional: [])
                if case .failure(let refused) = rules.habit(body.habit) {
                    refusal = refused
                } else {
                    refusal =
                        try store.undoLog(of: body.habit, routine: routine.name, on: date) == nil
                        ? .nothingToUndo(id: body.habit, date: date) : nil
                }
            } else {
                let result = try store.log(body.request, of: routine, on: date, path: path, sourceHash: sourceHash(loaded.file.bytes))
                if case .failure(let refused) = result { refusal = refused } else { refusal = nil }
            }
            let day = try Self.json(routine, on: date, store: store)
            guard let refusal else { return (.ok, day) }
            return (Self.isAlreadyDone(refusal) ? .conflict : .unprocessableContent, StudioState.refusal(refusal.diagnostic, state: day))
        } catch {
            return Self.refusal(error.diagnostic, .internalServerError)
        }
    }

    /// The JSON of `today --json` for one routine.
    static func json(_ routine: Routine, on date: CalendarDate, store: HistoryStore?) throws(HistoryError) -> [UInt8] {
        let facts = try store?.dayFacts(of: routine, on: date) ?? DayFacts(date: date)
        var totals = DayTotals()
        totals.days.append((routine, DayOverview.of(routine, facts: facts)))
        var out = ByteWriter()
        totals.json(date: date).write(to: &out)
        return out.bytes
    }

    /// Already done or skipped that day: a conflict with what is recorded, 409.
    static func isAlreadyDone(_ refusal: LogRefusal) -> Bool {
        switch refusal {
        case .alreadyDone, .alreadySkipped: true
        default: false
        }
    }

    /// A routine with errors has no day: `today` and `done` refuse it too.
    static func invalid(_ loaded: LoadedRoutine) -> Answer? {
        guard let error = loaded.diagnostics.first(where: { $0.severity == .error }) else { return nil }
        return refusal(error, .unprocessableContent)
    }

    static func refusal(_ diagnostic: Diagnostic, _ status: HTTPResponse.Status) -> Answer {
        (status, StudioState.refusal(diagnostic, state: nil))
    }
}

extension StudioToday {
    /// A window checked as `routine stats` checks `--since` and `--until`, for a routine
    /// without errors; or the answer that refuses it (400, or 422 with the routine's error).
    enum WindowCheck {
        case window(DateWindow)
        case refused(Answer)
    }

    static func window(of loaded: LoadedRoutine, since: String?, until: String?) -> WindowCheck {
        switch DateWindow.checked(since: since, until: until, names: ("since", "until")) {
        case .success(let window):
            if let invalid = invalid(loaded) { return .refused(invalid) }
            return .window(window)
        case .failure(let problem):
            return .refused(refusal(Diagnostic(.editRefused, problem.reason, at: nil), .badRequest))
        }
    }

    /// The history opened to read, or nil without one (`--no-history`, or none written yet).
    static func readOnlyStore(_ path: String?) throws(HistoryError) -> HistoryStore? {
        try path.flatMap { path throws(HistoryError) in try HistoryStore.open(path, create: false, readOnly: true) }
    }
}
