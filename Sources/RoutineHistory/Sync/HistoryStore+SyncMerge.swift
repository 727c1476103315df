import RoutineKit

/// What a merge reads of the history itself: the run or day off of a key as this device holds it.
extension HistoryStore {
    /// The run of this key in the history, with its id.
    static func localRun(routine: String, date: String, started: String, _ db: Database, _ store: HistoryStore) throws -> StoredRun? {
        let sql = "SELECT id FROM run WHERE routine = ? AND date = ? AND startedAt = ?"
        guard let id = try Int64.fetchOne(db.cachedStatement(sql: sql), arguments: [routine, date, started]) else { return nil }
        return try run(id, db, store)
    }

    static func localDay(routine: String, date: String, _ db: Database) throws -> DayOff? {
        let sql = "SELECT reason, recordedAt FROM dayOff WHERE routine = ? AND date = ?"
        let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [routine, date])
        guard let row, let day = CalendarDate(date), let at = Timestamp(row[1] as String) else { return nil }
        return DayOff(routine: routine, date: day, reason: row[0], recordedAt: at)
    }

    /// Makes the history hold `merged` for this key, keeping the run's id; true when it changed.
    static func setLocalRun(routine: String, date: String, started: String, to merged: StoredRun?, _ db: Database, _ store: HistoryStore) throws
        -> Bool
    {
        let existing = try localRun(routine: routine, date: date, started: started, db, store)
        guard let merged else {
            guard let existing, let id = existing.id else { return false }
            try deleteRun(id, db)
            return true
        }
        if let existing, HistoryJSON.encode(existing) == HistoryJSON.encode(merged) { return false }
        if let id = existing?.id { try deleteRun(id, db) }
        var run = merged
        run.amendments = []
        var id = try insertRun(run, db)
        if let old = existing?.id {
            try db.execute(sql: "UPDATE run SET id = ? WHERE id = ?", arguments: [old, id])
            id = old
        }
        for step in merged.steps { try insertStep(step, run: id, db) }
        for amendment in merged.amendments { try insertAmendment(amendment, run: id, db) }
        return true
    }

    static func setLocalDay(routine: String, date: String, to merged: DayOff?, _ db: Database) throws -> Bool {
        let existing = try localDay(routine: routine, date: date, db)
        if existing == merged { return false }
        try db.execute(sql: "DELETE FROM dayOff WHERE routine = ? AND date = ?", arguments: [routine, date])
        if let merged {
            try db.execute(
                sql: "INSERT INTO dayOff (routine, date, reason, recordedAt) VALUES (?, ?, ?, ?)",
                arguments: [merged.routine, merged.date.description, merged.reason, merged.recordedAt.description])
        }
        return true
    }
}
