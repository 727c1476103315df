import RoutineKit

/// Another tracker's days written as logs of the routine an import wrote.
extension HistoryStore {
    /// What became of one tracker log handed to ``importLogs(_:)``.
    public enum ImportedLog: Sendable {
        case added
        /// The same log, from an earlier import of the same day.
        case alreadyThere
        /// The day already holds that habit, done or skipped, by a run or a log of its own:
        /// the import adds nothing that would count the day twice.
        case alreadyRecorded
    }

    /// Calls `produce` inside one transaction with a function that adds one log, unless the
    /// same log (routine, date, start time) is there already or the day already holds its
    /// habit; it says which. Anything `produce` throws rolls the whole import back.
    public func importLogs(_ produce: ((StoredRun) throws -> ImportedLog) throws -> Void) throws {
        var failure: Error?
        do {
            try importing(&failure, produce)
        } catch {
            throw failure ?? error
        }
    }

    private func importing(_ failure: inout Error?, _ produce: ((StoredRun) throws -> ImportedLog) throws -> Void) throws(HistoryError) {
        try writeAndSync { db in
            let exists = try db.cachedStatement(sql: "SELECT 1 FROM run WHERE routine = ? AND date = ? AND startedAt = ?")
            let recorded = try db.cachedStatement(
                sql: """
                    SELECT 1 FROM run JOIN step ON step.runId = run.id
                    WHERE run.routine = ? AND run.date = ? AND step.node = ? AND step.kind = 'habit' AND step.result IN ('done', 'skipped')
                    LIMIT 1
                    """)
            do {
                try produce { run in
                    if try Bool.fetchOne(exists, arguments: [run.routine, run.date, run.startedAt.description]) == true { return .alreadyThere }
                    for step in run.steps {
                        if try Bool.fetchOne(recorded, arguments: [run.routine, run.date, step.decision.node]) == true { return .alreadyRecorded }
                    }
                    let id = try Self.insertRun(run, db)
                    for step in run.steps { try Self.insertStep(step, run: id, db) }
                    return .added
                }
            } catch let error as DatabaseError {
                throw error
            } catch {
                // Not SQLite's: handed back as it is, after the rollback.
                failure = error
                throw DatabaseError(resultCode: .abort, message: "import stopped")
            }
        }
    }

    /// A tracker's day as a log: one habit step, done (with its amount) or skipped, dated the
    /// day at noon UTC plus the habit's position in milliseconds, so that the same day of the
    /// same habit is the same log whenever it is imported.
    public static func trackerLog(
        _ result: RecordedStep.Result, value: Double?, of routine: Routine, node index: Int, on date: CalendarDate, path: String,
        sourceHash: String
    ) -> StoredRun {
        let at = Timestamp(milliseconds: Int64(date.dayNumber) * 86_400_000 + 43_200_000 + Int64(index))
        let target = routine.target(of: index)
        let step = StoredStep(
            decision: RecordedStep(step: 1, node: routine.id(of: index), kind: .habit, result: result, value: value),
            title: routine.title(of: index), target: target?.amount, unit: target?.unit, decidedAt: at, seconds: nil)
        return StoredRun(
            routine: routine.name, path: path, sourceHash: sourceHash, date: date.description, startedAt: at, utcOffset: 0, endedAt: at,
            result: .completed, kind: .log, steps: [step])
    }
}
