import CSQLite
import RoutineKit

extension Database {
    /// Steps through the rows of `sql` with SQLite's own calls, handing `body` the statement
    /// positioned on each row: for readers of ten years of steps, where a copied ``Row`` per
    /// step costs more than the query, and every column read is a plain value.
    /// `cached`: the statement is kept for the connection's next call, for a query made once
    /// per key of a sync.
    func forEachRawRow(_ sql: String, arguments: StatementArguments, cached: Bool = false, _ body: (OpaquePointer) throws -> Void) throws {
        try (cached ? cachedStatement(sql: sql) : makeStatement(sql: sql)).forEachRow(arguments: arguments, body)
    }
}

extension Database {
    /// Whether `sql`, with `arguments` bound, gives a row.
    func hasRow(_ sql: String, _ arguments: StatementArguments = []) throws -> Bool {
        var found = false
        try forEachRawRow(sql, arguments: arguments) { _ in found = true }
        return found
    }

    /// Runs the cached statement `sql` once, its parameters bound in order by `bind` with
    /// SQLite's own calls: for writers of a hundred thousand steps, where an array of
    /// ``StatementArguments`` per row would cost more than the insert itself.
    func executeRaw(_ sql: String, _ bind: (inout RawBindings) -> Void) throws {
        let raw = try cachedStatement(sql: sql).sqliteStatement
        defer {
            sqlite3_reset(raw)
            sqlite3_clear_bindings(raw)
        }
        var bindings = RawBindings(raw: raw)
        bind(&bindings)
        let code = sqlite3_step(raw)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqliteConnection)), sql: sql)
        }
    }
}

/// The parameters of one statement, bound from the first on; nil binds NULL.
struct RawBindings {
    let raw: OpaquePointer
    private var index: Int32 = 0

    init(raw: OpaquePointer) { self.raw = raw }

    /// SQLite copies the text: the Swift string it came from may go before the statement runs.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    mutating func text(_ value: String?) {
        index += 1
        guard var value else {
            sqlite3_bind_null(raw, index)
            return
        }
        let at = index
        value.withUTF8 { bytes in
            guard let start = bytes.baseAddress, !bytes.isEmpty else {
                // An empty text, not NULL: SQLite binds NULL for a null pointer.
                _ = sqlite3_bind_text(raw, at, "", 0, Self.transient)
                return
            }
            _ = UnsafeRawPointer(start).withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(raw, at, $0, Int32(bytes.count), Self.transient)
            }
        }
    }

    mutating func int(_ value: Int64?) {
        index += 1
        if let value { sqlite3_bind_int64(raw, index, value) } else { sqlite3_bind_null(raw, index) }
    }

    mutating func int(_ value: Int?) { int(value.map(Int64.init)) }

    mutating func bool(_ value: Bool) { int(value ? 1 : 0 as Int64) }

    mutating func double(_ value: Double?) {
        index += 1
        if let value { sqlite3_bind_double(raw, index, value) } else { sqlite3_bind_null(raw, index) }
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
