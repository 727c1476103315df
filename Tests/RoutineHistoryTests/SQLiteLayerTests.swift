import CSQLite
import Foundation
import RoutineKit
import Testing

@testable import RoutineHistory

/// The history's own layer over SQLite: values bound and read back as they were, errors with
/// SQLite's codes, transactions that roll back, and the files GRDB wrote read as it read them.
struct SQLiteLayerTests {
    /// Every storage class, with the edges of each: NULL, the extreme integers, a negative
    /// zero, an empty text and an empty blob (neither is NULL), a NUL inside both.
    static let values: [DatabaseValue] = [
        .null,
        DatabaseValue(storage: .int64(0)), DatabaseValue(storage: .int64(.max)), DatabaseValue(storage: .int64(.min)),
        DatabaseValue(storage: .double(1.5)), DatabaseValue(storage: .double(-0.0)), DatabaseValue(storage: .double(.greatestFiniteMagnitude)),
        DatabaseValue(storage: .string("")), DatabaseValue(storage: .string("héllo, 世界")), DatabaseValue(storage: .string("a\0b")),
        DatabaseValue(storage: .blob([])), DatabaseValue(storage: .blob([0, 1, 0, 255])),
    ]

    @Test(arguments: values)
    func aBoundValueReadsBackTheSame(_ value: DatabaseValue) throws {
        let queue = try DatabaseQueue()
        let (row, typeName) = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (v)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [value])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT v FROM t"))
            return (row, try String.fetchOne(db, sql: "SELECT typeof(v) FROM t"))
        }
        #expect(row[0] as DatabaseValue == value)
        #expect(row["V"] as DatabaseValue == value)
        let expectedType: String =
            switch value.storage {
            case .null: "null"
            case .int64: "integer"
            case .double: "real"
            case .string: "text"
            case .blob: "blob"
            }
        #expect(typeName == expectedType)
    }

    /// The Swift types the history binds, each read back as itself; nil binds NULL and reads as nil.
    @Test(
        arguments: [
            (any DatabaseValueConvertible & Sendable)?.none, Int(-42), Int64(1) << 40, Int32(0x726F_7574), true, false, 0.25, "tab\there",
            [UInt8]([0, 0, 7]),
        ] as [(any DatabaseValueConvertible & Sendable)?])
    func aSwiftValueReadsBackAsItself(_ value: (any DatabaseValueConvertible & Sendable)?) throws {
        let queue = try DatabaseQueue()
        let stored = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (v)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [value])
            return try #require(try Row.fetchOne(db, sql: "SELECT v FROM t"))[0] as DatabaseValue
        }
        switch value {
        case nil: #expect(stored.isNull)
        case let n as Int: #expect(Int.fromDatabaseValue(stored) == n)
        case let n as Int64: #expect(Int64.fromDatabaseValue(stored) == n)
        case let n as Int32: #expect(Int32.fromDatabaseValue(stored) == n)
        case let b as Bool: #expect(Bool.fromDatabaseValue(stored) == b)
        case let d as Double: #expect(Double.fromDatabaseValue(stored) == d)
        case let s as String: #expect(String.fromDatabaseValue(stored) == s)
        case let b as [UInt8]: #expect([UInt8].fromDatabaseValue(stored) == b)
        default: Issue.record("no check for \(String(describing: value))")
        }
    }

    @Test func fetchesReadFirstColumnsRowsAndCursors() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER, s TEXT); INSERT INTO t VALUES (1, 'a'), (2, NULL), (3, 'c')")
        }
        try queue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT n FROM t WHERE n > ? ORDER BY n", arguments: [1]) == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT n FROM t WHERE n > 9") == nil)
            #expect(try String.fetchOne(db, sql: "SELECT s FROM t WHERE n = 2") == nil)
            #expect(try String.fetchAll(db, sql: "SELECT s FROM t WHERE s IS NOT NULL ORDER BY n") == ["a", "c"])
            let rows = try Row.fetchAll(db, sql: "SELECT n, s FROM t ORDER BY n")
            #expect(rows.map { $0["s"] as String? } == ["a", nil, "c"])
            #expect(rows.first?.columnNames == ["n", "s"])
            let cursor = try Row.fetchCursor(db, sql: "SELECT n FROM t ORDER BY n DESC")
            var seen: [Int] = []
            while let row = try cursor.next() { seen.append(row[0]) }
            #expect(seen == [3, 2, 1])
            #expect(try cursor.next() == nil)
        }
    }

    @Test func aCachedStatementIsOneStatementReset() throws {
        let queue = try DatabaseQueue()
        try queue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            let insert = try db.cachedStatement(sql: "INSERT INTO t VALUES (?)")
            #expect(try db.cachedStatement(sql: "INSERT INTO t VALUES (?)") === insert)
            for n in 1...3 { try insert.execute(arguments: [n]) }
            #expect(db.changesCount == 1)
            #expect(db.lastInsertedRowID == 3)
            let count = try db.cachedStatement(sql: "SELECT count(*) FROM t WHERE n >= ?")
            #expect(try Int.fetchOne(count, arguments: [2]) == 2)
            #expect(try Int.fetchOne(count, arguments: [1]) == 3)
        }
    }

    /// SQL that fails, and the primary and extended codes SQLite gives for it. Foreign keys
    /// are checked on every connection, and a double-quoted name is never a string.
    static let failures: [(sql: String, code: ResultCode, extended: Int32)] = [
        ("INSERT INTO parent VALUES (1, 'b')", .constraint, 1555),  // SQLITE_CONSTRAINT_PRIMARYKEY
        ("INSERT INTO parent VALUES (2, NULL)", .constraint, 1299),  // SQLITE_CONSTRAINT_NOTNULL
        ("INSERT INTO child VALUES (99)", .constraint, 787),  // SQLITE_CONSTRAINT_FOREIGNKEY
        ("SELECT \"nothing\" FROM parent", .error, 1),
        ("SELEC 1", .error, 1),
        ("INSERT INTO parent VALUES (?, 'c')", .misuse, 21),  // no argument for the parameter
    ]

    @Test(arguments: failures)
    func anErrorCarriesSQLiteCode(_ failure: (sql: String, code: ResultCode, extended: Int32)) throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL); CREATE TABLE child (p REFERENCES parent (id))")
            try db.execute(sql: "INSERT INTO parent VALUES (1, 'a')")
        }
        do {
            try queue.write { try $0.execute(sql: failure.sql) }
            Issue.record("'\(failure.sql)' did not fail")
        } catch let error as DatabaseError {
            #expect(error.resultCode == failure.code)
            #expect(error.extendedResultCode.rawValue == failure.extended)
            #expect(error.message?.isEmpty == false)
        }
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM parent") } == 1)
    }

    struct Refusal: Error {}

    @Test(arguments: ["write", "inTransaction", "rollback"])
    func aTransactionThatFailsLeavesNothing(_ way: String) throws {
        let queue = try DatabaseQueue()
        try queue.write { try $0.execute(sql: "CREATE TABLE t (n INTEGER)") }
        switch way {
        case "write":
            #expect(throws: Refusal.self) {
                try queue.write { db in
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                    throw Refusal()
                }
            }
        case "inTransaction":
            #expect(throws: Refusal.self) {
                try queue.inDatabase { db in
                    try db.inTransaction(.immediate) {
                        try db.execute(sql: "INSERT INTO t VALUES (1)")
                        throw Refusal()
                    }
                }
            }
        default:
            try queue.inDatabase { db in
                try db.inTransaction(.deferred) {
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                    return .rollback
                }
            }
        }
        try queue.inDatabase { db throws in
            #expect(!db.isInsideTransaction)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 0)
        }
    }

    @Test func aReadRefusesToWrite() throws {
        let queue = try DatabaseQueue()
        try queue.write { try $0.execute(sql: "CREATE TABLE t (n INTEGER)") }
        do {
            try queue.read { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
            Issue.record("the read wrote")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .readOnly)
        }
        // The connection writes again after the read.
        try queue.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT n FROM t") } == 2)
    }

    // MARK: - A history that GRDB wrote

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A copy of the history that the last binary built with GRDB wrote: four runs (one quit,
    /// one incomplete), a log, two days off and an amendment.
    static func grdbHistory() throws -> String {
        let path = try temporaryHistoryPath()
        try FileManager.default.copyItem(atPath: fixtures.appendingPathComponent("grdb-history.sqlite").path, toPath: path)
        return path
    }

    /// The history as `history export` writes it: runs oldest first, then days off.
    static func export(_ store: HistoryStore) throws -> String {
        let runs = try store.runs(RunFilter(oldestFirst: true)).map { HistoryJSON.encode($0).text + "\n" }
        let days = try store.daysOff().map { HistoryJSON.encode($0).text + "\n" }
        return (runs + days).joined()
    }

    @Test(arguments: [false, true])
    func aHistoryGRDBWroteReadsTheSame(readOnly: Bool) throws {
        let path = try Self.grdbHistory()
        let expected = try String(contentsOf: Self.fixtures.appendingPathComponent("grdb-history.jsonl"), encoding: .utf8)
        let store = try #require(try HistoryStore.open(path, create: false, readOnly: readOnly))
        #expect(try Self.export(store) == expected)
    }

    @Test func aHistoryGRDBWroteTakesANewRun() throws {
        let path = try Self.grdbHistory()
        let expected = try String(contentsOf: Self.fixtures.appendingPathComponent("grdb-history.jsonl"), encoding: .utf8)
        do {
            let store = try #require(try HistoryStore.open(path, create: false))
            try recordRun(store, morning, date: "2026-11-26", decisions: [.decision(.done(value: nil))], end: .quit)
        }
        let store = try #require(try HistoryStore.open(path, create: false))
        let runs = try store.runs(RunFilter(oldestFirst: true))
        #expect(runs.count == 5)
        #expect(runs.last?.date == "2026-11-26")
        #expect(runs.last?.steps.count == 1)
        // What was there is there still, byte for byte.
        let before = try store.runs(RunFilter(until: "2026-11-25", oldestFirst: true)).map { HistoryJSON.encode($0).text + "\n" }
        #expect(expected.hasPrefix(before.joined()))
    }

    /// A new history is made by the same migrations under the same names as GRDB made them:
    /// the same schema, and the names in `grdb_migrations`, so either binary opens the other's.
    @Test func aNewHistoryHasTheSchemaAndNamesGRDBGave() throws {
        let old = try Self.grdbHistory()
        let new = try temporaryHistoryPath()
        _ = try #require(try HistoryStore.open(new, create: true))
        func look(_ path: String) throws -> ([Row], [String], Int32?) {
            let queue = try DatabaseQueue(path: path, configuration: Configuration(readonly: true))
            return try queue.read { db in
                (
                    try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"),
                    try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid"),
                    try Int32.fetchOne(db, sql: "PRAGMA application_id")
                )
            }
        }
        let (oldSchema, oldNames, oldID) = try look(old)
        let (newSchema, newNames, newID) = try look(new)
        #expect(newSchema == oldSchema)
        #expect(newNames == oldNames)
        #expect(newNames.count == 8)
        #expect(newID == oldID)
        #expect(try DatabaseQueue(path: new).read { try HistorySchema.migrator.hasCompletedMigrations($0) })
    }

    @Test func aMigrationThatFailsIsNotRecorded() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("one") { try $0.execute(sql: "CREATE TABLE a (n)") }
        migrator.registerMigration("two") { db in
            try db.execute(sql: "CREATE TABLE b (n)")
            throw Refusal()
        }
        let queue = try DatabaseQueue()
        #expect(throws: Refusal.self) { try migrator.migrate(queue) }
        try queue.read { db throws in
            #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") == ["one"])
            #expect(try db.tableExists("A"))
            #expect(try !db.tableExists("b"))
            #expect(try !migrator.hasCompletedMigrations(db))
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }
}
