import RoutineKit

/// A day on which a routine is off (sick, on holiday): every habit of it is not due.
public struct DayOff: Hashable, Sendable {
    public var routine: String
    public var date: CalendarDate
    public var reason: String?
    /// When it was recorded.
    public var recordedAt: Timestamp

    public init(routine: String, date: CalendarDate, reason: String?, recordedAt: Timestamp) {
        self.routine = routine
        self.date = date
        self.reason = reason
        self.recordedAt = recordedAt
    }
}

extension HistoryStore {
    /// Whether `date` is a day off for `routine`, and if so the record of it: what `today`,
    /// the studio and the statistics ask.
    public func dayOff(of routine: String, on date: CalendarDate) throws(HistoryError) -> DayOff? {
        try daysOff(of: routine, from: date, through: date).first
    }

    /// The days off, oldest first (then by routine): of one routine or of all, within the
    /// dates given. A history from before days off existed has none.
    public func daysOff(of routine: String? = nil, from: CalendarDate? = nil, through: CalendarDate? = nil) throws(HistoryError) -> [DayOff] {
        try read { db in
            guard try db.tableExists("dayOff") else { return [] }
            var conditions: [String] = []
            var arguments: [(any DatabaseValueConvertible)?] = []
            if let routine {
                conditions.append("routine = ?")
                arguments.append(routine)
            }
            if let from {
                conditions.append("date >= ?")
                arguments.append(from.description)
            }
            if let through {
                conditions.append("date <= ?")
                arguments.append(through.description)
            }
            let selection = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            let rows = try Row.fetchAll(
                db, sql: "SELECT routine, date, reason, recordedAt FROM dayOff\(selection) ORDER BY date, routine",
                arguments: StatementArguments(arguments))
            return rows.compactMap { row in
                guard let date = CalendarDate(row[1] as String), let at = Timestamp(row[3] as String) else { return nil }
                return DayOff(routine: row[0], date: date, reason: row[2], recordedAt: at)
            }
        }
    }

    /// Records each day off not recorded yet (a day already off keeps its reason); returns
    /// how many were added.
    @discardableResult
    public func insertDaysOff(_ days: [DayOff]) throws(HistoryError) -> Int {
        try writeAndSync { db in
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO dayOff (routine, date, reason, recordedAt) VALUES (?, ?, ?, ?)")
            var added = 0
            for day in days {
                try insert.execute(arguments: [day.routine, day.date.description, day.reason, day.recordedAt.description])
                added += db.changesCount
            }
            return added
        }
    }

    /// Removes the days off of `routine` from `from` through `through`; returns how many there were.
    @discardableResult
    public func deleteDaysOff(of routine: String, from: CalendarDate, through: CalendarDate) throws(HistoryError) -> Int {
        try writeAndSync { db in
            try db.execute(
                sql: "DELETE FROM dayOff WHERE routine = ? AND date BETWEEN ? AND ?",
                arguments: [routine, from.description, through.description])
            return db.changesCount
        }
    }
}
