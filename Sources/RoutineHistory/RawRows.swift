import GRDB
import GRDBSQLite
import RoutineKit

extension Database {
    /// Steps through the rows of `sql` with SQLite's own calls, handing `body` the statement
    /// positioned on each row: for readers of ten years of steps, where a GRDB row per step
    /// costs more than the query, and every column read is a plain value.
    func forEachRawRow(_ sql: String, arguments: StatementArguments, _ body: (OpaquePointer) throws -> Void) throws {
        let statement = try makeStatement(sql: sql)
        try statement.setArguments(arguments)
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqliteConnection)))
            }
            try body(raw)
        }
    }
}

/// Column `column` of the row `raw` is on, as text; nil for NULL.
func columnText(_ raw: OpaquePointer, _ column: Int32) -> String? {
    columnBytes(raw, column).map { String(decoding: $0, as: UTF8.self) }
}

/// The UTF-8 bytes of text column `column`, valid until the statement moves on; nil for NULL.
func columnBytes(_ raw: OpaquePointer, _ column: Int32) -> UnsafeBufferPointer<UInt8>? {
    // The text first, then its length: SQLite's documented order.
    guard let text = sqlite3_column_text(raw, column) else { return nil }
    return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(raw, column)))
}

/// A column that may be NULL, as a double.
func columnDouble(_ raw: OpaquePointer, _ column: Int32) -> Double? {
    sqlite3_column_type(raw, column) == SQLITE_NULL ? nil : sqlite3_column_double(raw, column)
}

/// A step's result column, told by its first letter: the schema allows only done, skipped,
/// not-scheduled and answered, and ten years of steps are read without making a string each.
func columnResult(_ raw: OpaquePointer, _ column: Int32) -> RecordedStep.Result? {
    guard let text = sqlite3_column_text(raw, column) else { return nil }
    switch text[0] {
    case UInt8(ascii: "d"): return .done
    case UInt8(ascii: "s"): return .skipped
    case UInt8(ascii: "n"): return .notScheduled
    default: return .answered
    }
}
