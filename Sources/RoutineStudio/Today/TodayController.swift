import Hummingbird
import RoutineHistory
import RoutineKit

/// The Today view: GET /api/today, the day as `routine today --json` gives it, and
/// POST /api/log, logs recorded as `routine done` records them, through the same library rules,
/// and POST /api/day-off, a day off made or undone as `routine off` does.
struct TodayController<Context: RequestContext> {
    let document: StudioDocument

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("today", use: today)
            .post("log", use: log)
            .post("day-off", use: dayOff)
    }

    /// The day of the routine on `date` (today by default).
    @Sendable func today(_ request: Request, context: Context) async throws -> Response {
        let date = request.uri.queryParameters["date"].map(String.init) ?? CalendarDate.today().description
        return try await StudioHistory.readDay(document, date: date) { routine, date, store throws(HistoryError) in
            try Self.json(routine, on: date, store: store)
        }
    }

    /// Records (or takes back) one log, and answers with the new day.
    @Sendable func log(_ request: Request, context: Context) async throws -> Response {
        try await StudioHistory.change(document, request, LogBody.self) { body, loaded throws(StudioError) in
            try record(body, loaded, path: absolutePath(document.path))
        }
    }

    /// Makes the day a day off of the routine, or no longer one, and answers with the new day.
    @Sendable func dayOff(_ request: Request, context: Context) async throws -> Response {
        try await StudioHistory.change(document, request, DayOffBody.self) { body, loaded throws(StudioError) in
            try StudioHistory.write(loaded, historyPath: document.historyPath) { routine, store in
                if body.undo {
                    try store.deleteDaysOff(of: routine.name, from: body.date, through: body.date)
                } else {
                    try store.insertDaysOff([DayOff(routine: routine.name, date: body.date, reason: body.reason, recordedAt: .now())])
                }
                return try Self.json(routine, on: body.date, store: store)
            }
        }
    }

    func record(_ body: LogBody, _ loaded: LoadedRoutine, path: String) throws(StudioError) -> [UInt8] {
        try StudioHistory.write(loaded, historyPath: document.historyPath) { routine, store in
            let date = body.date ?? .today()
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
            if let refusal { throw StudioError(refusal, state: day) }
            return day
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
}
