import RoutineKit

/// What a stored run is: a walk through the routine, or a log of one habit made outside a run.
public enum RunKind: String, Hashable, Sendable {
    case run, log
}

/// One run as the history keeps it.
public struct StoredRun: Hashable, Sendable {
    /// The database's row id; not part of what is exported.
    public var id: Int64?
    /// The routine's name: a routine's identity in the history, whatever file it is in.
    public var routine: String
    /// The absolute path of the routine's file when the run started.
    public var path: String
    /// ``sourceHash(_:)`` of the file's bytes when the run started.
    public var sourceHash: String
    /// `YYYY-MM-DD`: the day the run counts for (its start date, or `--date`).
    public var date: String
    public var startedAt: Timestamp
    /// The local offset from UTC when the run started, in seconds.
    public var utcOffset: Int
    public var endedAt: Timestamp?
    /// Nil while no end is recorded: the run reads as `unfinished`.
    public var result: RunResult?
    public var reachedEnd: Bool
    public var kind: RunKind = .run
    public var steps: [StoredStep] = []
    /// The changes made to its steps afterwards, oldest first (``Amendment``).
    public var amendments: [Amendment] = []

    public init(
        id: Int64? = nil, routine: String, path: String, sourceHash: String, date: String, startedAt: Timestamp,
        utcOffset: Int, endedAt: Timestamp? = nil, result: RunResult? = nil, reachedEnd: Bool = false, kind: RunKind = .run,
        steps: [StoredStep] = []
    ) {
        self.id = id
        self.routine = routine
        self.path = path
        self.sourceHash = sourceHash
        self.date = date
        self.startedAt = startedAt
        self.utcOffset = utcOffset
        self.endedAt = endedAt
        self.result = result
        self.reachedEnd = reachedEnd
        self.kind = kind
        self.steps = steps
    }

    /// `completed`, `quit`, `incomplete`, `interrupted`, or `unfinished`.
    public var resultText: String { result?.rawValue ?? "unfinished" }

    /// What `log` shows as its result: `logged` for a log, else ``resultText``.
    public var shownResult: String { kind == .log ? "logged" : resultText }

    /// Whether a later run of the same day may take it up again.
    public var isResumable: Bool { kind == .run && result != .completed }

    /// The columns ``init(row:)`` reads, in its order: rows are read by position, since a
    /// lookup by name per column and row costs more than the rest of reading ten years.
    static func columns(_ store: HistoryStore) -> String {
        "id, routine, path, sourceHash, date, startedAt, utcOffset, endedAt, result, reachedEnd, " + (store.flags.hasLogColumns ? "kind" : "'run'")
    }

    /// The run on the row `row`, from ``columns``.
    init(row: Row) {
        func timestamp(_ column: Int) -> Timestamp? { row.timestamp(column) }
        self.init(
            id: row.int64(0), routine: row.text(1) ?? "", path: row.text(2) ?? "",
            sourceHash: row.text(3) ?? "", date: row.text(4) ?? "",
            startedAt: timestamp(5) ?? Timestamp(milliseconds: 0), utcOffset: row.int(6),
            endedAt: timestamp(7), result: row.text(8).flatMap(RunResult.init),
            reachedEnd: row.bool(9), kind: row.text(10) == "log" ? .log : .run)
    }
}

/// One step of a stored run.
public struct StoredStep: Hashable, Sendable {
    public var decision: RecordedStep
    /// The title or prompt as it was at the time.
    public var title: String
    /// A numeric habit's target and unit as they were.
    public var target: Double?
    public var unit: String?
    public var decidedAt: Timestamp
    /// How long the person took over the step, on a monotonic clock; nil when nobody was
    /// timed (a scripted run, a habit passed over, a history written before v4 imported so).
    public var seconds: Double?
    /// Why a run passed over a habit another record had done that day (``PassReason``).
    public var reason: PassReason?

    public init(
        decision: RecordedStep, title: String, target: Double? = nil, unit: String? = nil, decidedAt: Timestamp, seconds: Double?,
        reason: PassReason? = nil
    ) {
        self.decision = decision
        self.title = title
        self.target = target
        self.unit = unit
        self.decidedAt = decidedAt
        self.seconds = seconds
        self.reason = reason
    }

    /// The columns ``init(row:)`` reads, in its order, after the run's id.
    static func columns(_ store: HistoryStore) -> String {
        "runId, step, node, kind, title, result, value, target, unit, optionIndex, optionText, decidedAt, seconds, "
            + (store.flags.hasLogColumns ? "reason" : "NULL")
    }

    /// The step on the row `row`, from ``columns``.
    init(row: Row) {
        let option = row.optionalInt(9)
        decision = RecordedStep(
            step: row.int(1), node: row.text(2) ?? "",
            kind: row.text(3) == "question" ? .question : .habit,
            result: row.text(5).flatMap(RecordedStep.Result.init(rawValue:)) ?? .done, value: row.optionalDouble(6),
            option: option, optionText: row.text(10))
        title = row.text(4) ?? ""
        target = row.optionalDouble(7)
        unit = row.text(8)
        decidedAt = row.timestamp(11) ?? Timestamp(milliseconds: 0)
        seconds = row.optionalDouble(12)
        reason = row.text(13).flatMap(PassReason.init(rawValue:))
    }
}
