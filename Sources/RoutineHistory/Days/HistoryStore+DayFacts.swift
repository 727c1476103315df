import RoutineKit

extension HistoryStore {
    /// What the history says about `routine` on `date` (``DayFacts``), leaving out run `excluded`
    /// (one being resumed, whose own steps are replayed).
    public func dayFacts(of routine: Routine, on date: CalendarDate, excluding excluded: Int64? = nil) throws(HistoryError) -> DayFacts {
        try read { db in try dayFacts(db, routine, date, excluding: excluded) }
    }

    /// The habits a log or another run already did on `date`, by node index, with the first
    /// one that did each: what a run of that day passes over (run `excluded` left out).
    public func doneEarlier(of routine: Routine, on date: CalendarDate, excluding excluded: Int64? = nil) throws(HistoryError) -> [Int: Completion] {
        DayRules(routine: routine, facts: try dayFacts(of: routine, on: date, excluding: excluded), unconditional: []).completions
    }

    func dayFacts(_ db: Database, _ routine: Routine, _ date: CalendarDate, excluding excluded: Int64?) throws -> DayFacts {
        var facts = DayFacts(date: date)
        let day = date.description
        let kind = flags.hasLogColumns ? "kind" : "'run'"
        var completedRuns: Set<Int64> = []
        try db.forEachRow(
            "SELECT \(kind) = 'log', result = 'completed', id FROM run WHERE routine = ? AND date = ? AND id IS NOT ?",
            arguments: [routine.name, day, excluded]
        ) { row in
            guard row.int64(0) == 0 else { return }
            facts.hadRun = true
            if row.bool(1) { completedRuns.insert(row.int64(2)) }
        }
        if try db.tableExists("dayOff") {
            try db.forEachRow("SELECT reason FROM dayOff WHERE routine = ? AND date = ?", arguments: [routine.name, day]) { row in
                facts.dayOff = DayOffNote(reason: row.text(0))
            }
        }
        // Runs whose answers were amended count as the statistics replay them (``amendedRuns``).
        let amended = try amendedRuns(db, routine, date, excluding: excluded)
        for (id, replay) in amended where completedRuns.contains(id) && !replay.completes { completedRuns.remove(id) }
        facts.runCompleted = !completedRuns.isEmpty
        for replay in amended.values { facts.ledToByAmendedAnswers.formUnion(replay.ledTo) }
        let ids = routine.indexByID()
        let dayBytes = Array(day.utf8)
        // The days before `date` on which each habit was done: the rows come in order of their
        // day, so a day is counted once per habit when it differs from the last one counted.
        var doneDays = [Int](repeating: 0, count: routine.nodeCount)
        var lastCounted = [Int](repeating: -1, count: routine.nodeCount)
        var earlierDay: [UInt8] = []
        var earlierDays = -1
        // Ordered by day alone, as the index on (routine, date) gives the runs: the day's own
        // entries, a few dozen, are put in order here, where SQLite would sort the whole week.
        let sql = """
            SELECT run.date, run.\(kind) = 'log', run.utcOffset, step.node, step.result, step.value, step.seconds, step.decidedAt,
                run.id, step.step
            FROM run CROSS JOIN step ON step.runId = run.id
            WHERE run.routine = ? AND run.date BETWEEN ? AND ? AND run.id IS NOT ? AND step.kind = 'habit'
            ORDER BY run.date
            """
        struct Ordered {
            var decidedAt: [UInt8]
            var run, step: Int64
            var entry: DayEntry
        }
        var entries: [Ordered] = []
        try db.forEachRow(sql, arguments: [routine.name, date.weekStart.description, day, excluded]) { row in
            guard let rowDay = row.bytes(0), let node = row.text(3).flatMap({ ids[$0] }),
                let result = row.stepResult(4)
            else { return }
            if !rowDay.elementsEqual(dayBytes) {
                guard result == .done else { return }
                if !rowDay.elementsEqual(earlierDay) {
                    earlierDay = Array(rowDay)
                    earlierDays += 1
                }
                if lastCounted[node] != earlierDays {
                    lastCounted[node] = earlierDays
                    doneDays[node] += 1
                }
                return
            }
            let decidedAt = row.bytes(7)
            let at = decidedAt.flatMap(Timestamp.init(utf8:)) ?? Timestamp(milliseconds: 0)
            let entry = DayEntry(
                node: node, result: result, value: row.optionalDouble(5), seconds: row.double(6),
                source: row.bool(1) ? .log : .run, time: at.clockTime(offset: row.int(2)))
            let (run, step) = (row.int64(8), row.int64(9))
            if let replay = amended[run], !replay.kept.contains(node) { return }
            entries.append(Ordered(decidedAt: decidedAt.map(Array.init) ?? [], run: run, step: step, entry: entry))
        }
        // As SQLite orders text: by bytes.
        entries.sort { a, b in
            if a.decidedAt != b.decidedAt { return a.decidedAt.lexicographicallyPrecedes(b.decidedAt) }
            return a.run != b.run ? a.run < b.run : a.step < b.step
        }
        facts.entries = entries.map { $0.entry }
        for (node, count) in doneDays.enumerated() where count > 0 { facts.doneEarlierThisWeek[node] = count }
        if facts.hadRun, !facts.runCompleted, let reachable = try stillReachable(db, routine, facts, excluding: excluded) {
            facts.stillReachable = reachable
            facts.reachableAreCertain = !reachable.contains { routine.isQuestion($0) || routine.targets(of: $0).contains(.end) }
        }
        return facts
    }

