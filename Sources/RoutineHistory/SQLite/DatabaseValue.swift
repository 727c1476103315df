import CSQLite

/// One SQLite value, of the storage class SQLite gave it.
struct DatabaseValue: Hashable, Sendable, CustomStringConvertible {
    enum Storage: Hashable, Sendable {
        case null
        case int64(Int64)
        case double(Double)
        case string(String)
        case blob([UInt8])
    }

    let storage: Storage

    static let null = DatabaseValue(storage: .null)

    var isNull: Bool { storage == .null }

    /// Column `index` of the row `statement` is on.
    init(_ statement: OpaquePointer, _ index: Int32) {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: storage = .int64(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: storage = .double(sqlite3_column_double(statement, index))
        // By length: a text may hold a NUL.
        case SQLITE_TEXT: storage = .string(columnText(statement, index) ?? "")
        case SQLITE_BLOB:
            // The pointer first, then the length: SQLite's documented order. An empty blob has no pointer.
            let bytes = sqlite3_column_blob(statement, index)
            let count = Int(sqlite3_column_bytes(statement, index))
            storage = .blob(bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? [])
        default: storage = .null
        }
    }

    init(storage: Storage) { self.storage = storage }

    var description: String {
        switch storage {
        case .null: "NULL"
        case .int64(let n): "\(n)"
        case .double(let d): "\(d)"
        case .string(let s): String(reflecting: s)
        case .blob(let b): "<\(b.count) bytes>"
        }
    }
}

/// A Swift type that is stored as, and read from, an SQLite value.
protocol DatabaseValueConvertible {
    var databaseValue: DatabaseValue { get }
    /// The value as this type, or nil when it is not of a storage class this type reads.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
    /// Column `index` of the row `statement` is on, never NULL; nil when it cannot be this type.
    static func fromStatement(_ statement: OpaquePointer, _ index: Int32) -> Self?
}

extension DatabaseValueConvertible {
    static func fromStatement(_ statement: OpaquePointer, _ index: Int32) -> Self? {
        fromDatabaseValue(DatabaseValue(statement, index))
    }
}

extension DatabaseValue: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { self }
    static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

/// NULL reads as nil; a value of a class the wrapped type does not read fails.
extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { self?.databaseValue ?? .null }

    static func fromDatabaseValue(_ value: DatabaseValue) -> Self? {
        if let wrapped = Wrapped.fromDatabaseValue(value) { return .some(wrapped) }
        return value.isNull ? .some(.none) : .none
    }

    static func fromStatement(_ statement: OpaquePointer, _ index: Int32) -> Self? {
        if sqlite3_column_type(statement, index) == SQLITE_NULL { return .some(.none) }
        return Wrapped.fromStatement(statement, index).map { .some($0) }
    }
}

// A fetch of these types straight from a statement takes SQLite's own conversions, as the
// queries written for them expect (`SELECT 1` read as a Bool); a copied row's value is
// converted only from an integer or a double.

extension Int64: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self)) }

    static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
        switch value.storage {
        case .int64(let n): return n
        case .double(let d): return d >= Double(Int64.min) && d < Double(Int64.max) ? Int64(d) : nil
        default: return nil
        }
    }

    static func fromStatement(_ statement: OpaquePointer, _ index: Int32) -> Int64? { sqlite3_column_int64(statement, index) }
}

extension Int: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { Int64(self).databaseValue }
    static func fromDatabaseValue(_ value: DatabaseValue) -> Int? { Int64.fromDatabaseValue(value).flatMap { Int(exactly: $0) } }
    static func fromStatement(_ statement: OpaquePointer, _ index: Int32) -> Int? { Int(exactly: sqlite3_column_int64(statement, index)) }
}

extension Int32: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { Int64(self).databaseValue }
    static func fromDatabaseValue(_ value: DatabaseValue) -> Int32? { Int64.fromDatabaseValue(value).flatMap { Int32(exactly: $0) } }
    static func fromStatement(_ statement: OpaquePointer, _ index: Int32) -> Int32? { Int32(exactly: sqlite3_column_int64(statement, index)) }
}

extension Bool: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { Int64(self ? 1 : 0).databaseValue }

    static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        switch value.storage {
        case .int64(let n): return n != 0
        case .double(let d): return d != 0
        default: return nil
        }
    }

    static func fromStatement(_ statement: OpaquePointer, _ index: Int32) -> Bool? { sqlite3_column_int64(statement, index) != 0 }
}

extension Double: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { DatabaseValue(storage: .double(self)) }

    static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value.storage {
        case .int64(let n): return Double(n)
        case .double(let d): return d
        default: return nil
        }
    }

    static func fromStatement(_ statement: OpaquePointer, _ index: Int32) -> Double? { sqlite3_column_double(statement, index) }
}

extension String: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }

    static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .string(let s): return s
        case .blob(let b): return String(validating: b, as: UTF8.self)
        default: return nil
        }
    }

    static func fromStatement(_ statement: OpaquePointer, _ index: Int32) -> String? { columnText(statement, index) }
}

/// A blob.
extension [UInt8]: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { DatabaseValue(storage: .blob(self)) }

    static func fromDatabaseValue(_ value: DatabaseValue) -> [UInt8]? {
        switch value.storage {
        case .blob(let b): return b
        case .string(let s): return Array(s.utf8)
        default: return nil
        }
    }
}

/// Column `column` of the row `statement` is on, as text by its length; nil for NULL.
private func columnText(_ statement: OpaquePointer, _ column: Int32) -> String? {
    // The text first, then its length: SQLite's documented order.
    guard let text = sqlite3_column_text(statement, column) else { return nil }
    return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
}
