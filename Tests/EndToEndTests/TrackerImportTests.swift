import Foundation
import Testing

/// `history import --from loop|harsh`: real exports (Loop backups made with its schema by
/// SQLite itself, its CSV export, harsh folders with every line form) become a routine file
/// and logs, once however often imported; hostile files are refused whole, with file, line
/// and reason, and nothing written.
@Suite(.serialized)
struct TrackerImportTests {
    /// The changes Loop Habit Tracker's migrations (its `migrations/NN.sql`) make to the tables
    /// of a new database, which it creates at version 8 and migrates one version at a time:
    /// by version, the schema statements only (the data fixes it also runs change no column).
    static let loopMigrations: [Int: String] = [
        9: """
        CREATE TABLE Habits (id INTEGER PRIMARY KEY AUTOINCREMENT, archived INTEGER, color INTEGER, description TEXT,
            freq_den INTEGER, freq_num INTEGER, highlight INTEGER, name TEXT, position INTEGER, reminder_hour INTEGER,
            reminder_min INTEGER);
        CREATE TABLE Checkmarks (id INTEGER PRIMARY KEY AUTOINCREMENT, habit INTEGER REFERENCES habits(id), timestamp INTEGER, value INTEGER);
        CREATE TABLE Repetitions (id INTEGER PRIMARY KEY AUTOINCREMENT, habit INTEGER REFERENCES habits(id), timestamp INTEGER);
        CREATE TABLE Streak (id INTEGER PRIMARY KEY AUTOINCREMENT, end INTEGER, habit INTEGER REFERENCES habits(id), length INTEGER, start INTEGER);
        CREATE TABLE Score (id INTEGER PRIMARY KEY AUTOINCREMENT, habit INTEGER REFERENCES habits(id), score INTEGER, timestamp INTEGER);
        """,
        11: "ALTER TABLE Habits ADD COLUMN reminder_days INTEGER NOT NULL DEFAULT 127;",
        13: """
        CREATE INDEX idx_score_habit_timestamp ON Score(habit, timestamp);
        CREATE INDEX idx_checkmark_habit_timestamp ON Checkmarks(habit, timestamp);
        CREATE INDEX idx_repetitions_habit_timestamp ON Repetitions(habit, timestamp);
        CREATE INDEX idx_streak_habit_end ON Streak(habit, end);
        """,
        16: "ALTER TABLE Habits ADD COLUMN type INTEGER NOT NULL DEFAULT 0; ALTER TABLE Repetitions ADD COLUMN value INTEGER NOT NULL DEFAULT 2;",
        17: """
        DROP TABLE Score;
        CREATE TABLE Score (id INTEGER PRIMARY KEY AUTOINCREMENT, habit INTEGER REFERENCES habits(id), score REAL, timestamp INTEGER);
        CREATE INDEX idx_score_habit_timestamp ON Score(habit, timestamp);
        """,
        18: """
        ALTER TABLE Habits ADD COLUMN target_type INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE Habits ADD COLUMN target_value REAL NOT NULL DEFAULT 0;
        ALTER TABLE Habits ADD COLUMN unit TEXT NOT NULL DEFAULT '';
        """,
        19: "CREATE TABLE Events (id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp INTEGER, message TEXT, server_id INTEGER);",
        20: "DROP TABLE Checkmarks; DROP TABLE Streak; DROP TABLE Score;",
        22: """
        ALTER TABLE Repetitions RENAME TO RepetitionsBak;
        CREATE TABLE Repetitions (id INTEGER PRIMARY KEY AUTOINCREMENT, habit INTEGER NOT NULL REFERENCES habits(id),
            timestamp INTEGER NOT NULL, value INTEGER NOT NULL);
        DROP INDEX IF EXISTS idx_repetitions_habit_timestamp;
        CREATE UNIQUE INDEX idx_repetitions_habit_timestamp ON Repetitions(habit, timestamp);
        INSERT INTO Repetitions SELECT * FROM RepetitionsBak;
        DROP TABLE RepetitionsBak;
        PRAGMA foreign_keys = ON;
        """,
        // The question, which was the description until then, moves to a column of its own.
        23: "ALTER TABLE Habits ADD COLUMN question TEXT; UPDATE Habits SET question = description; UPDATE Habits SET description = '';",
        24: "ALTER TABLE Habits ADD COLUMN uuid TEXT; UPDATE Habits SET uuid = lower(hex(randomblob(16) || id));",
        25: "ALTER TABLE Repetitions ADD COLUMN notes TEXT;",
    ]

