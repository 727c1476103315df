import RoutineKit

extension HistoryStore {
    /// The runs of `date` (of `routine`, or of every routine when nil; at most `limit`, newest
    /// first) and its days off.
    public func dayRecord(of routine: String?, on date: CalendarDate, limit: Int? = nil) throws(HistoryError) -> DayRecord {
        let day = date.description
        let daysOff = try self.daysOff(of: routine, from: date, through: date)
        return DayRecord(date: date, runs: try runs(RunFilter(routine: routine, since: day, until: day, limit: limit)), daysOff: daysOff)
    }
}
