import GRDB
import RoutineKit

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
    public var steps: [StoredStep] = []

    public init(
        id: Int64? = nil, routine: String, path: String, sourceHash: String, date: String, startedAt: Timestamp,
        utcOffset: Int, endedAt: Timestamp? = nil, result: RunResult? = nil, reachedEnd: Bool = false, steps: [StoredStep] = []
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
        self.steps = steps
    }

    /// `completed`, `quit`, `incomplete`, `interrupted`, or `unfinished`.
    public var resultText: String { result?.rawValue ?? "unfinished" }

    /// Whether a later run of the same day may take it up again.
    public var isResumable: Bool { result != .completed }

    /// The columns ``init(row:)`` reads, in its order: rows are read by position, since a
    /// lookup by name per column and row costs more than the rest of reading ten years.
    static let columns = "id, routine, path, sourceHash, date, startedAt, utcOffset, endedAt, result, reachedEnd"

    init(row: Row) {
        self.init(
            id: row[0], routine: row[1], path: row[2], sourceHash: row[3], date: row[4],
            startedAt: Timestamp(row[5] as String) ?? Timestamp(milliseconds: 0), utcOffset: row[6],
            endedAt: (row[7] as String?).flatMap(Timestamp.init), result: (row[8] as String?).flatMap(RunResult.init),
            reachedEnd: row[9])
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
    /// Seconds since the previous step (or since the run started or resumed).
    public var seconds: Double

    public init(decision: RecordedStep, title: String, target: Double? = nil, unit: String? = nil, decidedAt: Timestamp, seconds: Double) {
        self.decision = decision
        self.title = title
        self.target = target
        self.unit = unit
        self.decidedAt = decidedAt
        self.seconds = seconds
    }

    /// The columns ``init(row:)`` reads, in its order, after the run's id.
    static let columns = "runId, step, node, kind, title, result, value, target, unit, optionIndex, optionText, decidedAt, seconds"

    init(row: Row) {
        let kind: String = row[3]
        let result: String = row[5]
        decision = RecordedStep(
            step: row[1], node: row[2], kind: kind == "question" ? .question : .habit,
            result: RecordedStep.Result(rawValue: result) ?? .done, value: row[6], option: row[9], optionText: row[10])
        title = row[4]
        target = row[7]
        unit = row[8]
        decidedAt = Timestamp(row[11] as String) ?? Timestamp(milliseconds: 0)
        seconds = row[12]
    }
}
