import RoutineKit

/// What the history holds of one day: what `routine log --date` prints and the studio's day
/// view shows, read by one function for both.
public struct DayRecord: Sendable {
    public var date: CalendarDate
    /// The day's runs and logs, newest first, with their steps and amendments.
    public var runs: [StoredRun]
    /// The days off recorded for that date (one per routine at most).
    public var daysOff: [DayOff]

    public init(date: CalendarDate, runs: [StoredRun] = [], daysOff: [DayOff] = []) {
        self.date = date
        self.runs = runs
        self.daysOff = daysOff
    }

    /// `{"date", "runs": [{"id", "run"}], "daysOff": [...]}`: each `run` exactly as
    /// `log --date --json` prints its line (``HistoryJSON/encode(_:)``), newest first, with the
    /// id a correction names it by; each day off as `history export` writes it.
    public var json: JSONValue {
        .object([
            ("date", .string(date.description)),
            ("runs", .array(runs.map { run in .object([("id", run.id.map { .int(Int($0)) } ?? .null), ("run", HistoryJSON.encode(run))]) })),
            ("daysOff", .array(daysOff.map(HistoryJSON.encode))),
        ])
    }
}

extension HistoryStore {
    /// The runs of `date` (of `routine`, or of every routine when nil; at most `limit`, newest
    /// first) and its days off.
    public func dayRecord(of routine: String?, on date: CalendarDate, limit: Int? = nil) throws(HistoryError) -> DayRecord {
        let day = date.description
        let daysOff = try self.daysOff(of: routine, from: date, through: date)
        return DayRecord(date: date, runs: try runs(RunFilter(routine: routine, since: day, until: day, limit: limit)), daysOff: daysOff)
    }
}
