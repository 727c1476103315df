/// The history's tables, one named migration per change. A migration that has landed is never
/// edited: a change of schema is a new migration appended here.
enum HistorySchema {
    /// `PRAGMA application_id`: "rout". Tells a routine history from any other SQLite file.
    static let applicationID: Int32 = 0x726F_7574

    /// The columns of the step table as v1 made them and v4 made them again, but for the type
    /// of `seconds`: one text for both, each line as SQLite keeps it in the schema.
    private static func stepColumns(seconds: String) -> String {
        """
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
            seconds \(seconds),
            PRIMARY KEY (runId, step)
        """
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: runs and steps") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.execute(
                sql: """
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
                    \(stepColumns(seconds: "REAL NOT NULL"))
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
            try db.execute(
                sql: """
                    DROP INDEX step_values;
                    CREATE INDEX step_values ON step (runId, step, node, value, target) WHERE value IS NOT NULL;
                    """)
        }
        migrator.registerMigration("v4: a step's seconds may be unknown") { db in
            // Only a person at a terminal is timed; a scripted step records NULL, not the
            // moment between two lines of a file. SQLite cannot drop a NOT NULL in place: the
            // table is rebuilt, its indexes as v1 to v3 made them.
            try db.execute(
                sql: """
                    CREATE TABLE step_v4 (
                    \(stepColumns(seconds: "REAL"))
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
        migrator.registerMigration("v5: logs and amendments") { db in
            // A log (`routine done`, `routine amend`) is a run of its own kind with one step, so
            // that every reader of runs sees it; `reason` says why a run passed over a habit
            // that a log or an earlier run had done. An amendment keeps what a step held before
            // it was changed (nothing, for a step it added), and when.
            try db.execute(
                sql: """
                    ALTER TABLE run ADD COLUMN kind TEXT NOT NULL DEFAULT 'run' CHECK (kind IN ('run', 'log'));
                    ALTER TABLE step ADD COLUMN reason TEXT;
                    CREATE INDEX run_by_routine_date ON run (routine, date);
                    CREATE TABLE amendment (
                        id INTEGER PRIMARY KEY,
                        runId INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
                        step INTEGER NOT NULL,
                        madeAt TEXT NOT NULL,
                        added INTEGER NOT NULL DEFAULT 0,
                        result TEXT CHECK (result IN ('done', 'skipped', 'not-scheduled')),
                        value REAL,
                        seconds REAL
                    );
                    CREATE INDEX amendment_by_run ON amendment (runId, step);
                    """)
        }
        migrator.registerMigration("v6: days off") { db in
            // A day off of one routine: every habit of it is not due that day. One row a day,
            // so that `--undo` of part of a holiday removes exactly those days.
            try db.execute(
                sql: """
                    CREATE TABLE dayOff (
                        routine TEXT NOT NULL,
                        date TEXT NOT NULL,
                        reason TEXT,
                        recordedAt TEXT NOT NULL,
                        PRIMARY KEY (routine, date)
                    ) WITHOUT ROWID
                    """)
        }
        migrator.registerMigration("v7: amended answers") { db in
            // An amendment may change a question's answer: it keeps the option the step held
            // (index and text), and 'answered' joins the results it may hold. SQLite cannot
            // change a CHECK in place: the table is rebuilt, its index as v5 made it.
            try db.execute(
                sql: """
                    CREATE TABLE amendment_v7 (
                        id INTEGER PRIMARY KEY,
                        runId INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
                        step INTEGER NOT NULL,
                        madeAt TEXT NOT NULL,
                        added INTEGER NOT NULL DEFAULT 0,
                        result TEXT CHECK (result IN ('done', 'skipped', 'not-scheduled', 'answered')),
                        value REAL,
                        seconds REAL,
                        optionIndex INTEGER,
                        optionText TEXT
                    );
                    INSERT INTO amendment_v7 (id, runId, step, madeAt, added, result, value, seconds)
                        SELECT id, runId, step, madeAt, added, result, value, seconds FROM amendment;
                    DROP TABLE amendment;
                    ALTER TABLE amendment_v7 RENAME TO amendment;
                    CREATE INDEX amendment_by_run ON amendment (runId, step);
                    """)
        }
        migrator.registerMigration("v8: passes over what was done earlier") { db in
            // `log` counts a run's passes over habits done earlier apart from those not
            // scheduled: the few steps with a reason, without reading every step.
            try db.execute(sql: "CREATE INDEX step_passed ON step (runId) WHERE reason IS NOT NULL")
        }
        return migrator
    }
}
