import RoutineKit

/// A run taken out of the history (the studio's "delete run"), with every row that hung on
/// it, column by column, so that ``HistoryStore/restore(_:)`` puts it back as it was: the
/// same id, the same steps, the same amendments in the same order.
public struct DeletedRun: Sendable, Hashable {
    /// The run as it was, steps and amendments included: what `history export` wrote of it.
    public let run: StoredRun
    /// The rows of `run`, `step` and `amendment`, each as its columns' names and values.
    let rows: [Table]

    struct Table: Sendable, Hashable {
        var name: String
        var columns: [String]
        var rows: [[DatabaseValue]]
    }

    public var id: Int64 { run.id ?? 0 }
}

/// Why a deleted run cannot be put back.
public enum RestoreRefusal: Error, Sendable, Hashable {
    /// A run of the same routine, date and start time was recorded since (an import of it).
    case startTaken
}

extension HistoryStore {
    /// Takes run `id` out of the history with its steps and amendments, in one transaction,
    /// and returns everything it held; nil when there is no such run. Nothing else keeps the
    /// rows: the caller holds them to offer the undo, or to say what was removed.
    public func deleteRun(id: Int64) throws(HistoryError) -> DeletedRun? {
        try writeAndSync { db in
            guard let run = try Self.run(id, db, self) else { return nil }
            var tables: [DeletedRun.Table] = []
            for (table, key, order) in [("run", "id", "id"), ("step", "runId", "step"), ("amendment", "runId", "id")] where try db.tableExists(table)
            {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table) WHERE \(key) = ? ORDER BY \(order)", arguments: [id])
                guard let first = rows.first else { continue }
                let columns = Array(first.columnNames)
                tables.append(.init(name: table, columns: columns, rows: rows.map { row in columns.indices.map { row[$0] as DatabaseValue } }))
            }
            try Self.deleteRun(id, db)
            return DeletedRun(run: run, rows: tables)
        }
    }

    /// Puts a deleted run back, row for row, in one transaction: its id, steps and amendments as
    /// they were, so that an export afterwards is the export before, byte for byte. When the
    /// id or an amendment's id was taken meanwhile (a new run or correction), those rows get
    /// new ids, in their old order. Refused when a run of the same start is there again.
    /// Returns the run's id.
    public func restore(_ deleted: DeletedRun) throws(HistoryError) -> Result<Int64, RestoreRefusal> {
        try writeAndSync { db in
            let run = deleted.run
            let taken = "SELECT 1 FROM run WHERE routine = ? AND date = ? AND startedAt = ?"
            if try Bool.fetchOne(db, sql: taken, arguments: [run.routine, run.date, run.startedAt.description]) == true {
                return .failure(.startTaken)
            }
            var runID = deleted.id
            for table in deleted.rows {
                var columns = table.columns
                var rows = table.rows
                let idTaken: Bool
                switch table.name {
                case "run": idTaken = try Bool.fetchOne(db, sql: "SELECT 1 FROM run WHERE id = ?", arguments: [runID]) == true
                case "amendment":
                    let k = columns.firstIndex(of: "id") ?? 0
                    let ids = rows.compactMap { Int64.fromDatabaseValue($0[k]) }
                    idTaken = try ids.contains { try Bool.fetchOne(db, sql: "SELECT 1 FROM amendment WHERE id = ?", arguments: [$0]) == true }
                default: idTaken = false
                }
                if idTaken, let k = columns.firstIndex(of: "id") {
                    columns.remove(at: k)
                    rows = rows.map {
                        var row = $0
                        row.remove(at: k)
                        return row
                    }
                }
                if let k = columns.firstIndex(of: "runId") {
                    rows = rows.map {
                        var row = $0
                        row[k] = runID.databaseValue
                        return row
                    }
                }
                let names = columns.map { "\"\($0)\"" }.joined(separator: ", ")
                let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
                for row in rows {
                    try db.execute(sql: "INSERT INTO \(table.name) (\(names)) VALUES (\(marks))", arguments: StatementArguments(row))
                }
                if table.name == "run", idTaken { runID = db.lastInsertedRowID }
            }
            return .success(runID)
        }
    }

    /// Removes run `id` with its steps and amendments.
    static func deleteRun(_ id: Int64, _ db: Database) throws {
        for table in ["amendment", "step"] { try db.execute(sql: "DELETE FROM \(table) WHERE runId = ?", arguments: [id]) }
        try db.execute(sql: "DELETE FROM run WHERE id = ?", arguments: [id])
    }
}