    /// Loop's migrations from after `from` through `to`, each setting its version as Loop does.
    static func loopMigrations(from: Int = 8, to version: Int) -> String {
        guard version > from else { return "" }
        return (from + 1...version).map { (loopMigrations[$0] ?? "") + "\nPRAGMA user_version = \($0);\n" }.joined()
    }

    /// A new Loop database at `version`: its tables as the app's migrations leave them.
    static func loopSchema(version: Int) -> String { loopMigrations(to: version) }

    /// Milliseconds at UTC midnight of `date`, as Loop stores a day.
    static func ms(_ date: String) -> Int64 {
        let parts = date.split(separator: "-").map { Int($0)! }
        var components = DateComponents()
        (components.year, components.month, components.day) = (parts[0], parts[1], parts[2])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return Int64(calendar.date(from: components)!.timeIntervalSince1970) * 1000
    }

    /// Five habits: a 3-a-week one, a numeric "at most 2 cups", a daily one, an archived one,
    /// and one every other day; their days. Recorded as a version 22 database holds them (the
    /// question in `description`), then migrated to `version`: from 23 on the question has its
    /// column, and the exercise a description of its own; at 25 a day has a note.
    static func loopBackup(version: Int) -> String {
        var sql = loopMigrations(to: 22)
        sql += """
            INSERT INTO Habits (id, archived, description, freq_den, freq_num, name, position, type, target_type, target_value, unit)
            VALUES (1, 0, 'Did you exercise today?', 7, 3, 'Exercise', 0, 0, 0, 0, ''),
                   (2, 0, 'How many cups?', 1, 1, 'Coffee', 1, 1, 1, 2, 'cups'),
                   (3, 0, 'Did you meditate today?', 1, 1, 'Meditate', 2, 0, 0, 0, ''),
                   (4, 1, '', 1, 1, 'Old', 3, 0, 0, 0, ''),
                   (5, 0, '', 2, 1, 'Read', 4, 0, 0, 0, '');

            """
        let rows: [(Int, String, Int)] = [
            (3, "2024-03-01", 2), (3, "2024-03-02", 2), (3, "2024-03-03", 2), (3, "2024-03-04", 0), (3, "2024-03-05", 2),
            (3, "2024-03-06", 2), (1, "2024-03-01", 2), (1, "2024-03-02", 1), (1, "2024-03-03", 3), (1, "2024-03-04", -1),
            (2, "2024-03-01", 1000), (2, "2024-03-02", 3000), (2, "2024-03-03", 2000), (4, "2024-03-01", 2), (5, "2024-03-01", 2),
        ]
        for (habit, date, value) in rows {
            sql += "INSERT INTO Repetitions (habit, timestamp, value) VALUES (\(habit), \(ms(date)), \(value));\n"
        }
        sql += loopMigrations(from: 22, to: version)
        if version >= 23 { sql += "UPDATE Habits SET description = 'Stretch first' WHERE id = 1;\n" }
        if version >= 25 { sql += "UPDATE Repetitions SET notes = 'calm' WHERE habit = 3 AND timestamp = \(ms("2024-03-01"));\n" }
        return sql
    }

