import RoutineKit

extension HistoryStore {
    /// For each habit of `routine` with a weekly quota (by node index), the days of `date`'s
    /// ISO week, Monday through `date`, on which it was done; `run` is left out (the run being
    /// resumed). Empty when the routine has no quota.
    public func doneThisWeek(_ routine: Routine, on date: CalendarDate, excluding run: Int64? = nil) throws(HistoryError) -> [Int: Int] {
        let quotas = (0..<routine.nodeCount).filter { routine.perWeek(of: $0) != nil }
        guard !quotas.isEmpty else { return [:] }
        let days = try doneDays(of: routine.name, from: date.weekStart.description, through: date.description, excluding: run)
        var counts: [Int: Int] = [:]
        for index in quotas { counts[index] = days[routine.id(of: index)] ?? 0 }
        return counts
    }
}
