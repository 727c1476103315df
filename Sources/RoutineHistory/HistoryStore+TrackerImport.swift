import GRDB
import RoutineKit

/// Another tracker's days written as logs of the routine an import wrote.
extension HistoryStore {
    /// Calls `produce` inside one transaction with a function that adds one log unless a run
    /// of the same routine, date and start time is there already; returns how many were added.
    /// Anything `produce` throws rolls the whole import back.
    public func importLogs(_ produce: ((StoredRun) throws -> Void) throws -> Void) throws -> Int {
        var failure: Error?
        do {
            return try importing(&failure, produce)
        } catch {
            throw failure ?? error
        }
    }

    private func importing(_ failure: inout Error?, _ produce: ((StoredRun) throws -> Void) throws -> Void) throws(HistoryError) -> Int {
        try write { db in
            var added = 0
            let exists = try db.cachedStatement(sql: "SELECT 1 FROM run WHERE routine = ? AND date = ? AND startedAt = ?")
            do {
                try produce { run in
                    if try Bool.fetchOne(exists, arguments: [run.routine, run.date, run.startedAt.description]) == true { return }
                    let id = try Self.insertRun(run, db)
                    for step in run.steps { try Self.insertStep(step, run: id, db) }
                    added += 1
                }
            } catch let error as DatabaseError {
                throw error
            } catch {
                // Not SQLite's: handed back as it is, after the rollback.
                failure = error
                throw DatabaseError(resultCode: .SQLITE_ABORT, message: "import stopped")
            }
            return added
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