    /// Builds an SQLite file at `path` from `sql` with Python's sqlite3 module.
    static func sqlite(_ path: String, _ sql: String) throws {
        let script = try temporaryDirectory().appendingPathComponent("make.sql")
        try Data(sql.utf8).write(to: script)
        let made = try shell(
            "python3 -c 'import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.executescript(open(sys.argv[2]).read()); db.commit()' '\(path)' '\(script.path)'"
        )
        try #require(made.status == 0, "\(made.stderr)")
    }

    func importing(_ arguments: [String], in dir: URL, history: String) throws -> Execution {
        try execute(["history", "import"] + arguments + ["--history", history], in: dir)
    }

    static let expectedSummary =
        "4 habits, 11 days; 1 unknown day left out; 1 day only implied by a frequency left out; 1 archived habit left out (--archived imports them)"

    @Test(arguments: 22...25)
    func aLoopBackupBecomesARoutineAndItsDays(_ version: Int) throws {
        let dir = try temporaryDirectory()
        let history = dir.appendingPathComponent("h.sqlite").path
        try Self.sqlite(dir.appendingPathComponent("loop.db").path, Self.loopBackup(version: version))
        let result = try importing(["--from", "loop", "loop.db", "--routine", "habits.rt"], in: dir, history: history)
        #expect(result.status == 0, "\(result.stderr)")
        let note = version >= 25 ? "; 1 day note left out" : ""
        #expect(result.stderr.contains(Self.expectedSummary + note + "; 1 frequency approximated\n"), "\(result.stderr)")
        #expect(result.stderr.contains("wrote the routine 'habits' to 'habits.rt'"), "\(result.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("habits.rt"), encoding: .utf8)
        for line in [
            "routine \"habits\"\n", "start -> exercise, coffee, meditate, read\n",
            "habit exercise \"Exercise\" 3 per week\n  note \"\(version >= 23 ? "Stretch first" : "Did you exercise today?")\"\n",
            "habit coffee \"Coffee\" target at most 2 cups\n  note \"How many cups?\"\n",
            "habit meditate \"Meditate\"\n  note \"Did you meditate today?\"\n",
            "habit read \"Read\" 4 per week\n",
        ] {
            #expect(text.contains(line), "\(line) in:\n\(text)")
        }
        #expect(!text.contains("Old"))
        #expect(try execute(["check", "habits.rt"], in: dir).status == 0)
        let export = try execute(["history", "export", "--history", history]).stdout
        #expect(export.split(separator: "\n").count == 11)
        #expect(export.contains(#""node":"coffee","kind":"habit","title":"Coffee","result":"done","value":3,"target":2,"unit":"cups""#), "\(export)")
        #expect(export.contains(#""date":"2024-03-03","routine":"habits""#) && export.contains(#""result":"skipped""#))

        // Again: nothing doubles, and the file stays as it was.
        let again = try importing(["--from", "loop", "loop.db", "--routine", "habits.rt"], in: dir, history: history)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("imported 0 days into") && again.stderr.contains("11 were already there"), "\(again.stderr)")
        #expect(!again.stderr.contains("wrote") && !again.stderr.contains("added"))
        #expect(try String(contentsOf: dir.appendingPathComponent("habits.rt"), encoding: .utf8) == text)
        #expect(try execute(["history", "export", "--history", history]).stdout == export)