    /// What a run whose answers were amended comes to, replayed with the answers it holds now
    /// by the statistics' rule (``StopAnalyzer/replayingAnswers(of:)``): the habits whose steps
    /// still count, the habits the new answers lead to that it never recorded, and whether
    /// nothing else is left to come.
    struct AmendedReplay {
        var kept: Set<Int>
        var ledTo: Set<Int>
        var completes: Bool
    }

    /// The day's runs (by ID) with an amended answer, replayed; empty for most days.
    private func amendedRuns(_ db: Database, _ routine: Routine, _ date: CalendarDate, excluding excluded: Int64?) throws
        -> [Int64: AmendedReplay]
    {
        guard flags.hasAnswerAmendments else { return [:] }
        var ids: [Int64] = []
        let sql = """
            SELECT DISTINCT amendment.runId FROM amendment CROSS JOIN run ON run.id = amendment.runId
            WHERE run.routine = ? AND run.date = ? AND run.id IS NOT ? AND amendment.result = 'answered'
            """
        try db.forEachRow(sql, arguments: [routine.name, date.description, excluded]) { ids.append($0.int64(0)) }
        var replays: [Int64: AmendedReplay] = [:]
        for id in ids {
            var steps: [StoredStep] = []
            try db.forEachRow("SELECT \(StoredStep.columns(self)) FROM step WHERE runId = ? ORDER BY step", arguments: [id]) {
                steps.append(StoredStep(row: $0))
            }
            var recorded = StatsRun(date: date, completed: true, recorded: steps.map(\.decision), in: routine)
            recorded.answersAmended = true
            let replayed = StopAnalyzer(routine: routine).replayingAnswers(of: recorded)
            let kept = Set(replayed.steps.map(\.node))
            var ledTo: Set<Int> = []
            var completes = true
            if let stop = replayed.stop {
                for node in 0..<routine.nodeCount where !routine.isQuestion(node) && !kept.contains(node) {
                    switch stop.status(of: node) {
                    case .missed: ledTo.insert(node)
                    case .unknown: completes = false
                    default: break
                    }
                }
            }
            replays[id] = AmendedReplay(kept: kept, ledTo: ledTo, completes: completes)
        }
        return replays
    }

    /// The nodes the day's newest run can still reach, replayed from its steps as a resume
    /// would; nil when there is none. A step the replay cannot take (the routine changed)
    /// stops it there, so that more is kept reachable, never less.
    private func stillReachable(_ db: Database, _ routine: Routine, _ facts: DayFacts, excluding excluded: Int64?) throws -> Set<Int>? {
        let kind = flags.hasLogColumns ? "kind = 'run' AND " : ""
        let sql =
            "SELECT \(StoredRun.columns(self)) FROM run WHERE \(kind)routine = ? AND date = ? AND id IS NOT ? ORDER BY startedAt DESC, id DESC LIMIT 1"
        var found: StoredRun?
        try db.forEachRow(sql, arguments: [routine.name, facts.date.description, excluded]) { found = StoredRun(row: $0) }
        guard var stored = found, let id = stored.id else { return nil }
        try db.forEachRow("SELECT \(StoredStep.columns(self)) FROM step WHERE runId = ? ORDER BY step", arguments: [id]) {
            stored.steps.append(StoredStep(row: $0))
        }
        let earlier = DayRules(routine: routine, facts: facts, unconditional: []).completions
        let plan = ResumePlan(stored, routine: routine, date: facts.date, doneThisWeek: facts.doneEarlierThisWeek, doneEarlier: earlier)
        return Set((0..<routine.nodeCount).filter { plan.run.canStillRun($0) })
    }
}
