import RoutineHistory
import RoutineKit

/// The runs in the browser, one request at a time: started or resumed by the same history
/// rules as `routine run` (``RunHistory``), answered one answer per request, each step
/// committed before the answer returns. A run is held by one page; another may watch it, and
/// takes it over only when asked to.
actor BrowserRuns {
    /// The history file; nil when the studio records nothing.
    let historyPath: String?
    private var runs: [Int64: BrowserRun] = [:]
    /// The runs going on here, the one answered or begun longest ago first.
    private var used: [Int64] = []
    /// Runs kept going at once. Each holds the history open (two descriptors); one left by a
    /// page that went away is resumed from the history when it is taken up again.
    static let keptRuns = 16
    /// Ids for runs that nothing records.
    private var nextUnrecorded: Int64 = 1

    init(historyPath: String?) { self.historyPath = historyPath }

    static let notRecorded = "the studio records nothing (--no-history): this run is not kept, and cannot be resumed"

    /// How a start treats the day's unfinished run.
    enum Mode: Sendable {
        /// Offer it: the answer says so, and nothing starts.
        case ask
        case resume
        case fresh
    }

    /// `POST /api/run/start`.
    func start(_ loaded: LoadedRoutine, path: String, date: CalendarDate, mode: Mode, holder: String?) throws(StudioError) -> JSONValue {
        try StudioError.unlessValid(loaded)
        let said = BrowserRun.Said()
        if case .ahead(let days) = RunDate(date, today: .today()) {
            said.notes.append(Diagnostic.runDateAhead(date, days: days, today: .today()).message)
        }
        let history: RunHistory
        switch open(loaded, path: path, date: date, said: said) {
        case .success(let opened): history = opened
        case .failure(let error): throw StudioError(.internalServerError, error.diagnostic)
        }
        if history.store == nil { said.notes.append(Self.notRecorded) }
        var plan: ResumePlan?
        if mode != .fresh {
            let unfinished: StoredRun?
            do { unfinished = try history.unfinishedRun() } catch { throw StudioError(.internalServerError, error.diagnostic) }
            if let unfinished, let id = unfinished.id {
                if let live = runs[id], live.stepper.result == nil {
                    // Held here: its own page takes it up again, another is told.
                    if let holder, holder == live.holder { return live.json(events: nil, holder: holder) }
                    if mode == .ask { return .object([("offer", offer(live.json(events: nil, holder: nil), held: true))]) }
                    throw Self.heldElsewhere(live)
                }
                let found = history.plan(unfinished)
                if mode == .ask { return .object([("offer", offer(found, file: loaded.file.name))]) }
                plan = found
            } else if mode == .resume {
                said.notes.append("no unfinished run of '\(loaded.routine.name)' on \(date) to resume; a new one starts")
            }
        }
        return begin(history, plan: plan, said: said)
    }

    /// `POST /api/run/take`: this page holds run `id` from now on; one that nobody runs here
    /// is resumed from the history.
    func take(_ id: Int64, _ loaded: LoadedRoutine, path: String) throws(StudioError) -> JSONValue {
        if let live = runs[id] {
            guard live.stepper.result == nil else { throw StudioError(.conflict, message: "this run has ended: there is nothing to take over") }
            if live.isInStep {
                live.holder = BrowserRun.newHolder()
                live.claim += 1
                return live.json(events: nil, holder: live.holder)
            }
            runs[id] = nil
        }
        try StudioError.unlessValid(loaded)
        let stored = try storedRun(id, of: loaded.routine)
        guard stored.isResumable, let date = CalendarDate(stored.date) else {
            throw StudioError(.conflict, message: "run \(id) is completed: only an unfinished run can be taken up again")
        }
        let said = BrowserRun.Said()
        switch open(loaded, path: path, date: date, said: said) {
        case .success(let history): return begin(history, plan: history.plan(stored), said: said)
        case .failure(let error): throw StudioError(.internalServerError, error.diagnostic)
        }
    }

    /// The refusal of `POST /api/run/answer` for a run that is not going on here: unknown, or
    /// no page holds it.
    func refuseNotHeld(_ id: Int64, _ loaded: LoadedRoutine) throws(StudioError) -> Never {
        if try !storedRun(id, of: loaded.routine).isResumable { throw StudioError(.conflict, message: "this run has ended") }
        throw StudioError(.conflict, message: "no page holds this run now: resume it to go on")
    }

    /// `POST /api/run/answer`: one answer from the page that holds the run; nil when the run
    /// is not going on here (``refuseNotHeld(_:_:)`` answers then). `seconds`: what the page's
    /// countdown measured for the step, pauses left out, recorded as the step's time.
    func answer(_ id: Int64, holder: String?, answer: String, seconds: Double? = nil) throws(StudioError) -> JSONValue? {
        guard let live = runs[id] else { return nil }
        if live.stepper.result != nil { throw StudioError(.conflict, message: "this run has ended") }
        guard holder == live.holder else { throw Self.heldElsewhere(live) }
        guard live.isInStep else {
            runs[id] = nil
            throw StudioError(.conflict, message: "this run was taken up elsewhere (a terminal's 'routine run --resume'): resume it here to go on")
        }
        live.said.notes.removeAll()
        touch(id)
        let events = live.take(answer, timed: seconds)
        let body = live.json(events: events, holder: live.holder)
        // An ended run lives on in the history; its connection need not stay open.
        if live.stepper.result != nil, live.isRecorded { runs[id] = nil }
        guard let refusal = events.refusal else { return body }
        throw StudioError(.unprocessableContent, message: refusal, run: body)
    }

    /// `GET /api/run/{id}`: a run of this studio, or one from the history as it stands,
    /// replayed as a resume would take it up (``RunHistory/plan(_:)``): a habit the run passed
    /// over because a log or another run did it is passed over again, not asked.
    func get(_ id: Int64, _ loaded: LoadedRoutine, path: String) throws(StudioError) -> JSONValue {
        if let live = runs[id] { return live.json(events: nil, holder: nil) }
        let stored = try storedRun(id, of: loaded.routine)
        guard let date = CalendarDate(stored.date) else { throw StudioError(.notFound, message: "there is no run \(id)") }
        let plan: ResumePlan
        switch open(loaded, path: path, date: date, said: BrowserRun.Said(), readOnly: true) {
        case .success(let history): plan = history.plan(stored)
        case .failure(let error): throw StudioError(.internalServerError, error.readingDiagnostic)
        }
        var stepper = RunStepper(plan.run, interactive: true)
        var prompt: JSONValue?
        if stored.result == nil { stepper.begin(emit: { event, run in if let json = event.promptJSON(run) { prompt = json } }) }
        let state = BrowserRunJSON.state(
            id: id, run: plan.run, recorded: true, result: stored.result, prompt: prompt, events: [],
            held: false, claim: 0, holder: nil, seconds: stored.steps.map(\.seconds), notes: [])
        return state
    }

    /// `GET /api/run`: the day's unfinished run, as a start would offer it (null: none).
    func unfinished(_ loaded: LoadedRoutine, path: String, date: CalendarDate) throws(StudioError) -> JSONValue {
        try StudioError.unlessValid(loaded)
        let said = BrowserRun.Said()
        guard case .success(let history) = open(loaded, path: path, date: date, said: said, readOnly: true) else {
            return .object([("offer", .null)])
        }
        guard let stored = try? history.unfinishedRun(), let id = stored.id else {
            return .object([("offer", .null), ("recorded", .bool(historyPath != nil))])
        }
        if let live = runs[id], live.stepper.result == nil {
            return .object([("offer", offer(live.json(events: nil, holder: nil), held: true))])
        }
        return .object([("offer", offer(history.plan(stored), file: loaded.file.name))])
    }

    // MARK: Pieces

    private func begin(_ history: RunHistory, plan: ResumePlan?, said: BrowserRun.Said) -> JSONValue {
        var history = history
        if let divergence = plan?.divergence { said.notes.append(RunHistory.describe(divergence, file: history.routine.name)) }
        let run = history.begin(plan)
        let id = history.recorder?.runID ?? nextID()
        let live = BrowserRun(id: id, run: run, history: history, said: said)
        runs[id] = live
        touch(id)
        let events = live.begin()
        return live.json(events: events, holder: live.holder)
    }

    /// Marks run `id` as just used, and lets the runs beyond ``keptRuns`` go, oldest first.
    private func touch(_ id: Int64) {
        used.removeAll { $0 == id || runs[$0] == nil }
        used.append(id)
        while used.count > Self.keptRuns { runs[used.removeFirst()] = nil }
    }

    private func nextID() -> Int64 {
        defer { nextUnrecorded += 1 }
        return nextUnrecorded
    }

    /// The run's history; `readOnly` for a look that writes nothing (a writer's open checks
    /// every page of the file first).
    private func open(
        _ loaded: LoadedRoutine, path: String, date: CalendarDate, said: BrowserRun.Said, readOnly: Bool = false
    ) -> Result<RunHistory, HistoryError> {
        let store: HistoryStore?
        do {
            store = try historyPath.flatMap { path throws(HistoryError) in
                try HistoryStore.open(path, create: !readOnly, readOnly: readOnly, syncingThroughAWriter: true)
            }
        } catch {
            return .failure(error)
        }
        return .success(
            RunHistory(
                routine: loaded.routine, source: loaded.file.bytes, path: path, date: date, store: store,
                warn: { said.notes.append($0.message) }, note: { said.notes.append($0) }))
    }

    private func storedRun(_ id: Int64, of routine: Routine) throws(StudioError) -> StoredRun {
        guard let historyPath else { throw StudioError(.notFound, message: "there is no run \(id)") }
        do {
            guard let store = try HistoryStore.open(historyPath, create: false, readOnly: true, syncingThroughAWriter: true),
                let stored = try store.run(id: id),
                stored.kind == .run, stored.routine == routine.name
            else { throw StudioError(.notFound, message: "there is no run \(id) of '\(routine.name)'") }
            return stored
        } catch let error as StudioError {
            throw error
        } catch {
            throw StudioError(.internalServerError, (error as? HistoryError)?.readingDiagnostic ?? Diagnostic(.editRefused, "\(error)", at: nil))
        }
    }

    private func offer(_ plan: ResumePlan, file: String) -> JSONValue {
        .object([
            ("run", .int(Int(plan.stored.id ?? 0))), ("held", .bool(false)), ("step", .int(plan.run.step)),
            ("position", .string(RunHistory.position(of: plan))), ("startedAt", .string(plan.stored.startedAt.description)),
            ("result", .string(plan.stored.resultText)), ("kept", .int(plan.keptSteps)),
            ("dropped", .int(plan.stored.steps.count - plan.keptSteps)),
            ("note", plan.divergence.map { .string(RunHistory.describe($0, file: file)) } ?? .null),
        ])
    }

    private func offer(_ state: JSONValue, held: Bool) -> JSONValue {
        guard case .object(let members) = state else { return state }
        return .object(members.filter { $0.0 != "held" } + [("held", .bool(held))])
    }

    static func heldElsewhere(_ live: BrowserRun) -> StudioError {
        StudioError(.conflict, message: "another page holds this run: take it over to answer here", run: live.json(events: nil, holder: nil))
    }
}