        // Streaks and scores as Loop shows them: its score, s = m·s + (1 − m)·v with
        // m = 0.5^(√f / 13), over the days it recorded.
        let stats = try execute(["stats", "habits.rt", "--history", history, "--since", "2024-03-01", "--until", "2024-03-06", "--json"], in: dir)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any], "\(stats.stderr)")
        let habits = try #require(json["habits"] as? [[String: Any]])
        let meditate = try #require(habits.first { $0["id"] as? String == "meditate" })
        #expect(meditate["currentStreak"] as? Int == 2 && meditate["bestStreak"] as? Int == 3, "\(meditate)")
        let m = pow(0.5, 1.0 / 13)
        let loopScore = [1.0, 1, 1, 0, 1, 1].reduce(0.0) { m * $0 + (1 - m) * $1 }
        #expect(abs((meditate["score"] as? Double ?? -1) - loopScore) < 0.00006, "\(meditate) against \(loopScore)")
        let coffee = try #require(habits.first { $0["id"] as? String == "coffee" })
        #expect(coffee["targetMet"] as? Int == 2 && coffee["atMost"] as? Bool == true, "\(coffee)")
        // 1, 3 and 2 cups against at most 2, then three days without a record: missed.
        let coffeeScore = [1.0, 0.5, 1, 0, 0, 0].reduce(0.0) { m * $0 + (1 - m) * $1 }
        #expect(abs((coffee["score"] as? Double ?? -1) - coffeeScore) < 0.00006, "\(coffee) against \(coffeeScore)")
    }

    @Test func archivedHabitsComeWhenAskedAndASecondImportAddsToTheRoutine() throws {
        let dir = try temporaryDirectory()
        let history = dir.appendingPathComponent("h.sqlite").path
        try Self.sqlite(dir.appendingPathComponent("loop.db").path, Self.loopBackup(version: 25))
        #expect(try importing(["--from", "loop", "loop.db", "--routine", "habits.rt"], in: dir, history: history).status == 0)
        let before = try String(contentsOf: dir.appendingPathComponent("habits.rt"), encoding: .utf8)
        let result = try importing(["--from", "loop", "loop.db", "--routine", "habits.rt", "--archived"], in: dir, history: history)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("added 1 habit to 'habits.rt'") && result.stderr.contains("imported 1 day into"), "\(result.stderr)")
        let after = try String(contentsOf: dir.appendingPathComponent("habits.rt"), encoding: .utf8)
        // Two edits: the ID on the start line, the declaration at the end.
        #expect(after == before.replacingOccurrences(of: "meditate, read\n", with: "meditate, read, old\n") + "\nhabit old \"Old\"\n", "\(after)")
    }

    /// harsh's folder with every line form: comments, blank lines, headings, each frequency,
    /// and log lines with a comment, with an amount, skipped and not done.
    @Test func aHarshFolderBecomesARoutineAndItsDays() throws {
        let dir = try temporaryDirectory()
        let folder = dir.appendingPathComponent("harsh")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(
            """
            # This is your habits file.
            ! Dailies
            Meditated: 1

            Gymmed: 3/7
            ! Weeklies
            Called Mom: 7
            Cleaned: 1w
            Read: Chapter one: 2
            ! Tracking
            Weight: 0

            """.utf8
        ).write(to: folder.appendingPathComponent("habits"))
        try Data(
            """
            2024-03-01 : Meditated : y
            2024-03-01 : Gymmed : y : leg day
            # a comment
            2024-03-02 : Gymmed : s
            2024-03-02 : Meditated : n

            2024-03-03 : Weight : y :  : 71.5
            2024-03-03 : Called Mom : y : long call : 1
            2024-03-04 : Read: Chapter one : y\r

            """.utf8
        ).write(to: folder.appendingPathComponent("log"))
        let history = dir.appendingPathComponent("h.sqlite").path
        let result = try importing(["--from", "harsh", folder.path, "--routine", "me.rt"], in: dir, history: history)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "6 habits, 6 days; 2 day notes left out; 2 amounts of habits without a target left out; "
                    + "1 habit tracked only, never due (left out of 'start'; 'routine done' logs it); 1 frequency approximated\n"),
            "\(result.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("me.rt"), encoding: .utf8)
        for line in [
            "\n# Dailies\n\nhabit meditated \"Meditated\"\n", "habit gymmed \"Gymmed\" 3 per week\n", "\n# Weeklies\n",
            "habit called-mom \"Called Mom\" 1 per week\n", "habit cleaned \"Cleaned\" 1 per week\n",
            "habit read-chapter-one \"Read: Chapter one\" 4 per week\n",
            "start -> meditated, gymmed, called-mom, cleaned, read-chapter-one\n",
            "\n# Tracked only: never due, so not in 'start'; log it with 'routine done'\nhabit weight \"Weight\"\n",
        ] {
            #expect(text.contains(line), "\(line) in:\n\(text)")
        }
        #expect(try execute(["check", "me.rt"], in: dir).status == 0)
        #expect(try execute(["history", "export", "--history", history]).stdout.split(separator: "\n").count == 6)
    }

    /// A name with control characters is kept, escaped in the file and never shown raw.
    @Test func aNameWithControlCharactersIsEscaped() throws {
        let dir = try temporaryDirectory()
        let folder = dir.appendingPathComponent("harsh")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("Gym\u{1B}[31m red: 1\n".utf8).write(to: folder.appendingPathComponent("habits"))
        try Data("2024-03-01 : Gym\u{1B}[31m red : y\n".utf8).write(to: folder.appendingPathComponent("log"))
        let result = try importing(
            ["--from", "harsh", folder.path, "--routine", "me.rt"], in: dir, history: dir.appendingPathComponent("h.sqlite").path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"))
        let text = try String(contentsOf: dir.appendingPathComponent("me.rt"), encoding: .utf8)
        #expect(text.contains(#"habit gym-31m-red "Gym\u{1B}[31m red""#) && !text.contains("\u{1B}"), "\(text)")
    }

    struct Hostile: CustomTestStringConvertible, Sendable {
        var name: String
        var tracker: String
        /// Files of the export: a name and its text; `loop.db` is built from its text as SQL.
        var files: [(String, String)]
        var code: String
        var message: String
        var testDescription: String { name }
    }

    static let harshHabits = ("habits", "Meditated: 1\nGymmed: 3/7\n")
    static let hostile: [Hostile] = [
        Hostile(
            name: "harsh: a log line with two fields", tracker: "harsh",
            files: [harshHabits, ("log", "2024-03-01 : Meditated : y\n2024-03-02 : Meditated\n")],
            code: "E031", message: "log' line 2: expected 'YYYY-MM-DD : Habit : y|n|s[ : comment[ : amount]]', found 2 fields"),
        Hostile(
            name: "harsh: a date before 1900", tracker: "harsh", files: [harshHabits, ("log", "1850-01-01 : Meditated : y\n")],
            code: "E031", message: "log' line 1: '1850-01-01' is outside the years routine supports, 1900 to 2199"),
        Hostile(
            name: "harsh: a date that is none", tracker: "harsh", files: [harshHabits, ("log", "2024-02-30 : Meditated : y\n")],
            code: "E031", message: "log' line 1: '2024-02-30' is not a date"),
        Hostile(
            name: "harsh: a habit the habits file lacks", tracker: "harsh", files: [harshHabits, ("log", "2024-03-01 : Swam : y\n")],
            code: "E031", message: "log' line 1: 'Swam' is not a habit of the habits file"),
        Hostile(
            name: "harsh: an entry that is not y, n or s", tracker: "harsh", files: [harshHabits, ("log", "2024-03-01 : Meditated : yes\n")],
            code: "E031", message: "log' line 1: the entry must be y, n or s"),
        Hostile(
            name: "harsh: a NUL in a name", tracker: "harsh", files: [("habits", "Medi\u{0}tated: 1\n"), ("log", "")],
            code: "E031", message: "habits' line 1: the habit name holds a NUL character"),
        Hostile(
            name: "harsh: a frequency that is none", tracker: "harsh", files: [("habits", "Meditated: often\n"), ("log", "")],
            code: "E031", message: "habits' line 1: 'often' is not a frequency such as 1, 7, 1w or 3/7"),
        Hostile(name: "harsh: no log file", tracker: "harsh", files: [harshHabits], code: "E030", message: "log': cannot read"),
        Hostile(
            name: "Loop backup: a schema of version 30", tracker: "loop",
            files: [("loop.db", loopSchema(version: 22).replacingOccurrences(of: "user_version = 22", with: "user_version = 30"))],
            code: "E030", message: "its schema version is 30; Loop backups of versions 22 to 25 are read"),
        Hostile(
            name: "Loop backup: a value Loop never writes", tracker: "loop",
            files: [
                (
                    "loop.db",
                    loopSchema(version: 25)
                        + "INSERT INTO Habits (id, name, freq_num, freq_den, position) VALUES (1, 'Run', 1, 1, 0); INSERT INTO Repetitions (habit, timestamp, value) VALUES (1, \(ms("2024-03-01")), 9);"
                )
            ],
            code: "E031", message: "Repetitions row 1: the value 9 is none of Loop's"),
        Hostile(
            name: "Loop backup: a day in 2300", tracker: "loop",
            files: [
                (
                    "loop.db",
                    loopSchema(version: 25)
                        + "INSERT INTO Habits (id, name, freq_num, freq_den, position) VALUES (1, 'Run', 1, 1, 0); INSERT INTO Repetitions (habit, timestamp, value) VALUES (1, \(ms("2300-01-01")), 2);"
                )
            ],
            code: "E031", message: "Repetitions row 1: timestamp \(ms("2300-01-01")) is outside the years routine supports"),
        Hostile(
            name: "Loop backup: text where a frequency belongs", tracker: "loop",
            files: [
                ("loop.db", loopSchema(version: 22) + "INSERT INTO Habits (id, name, freq_num, freq_den, position) VALUES (1, 'Run', 'often', 1, 0);")
            ],
            code: "E031", message: "Habits id 1: freq_num and freq_den must be whole numbers"),
        Hostile(
            name: "Loop backup: a text file", tracker: "loop", files: [("loop.db", "")],
            code: "E030", message: "it is not an SQLite file"),
    ]

    /// Refused whole: the reason with its file and line, no routine file, nothing in the history.
    @Test(arguments: hostile)
    func aHostileExportIsRefusedAndNothingWritten(_ c: Hostile) throws {
        let dir = try temporaryDirectory()
        let export = dir.appendingPathComponent("export")
        try FileManager.default.createDirectory(at: export, withIntermediateDirectories: true)
        var source = export.path
        for (name, text) in c.files {
            let path = export.appendingPathComponent(name).path
            if name == "loop.db", !text.isEmpty {
                try Self.sqlite(path, text)
            } else {
                try Data((name == "loop.db" ? "not a database\n" : text).utf8).write(to: URL(fileURLWithPath: path))
            }
            if name == "loop.db" { source = path }
        }
        let history = dir.appendingPathComponent("h.sqlite").path
        let result = try importing(["--from", c.tracker, source, "--routine", "out.rt"], in: dir, history: history)
        #expect(result.status == 1, "\(c.name): \(result.stderr)")
        #expect(result.stderr.contains("error[\(c.code)]") && result.stderr.contains(c.message), "\(c.name): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.rt").path), "\(c.name): the routine was written")
        #expect(try execute(["history", "export", "--history", history]).stdout == "", "\(c.name): something was imported")
    }

    /// A refused import leaves an existing routine file as it was, and another routine's
    /// file is never replaced.
    @Test func anotherRoutinesFileIsNeverReplaced() throws {
        let dir = try temporaryDirectory()
        let folder = dir.appendingPathComponent("harsh")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("Meditated: 1\n".utf8).write(to: folder.appendingPathComponent("habits"))
        try Data("2024-03-01 : Meditated : y\n".utf8).write(to: folder.appendingPathComponent("log"))
        let morning = "routine \"Morning\"\nhabit water \"Water\"\n"
        try Data(morning.utf8).write(to: dir.appendingPathComponent("morning.rt"))
        let history = dir.appendingPathComponent("h.sqlite").path
        let result = try importing(["--from", "harsh", folder.path, "--routine", "morning.rt"], in: dir, history: history)
        #expect(
            result.status == 1 && result.stderr.contains("error[E032]: 'morning.rt' holds the routine 'Morning', not 'morning'"), "\(result.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent("morning.rt"), encoding: .utf8) == morning)
        #expect(try execute(["history", "export", "--history", history]).stdout == "")
    }

    /// A day the history already holds for a habit (logged by hand, done or skipped, or by a
    /// run) gains nothing from an import: it is counted as already recorded and kept as it was.
    @Test func aDayAlreadyLoggedByHandIsNotDoubled() throws {
        let dir = try temporaryDirectory()
        let folder = dir.appendingPathComponent("harsh")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("Meditated: 1\nGymmed: 1\n".utf8).write(to: folder.appendingPathComponent("habits"))
        try Data("2024-03-01 : Meditated : y\n".utf8).write(to: folder.appendingPathComponent("log"))
        let history = dir.appendingPathComponent("h.sqlite").path
        let first = try importing(["--from", "harsh", folder.path, "--routine", "me.rt"], in: dir, history: history)
        #expect(first.status == 0, "\(first.stderr)")
        for log in [["meditated", "--date", "2024-03-02"], ["gymmed", "--skip", "--date", "2024-03-02"]] {
            let done = try execute(["done", "me.rt"] + log + ["--history", history], in: dir)
            #expect(done.status == 0, "\(done.stderr)")
        }
        let before = try execute(["history", "export", "--history", history]).stdout
        #expect(before.split(separator: "\n").count == 3)
        try Data("2024-03-01 : Meditated : y\n2024-03-02 : Meditated : y\n2024-03-02 : Gymmed : y\n2024-03-03 : Gymmed : y\n".utf8)
            .write(to: folder.appendingPathComponent("log"))
        let again = try importing(["--from", "harsh", folder.path, "--routine", "me.rt"], in: dir, history: history)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("imported 1 day into") && again.stderr.contains("; 1 was already there\n"), "\(again.stderr)")
        #expect(again.stderr.contains("2 habits, 4 days; 2 days already recorded left as they were\n"), "\(again.stderr)")
        let after = try execute(["history", "export", "--history", history]).stdout
        #expect(after.split(separator: "\n").count == 4, "\(after)")
        #expect(after.split(separator: "\n").filter { $0.contains(#""date":"2024-03-02""#) }.count == 2, "\(after)")
        #expect(after.contains(#""date":"2024-03-03""#))
        #expect(after.split(separator: "\n").filter { $0.contains(#""result":"skipped""#) }.count == 1, "the skip by hand stays")
    }

    /// A 1 GiB log (a few lines, then a hole of NULs with no line end) is read as a stream:
    /// refused at the line that never ends, once a MiB of it is read, not after the whole file.
    @Test func aHugeLogIsStreamedAndRefused() throws {
        let dir = try temporaryDirectory()
        let folder = dir.appendingPathComponent("harsh")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("Meditated: 1\n".utf8).write(to: folder.appendingPathComponent("habits"))
        let log = folder.appendingPathComponent("log")
        try Data("2024-03-01 : Meditated : y\n2024-03-02 : Meditated : y\n".utf8).write(to: log)
        try FileHandle(forWritingTo: log).truncate(atOffset: 1 << 30)
        let script = """
            import resource, subprocess, sys
            done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            sys.stdout.write(done.stderr.decode())
            """
        let history = dir.appendingPathComponent("h.sqlite").path
        let result = try shell(
            "cd '\(dir.path)' && python3 -c '\(script)' \"$ROUTINE\" history import --from harsh harsh --routine out.rt --history '\(history)'")
        let fields = result.stdout.split(separator: "\n").first.map { $0.split(separator: " ").compactMap { Int($0) } } ?? []
        try #require(fields.count == 2, "\(result.stdout) \(result.stderr)")
        #expect(fields[0] == 1 && result.stdout.contains("log' line 3: the line is longer than 1 MiB"), "\(result.stdout)")
        #expect(fields[1] < 100_000, "peak memory \(fields[1]) KB")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.rt").path))
    }
}
