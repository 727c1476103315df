import Hummingbird
import RoutineHistory
import RoutineKit

/// The history as every view reads and writes it, with the refusals they share.
enum StudioHistory {
    /// The history opened to read, or nil without one (`--no-history`, or none written yet).
    static func readOnly(_ path: String?) throws(HistoryError) -> HistoryStore? {
        try path.flatMap { path throws(HistoryError) in try HistoryStore.open(path, create: false, readOnly: true, syncingThroughAWriter: true) }
    }

    /// A GET of one day of the document's routine, read by `json` from the history (nil
    /// without one): a date that is not one is refused with 400, a routine with errors with
    /// 422, a history that cannot be read with 500.
    static func readDay(
        _ document: StudioDocument, date text: String,
        _ json: (Routine, CalendarDate, HistoryStore?) throws(HistoryError) -> [UInt8]
    ) async throws(StudioError) -> Response {
        let loaded = await document.loaded()
        guard let date = CalendarDate(text) else { throw .malformed("'\(text)' is not a date (YYYY-MM-DD)") }
        try StudioError.unlessValid(loaded)
        do { return StudioResponse.json(try json(loaded.routine, date, try readOnly(document.historyPath))) } catch {
            throw StudioError(.internalServerError, error.readingDiagnostic)
        }
    }

    /// A POST that changes the history: the request's body read as `Body`, `change` run with
    /// the routine as it is now, and its answer (or refusal) sent once every open page, this
    /// one too, has heard of the change.
    static func change<Body: RequestBody>(
        _ document: StudioDocument, _ request: Request, _ type: Body.Type,
        _ change: (Body, LoadedRoutine) throws(StudioError) -> [UInt8]
    ) async throws -> Response {
        let body = try await BodyReader.read(type, from: request)
        let loaded = await document.loaded()
        let answer = Result { () throws(StudioError) in try change(body, loaded) }
        await document.reloadHistoryIfChanged()
        return StudioResponse.json(try answer.get())
    }

    /// Runs `body` on the writable history, after the refusals every write shares: a
    /// routine with errors (422), no history (422, E508), a history that fails (500).
    static func write(
        _ loaded: LoadedRoutine, historyPath: String?, _ body: (Routine, HistoryStore) throws -> [UInt8]
    ) throws(StudioError) -> [UInt8] {
        try StudioError.unlessValid(loaded)
        guard let historyPath else { throw StudioError(.unprocessableContent, .noHistoryForLog()) }
        do {
            guard let store = try HistoryStore.open(historyPath, create: true) else { throw StudioError(.unprocessableContent, .noHistoryForLog()) }
            return try body(loaded.routine, store)
        } catch let error as StudioError {
            throw error
        } catch let error as HistoryError {
            throw StudioError(.internalServerError, error.diagnostic)
        } catch {
            throw StudioError(.internalServerError, Diagnostic(.editRefused, "\(error)", at: nil))
        }
    }

    /// The day's JSON (``DayRecord/json``) of `routine`, with `missing`: the habits the
    /// statistics call missed that day (due, nothing recorded), which the day view offers to
    /// add; and one more member when given.
    static func day(_ routine: Routine, on date: CalendarDate, store: HistoryStore?, extra: (String, JSONValue)? = nil) throws(HistoryError)
        -> [UInt8]
    {
        var json = try store?.dayRecord(of: routine.name, on: date).json(in: routine) ?? DayRecord(date: date).json(in: routine)
        if case .object(var members) = json {
            let missed = try StatsLoading.day(date, of: routine, store: store).filter { $0.day.status == .missed }
            members.append(
                (
                    "missing",
                    .array(
                        missed.map { habit in
                            let target = routine.target(of: habit.index)
                            return .object([
                                ("node", .string(routine.id(of: habit.index))), ("title", .string(routine.title(of: habit.index))),
                                ("target", target.map { .number($0.amount) } ?? .null), ("unit", target?.unit.map(JSONValue.string) ?? .null),
                            ])
                        })
                ))
            if let extra { members.append(extra) }
            json = .object(members)
        }
        var out = ByteWriter()
        json.write(to: &out)
        return out.bytes
    }

    /// A window checked as `routine stats` checks `--since` and `--until`, for a routine
    /// without errors: 400 for a window that is not one, 422 with the routine's error.
    static func window(of loaded: LoadedRoutine, since: String?, until: String?) throws(StudioError) -> DateWindow {
        switch DateWindow.checked(since: since, until: until, names: ("since", "until")) {
        case .success(let window):
            try StudioError.unlessValid(loaded)
            return window
        case .failure(let problem): throw .malformed(problem.reason)
        }
    }
}

extension StudioError {
    /// A refusal of the log rules: 409 for done or skipped already (a conflict with what is
    /// recorded), else 422; the day as `state`.
    init(_ refusal: LogRefusal, state: [UInt8]) {
        let conflict: Bool
        switch refusal {
        case .alreadyDone, .alreadySkipped: conflict = true
        default: conflict = false
        }
        self.init(conflict ? .conflict : .unprocessableContent, refusal.diagnostic, state: state)
    }
}
