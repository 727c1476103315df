/// Named migrations, applied in order, each once. The names applied are rows of the table
/// `grdb_migrations (identifier)`, where histories written with GRDB keep them: the same
/// table, the same names, the same way of applying them, so that a file reads the same to
/// every binary.
struct DatabaseMigrator {
    private var migrations: [(identifier: String, migrate: (Database) throws -> Void)] = []

    mutating func registerMigration(_ identifier: String, migrate: @escaping (Database) throws -> Void) {
        precondition(!migrations.contains { $0.identifier == identifier }, "the migration '\(identifier)' is registered twice")
        migrations.append((identifier, migrate))
    }

    /// The names of the migrations, in order.
    var identifiers: [String] { migrations.map { $0.identifier } }

    /// Applies every migration the file has not.
    func migrate(_ queue: DatabaseQueue) throws {
        guard let last = migrations.last else { return }
        try migrate(queue, upTo: last.identifier)
    }

    /// Applies the migrations up to `target`, included, that the file has not.
    func migrate(_ queue: DatabaseQueue, upTo target: String) throws {
        guard let end = migrations.firstIndex(where: { $0.identifier == target }) else {
            preconditionFailure("no migration '\(target)'")
        }
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            let applied = try appliedIdentifiers(db)
            for migration in migrations[...end] where !applied.contains(migration.identifier) {
                try run(migration, db)
            }
        }
    }

    /// One migration in an IMMEDIATE transaction with its name. With foreign keys on, they
    /// are off meanwhile and checked whole before the commit, as SQLite asks of a change to a
    /// table (https://www.sqlite.org/lang_altertable.html#otheralter, steps 1, 2, 10 to 12).
    private func run(_ migration: (identifier: String, migrate: (Database) throws -> Void), _ db: Database) throws {
        let checksKeys = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
        if checksKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
        var firstError: (any Error)?
        do {
            try db.inTransaction(.immediate) {
                try migration.migrate(db)
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
                if checksKeys, let table = try String.fetchOne(db, sql: "PRAGMA foreign_key_check") {
                    throw DatabaseError(resultCode: .constraintForeignKey, message: "FOREIGN KEY constraint violation in \(table)")
                }
                return .commit
            }
        } catch {
            firstError = error
        }
        if checksKeys {
            do {
                try db.execute(sql: "PRAGMA foreign_keys = ON")
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
    }

    /// Every name the file records, known to this binary or not; none before the first
    /// migration. `hasTable`: whether the file has the migrations' table, when the caller
    /// knows already.
    func appliedIdentifiers(_ db: Database, hasTable: Bool? = nil) throws -> Set<String> {
        guard try hasTable ?? db.tableExists("grdb_migrations") else { return [] }
        var applied: Set<String> = []
        try db.forEachRow("SELECT identifier FROM grdb_migrations") { applied.insert($0.text(0) ?? "") }
        return applied
    }

    /// Whether the file has every migration this binary knows.
    func hasCompletedMigrations(_ db: Database) throws -> Bool {
        hasCompleted(try appliedIdentifiers(db))
    }

    /// Whether the file has a migration this binary does not know: it was written by a newer
    /// program.
    func hasBeenSuperseded(_ db: Database) throws -> Bool {
        hasBeenSuperseded(try appliedIdentifiers(db))
    }

    /// Whether `applied` (``appliedIdentifiers(_:hasTable:)``) holds every migration this binary knows.
    func hasCompleted(_ applied: Set<String>) -> Bool {
        migrations.allSatisfy { applied.contains($0.identifier) }
    }

    /// Whether `applied` (``appliedIdentifiers(_:hasTable:)``) holds one this binary does not know.
    func hasBeenSuperseded(_ applied: Set<String>) -> Bool {
        let known = Set(identifiers)
        return !applied.isSubset(of: known)
    }
}
