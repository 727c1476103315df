import GRDB

/// The history's tables, one named migration per change. A migration that has landed is never
/// edited: a change of schema is a new migration appended here.
enum HistorySchema {
    /// `PRAGMA application_id`: "rout". Tells a routine history from any other SQLite file.
    static let applicationID: Int32 = 0x726F_7574

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: runs and steps") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.execute(sql: """
                CREATE TABLE run (
                    id INTEGER PRIMARY KEY,
                    routine TEXT NOT NULL,
                    path TEXT NOT NULL,
                    sourceHash TEXT NOT NULL,
                    date TEXT NOT NULL,
                    startedAt TEXT NOT NULL,
                    utcOffset INTEGER NOT NULL,
                    endedAt TEXT,
                    result TEXT CHECK (result IN ('completed', 'quit', 'incomplete', 'interrupted')),
                    reachedEnd INTEGER NOT NULL DEFAULT 0,
                    UNIQUE (routine, date, startedAt)
                );
                CREATE INDEX run_by_date ON run (date, startedAt);
                CREATE TABLE step (
                    runId INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
                    step INTEGER NOT NULL,
                    node TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('habit', 'question')),
                    title TEXT NOT NULL,
                    result TEXT NOT NULL CHECK (result IN ('done', 'skipped', 'not-scheduled', 'answered')),
                    value REAL,
                    target REAL,
                    unit TEXT,
                    optionIndex INTEGER,
                    optionText TEXT,
                    decidedAt TEXT NOT NULL,
                    seconds REAL NOT NULL,
                    PRIMARY KEY (runId, step)
                ) WITHOUT ROWID;
                -- What 'log' counts per run, without reading whole steps; and the few steps
                -- with a value.
                CREATE INDEX step_results ON step (runId, result);
                CREATE INDEX step_values ON step (runId, step) WHERE value IS NOT NULL;
                """)
        }
        migrator.registerMigration("v2: steps as statistics read them") { db in
            // A covering index for `stats`: ten years of steps read from it are a quarter of
            // the bytes of the steps themselves, which hold titles and timestamps too.
            try db.execute(sql: "CREATE INDEX step_stats ON step (runId, step, node, result, value, seconds, optionIndex)")
        }
        migrator.registerMigration("v3: values as the log reads them") { db in
            // `log` shows each run's values against their targets: from the step table, a
            // lookup per value (a fifth of a ten-year `log`); from this index, one range.
            try db.execute(sql: """
                DROP INDEX step_values;
                CREATE INDEX step_values ON step (runId, step, node, value, target) WHERE value IS NOT NULL;
                """)
        }
        migrator.registerMigration("v4: a step's seconds may be unknown") { db in
            // Only a person at a terminal is timed; a scripted step records NULL, not the
            // moment between two lines of a file. SQLite cannot drop a NOT NULL in place: the
            // table is rebuilt, its indexes as v1 to v3 made them.
            try db.execute(sql: """
                CREATE TABLE step_v4 (
                    runId INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
                    step INTEGER NOT NULL,
                    node TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('habit', 'question')),
                    title TEXT NOT NULL,
                    result TEXT NOT NULL CHECK (result IN ('done', 'skipped', 'not-scheduled', 'answered')),
                    value REAL,
                    target REAL,
                    unit TEXT,
                    optionIndex INTEGER,
                    optionText TEXT,
                    decidedAt TEXT NOT NULL,
                    seconds REAL,
                    PRIMARY KEY (runId, step)
                ) WITHOUT ROWID;
                INSERT INTO step_v4 SELECT runId, step, node, kind, title, result, value, target, unit, optionIndex,
                    optionText, decidedAt, seconds FROM step;
                DROP TABLE step;
                ALTER TABLE step_v4 RENAME TO step;
                CREATE INDEX step_results ON step (runId, result);
                CREATE INDEX step_values ON step (runId, step, node, value, target) WHERE value IS NOT NULL;
                CREATE INDEX step_stats ON step (runId, step, node, result, value, seconds, optionIndex);
                """)
        }
        return migrator
    }
}
