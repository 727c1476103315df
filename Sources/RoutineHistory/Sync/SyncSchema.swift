import FoundationEssentials

/// The tables a history that is a member of a sync folder has, made by `sync init` and
/// dropped by `sync leave`: a history that does not sync has none of them.
///
/// Triggers put the key of every run and day off a command changes into `syncOutbox`, in
/// the command's own transaction, so that no write path of the history needs to know about
/// sync and a crash before the journal is written loses nothing: the next command drains it.
enum SyncSchema {
    static let tables = ["syncState", "syncOutbox", "syncEvent", "syncFile", "syncProblem", "syncFolder", "syncHeld"]

    static func install(_ db: Database, folder: String, device: String, name: String) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS syncState (
                    one INTEGER PRIMARY KEY CHECK (one = 1),
                    folder TEXT NOT NULL,
                    device TEXT NOT NULL,
                    name TEXT NOT NULL,
                    seq INTEGER NOT NULL DEFAULT 0,
                    -- 1 while events of other devices are applied: the triggers stay quiet.
                    importing INTEGER NOT NULL DEFAULT 0,
                    -- The journal file this device last appended to and its size then: any other
                    -- size means another device writes with this one's id.
                    journal TEXT,
                    journalSize INTEGER
                );
                CREATE TABLE IF NOT EXISTS syncOutbox (
                    family TEXT NOT NULL,
                    routine TEXT NOT NULL,
                    date TEXT NOT NULL,
                    startedAt TEXT NOT NULL,
                    PRIMARY KEY (family, routine, date, startedAt)
                ) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS syncEvent (
                    id TEXT PRIMARY KEY,
                    device TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    at TEXT NOT NULL,
                    type TEXT NOT NULL,
                    family TEXT NOT NULL,
                    key TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    -- 0 for this device's events not yet in its journal.
                    written INTEGER NOT NULL DEFAULT 1
                );
                CREATE INDEX IF NOT EXISTS syncEvent_by_key ON syncEvent (family, key);
                CREATE INDEX IF NOT EXISTS syncEvent_unwritten ON syncEvent (seq) WHERE written = 0;
                CREATE TABLE IF NOT EXISTS syncFile (
                    path TEXT PRIMARY KEY,
                    inode INTEGER NOT NULL,
                    size INTEGER NOT NULL,
                    -- Bytes read: the end of the last whole line.
                    offset INTEGER NOT NULL,
                    -- Whole lines read, for the line numbers of warnings.
                    lines INTEGER NOT NULL DEFAULT 0
                ) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS syncProblem (
                    path TEXT NOT NULL,
                    line INTEGER NOT NULL,
                    reason TEXT NOT NULL,
                    PRIMARY KEY (path, line)
                ) WITHOUT ROWID;
                """)
        try upgrade(db)
        // Joining again (another name or folder) keeps the device's sequence: a new event
        // numbered below one it wrote before would lose to it. The journal last appended to
        // is kept only in the same folder.
        try db.execute(
            sql: """
                INSERT INTO syncState (one, folder, device, name) VALUES (1, ?, ?, ?)
                    ON CONFLICT (one) DO UPDATE SET
                        journal = CASE WHEN folder = excluded.folder THEN journal END,
                        journalSize = CASE WHEN folder = excluded.folder THEN journalSize END,
                        folder = excluded.folder, device = excluded.device, name = excluded.name;
                UPDATE syncState SET seq = max(seq, coalesce((SELECT max(seq) FROM syncEvent WHERE syncEvent.device = syncState.device), 0));
                """, arguments: [folder, device, name])
        try installTriggers(db)
    }

    /// What later versions added to the sync's tables, made where missing: cheap when present,
    /// so that every reading and writing may call it.
    /// - `syncFile.prefix`: the hash of the bytes read of each file (lines, not offsets). A row
    ///   without it is read again from its start once, which changes nothing.
    /// - `syncHeld`: events dated more than a day ahead of this clock, applied once it catches up.
    /// - `syncIdentity`: this device's id and sequence, kept when it leaves, so that joining
    ///   again keeps them.
    /// - an index of the events' stamps, for the newest stamp seen (the hybrid logical clock).
    /// - `syncFile.changed`: each file's change time when it was read, so that an edit by
    ///   hand that keeps its size and inode is read again. A row without it (-1) is looked at
    ///   once more, which changes nothing.
    /// - an index of the events by device: the check of a device's own folder reads its own
    ///   events, which a fresh device with a long history of others' would otherwise find by
    ///   scanning them all.
    static func upgrade(_ db: Database) throws {
        guard try isInstalled(db) else { return }
        if try !db.hasRow("SELECT 1 FROM pragma_table_info('syncFile') WHERE name = 'prefix'") {
            try db.execute(sql: "ALTER TABLE syncFile ADD COLUMN prefix INTEGER NOT NULL DEFAULT 0")
        }
        if try !db.hasRow("SELECT 1 FROM pragma_table_info('syncFile') WHERE name = 'changed'") {
            try db.execute(sql: "ALTER TABLE syncFile ADD COLUMN changed INTEGER NOT NULL DEFAULT -1")
        }
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS syncHeld (
                    id TEXT PRIMARY KEY,
                    device TEXT NOT NULL,
                    at TEXT NOT NULL,
                    line TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS syncHeld_by_at ON syncHeld (at);
                CREATE TABLE IF NOT EXISTS syncIdentity (
                    one INTEGER PRIMARY KEY CHECK (one = 1),
                    device TEXT NOT NULL,
                    seq INTEGER NOT NULL
                );
                CREATE INDEX IF NOT EXISTS syncEvent_by_at ON syncEvent (at);
                CREATE INDEX IF NOT EXISTS syncEvent_by_device ON syncEvent (device, seq);
                """)
    }

    /// Replaces the folder states of the last full look (a history that joined before they
    /// were kept gets the table here).
    static func record(_ folders: [SyncJournal.FolderState], _ db: Database) throws {
        // path: "" for the sync folder, else a device id; changed: ctime in nanoseconds, -1 unknown.
        try db.execute(
            sql: "CREATE TABLE IF NOT EXISTS syncFolder (path TEXT PRIMARY KEY, inode INTEGER NOT NULL, changed INTEGER NOT NULL) WITHOUT ROWID")
        try db.execute(sql: "DELETE FROM syncFolder")
        for folder in folders {
            try db.execute(
                sql: "INSERT INTO syncFolder (path, inode, changed) VALUES (?, ?, ?)",
                arguments: [folder.path, Int64(bitPattern: folder.inode), folder.changed])
        }
    }

    /// One trigger per table and change; a table another change adds gets its three here.
    static func installTriggers(_ db: Database) throws {
        let quiet = "WHEN (SELECT importing FROM syncState) = 0"
        let run = "INSERT OR IGNORE INTO syncOutbox VALUES ('run', %@.routine, %@.date, %@.startedAt)"
        let child = "INSERT OR IGNORE INTO syncOutbox SELECT 'run', routine, date, startedAt FROM run WHERE id = %@.runId"
        let day = "INSERT OR IGNORE INTO syncOutbox VALUES ('day', %@.routine, %@.date, '')"
        var sql = ""
        for (table, body) in [("run", run), ("step", child), ("amendment", child), ("dayOff", day)] {
            for (change, rows) in [("INSERT", ["NEW"]), ("UPDATE", ["OLD", "NEW"]), ("DELETE", ["OLD"])] {
                let statements = rows.map { body.replacing("%@", with: $0) + ";" }.joined(separator: " ")
                sql +=
                    "CREATE TRIGGER IF NOT EXISTS sync_\(table)_\(change.lowercased()) AFTER \(change) ON \(table) \(quiet) BEGIN \(statements) END;\n"
            }
        }
        try db.execute(sql: sql)
    }

    /// Keys applied in one reading from which the triggers are set aside while it applies them.
    static let bulkKeys = 64

    /// Runs `body`, which applies other devices' events with `importing` set, lighter when it
    /// applies many keys:
    /// - without the triggers: a trigger that does nothing still costs a third of each step's
    ///   insert. Dropping and making them again is part of the transaction, so a failure puts
    ///   them back with everything else;
    /// - without the tables' CHECK constraints, whose `IN` lists SQLite builds into a table
    ///   anew for each row inserted. What is written comes from the validators of `history
    ///   import` and from Swift enums, which hold only the values the constraints allow.
    static func applying<T>(keys: Int, _ db: Database, _ body: () throws -> T) throws -> T {
        guard keys >= bulkKeys else { return try body() }
        try dropTriggers(db)
        try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
        defer { try? db.execute(sql: "PRAGMA ignore_check_constraints = OFF") }
        let result = try body()
        try installTriggers(db)
        return result
    }

    /// Drops the sync's tables but keeps the device's id and sequence (`syncIdentity`).
    static func remove(_ db: Database) throws {
        try upgrade(db)
        try db.execute(
            sql: "INSERT OR REPLACE INTO syncIdentity (one, device, seq) SELECT 1, device, seq FROM syncState")
        try dropTriggers(db)
        for table in tables { try db.execute(sql: "DROP TABLE IF EXISTS \(table)") }
    }

    private static func dropTriggers(_ db: Database) throws {
        for table in ["run", "step", "amendment", "dayOff"] {
            for change in ["insert", "update", "delete"] { try db.execute(sql: "DROP TRIGGER IF EXISTS sync_\(table)_\(change)") }
        }
    }

    /// The device id and sequence this history had when it last left a sync folder.
    static func identity(_ db: Database) throws -> (device: String, seq: Int64)? {
        guard try db.hasTable(named: "syncIdentity"),
            let row = try Row.fetchOne(db, sql: "SELECT device, seq FROM syncIdentity")
        else { return nil }
        return (row[0], row[1])
    }

    static func isInstalled(_ db: Database) throws -> Bool {
        try db.hasTable(named: "syncState")
    }
}
