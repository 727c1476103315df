import Foundation
import RoutineKit
import Testing

@testable import RoutineHistory

struct HistoryStoreTests {
    @Test func createsTheFileWithItsSchemaAndFolder() throws {
        let path = try temporaryHistoryPath()
        let nested = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("a/b/history.sqlite").path
        #expect(try HistoryStore.open(nested, create: false) == nil)
        #expect(!FileManager.default.fileExists(atPath: nested))
        let store = try #require(try HistoryStore.open(nested, create: true))
        #expect(try store.integrityCheck() == "ok")
        #expect(try store.runCount() == 0)
        let mode =
            try FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: nested).deletingLastPathComponent().path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        let (id, journal) = try store.queue.read { db in
            (try Int32.fetchOne(db, sql: "PRAGMA application_id"), try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        #expect(id == HistorySchema.applicationID)
        #expect(journal == "wal")
    }

    @Test func anEmptyFileBecomesAHistory() throws {
        let path = try temporaryHistoryPath()
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try #require(try HistoryStore.open(path, create: false))
        #expect(try store.runCount() == 0)
    }

    @Test func reopeningKeepsTheRuns() throws {
        let path = try temporaryHistoryPath()
        try recordRun(try #require(try HistoryStore.open(path, create: true)), morning, decisions: [.decision(.done(value: nil))], end: .quit)
        let again = try #require(try HistoryStore.open(path, create: false))
        #expect(try again.runCount() == 1)
    }

    struct Foreign: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable (String) throws -> Void
        let expected: HistoryError.Type = HistoryError.self
        let reason: String
        var testDescription: String { name }
    }

    static let foreign: [Foreign] = [
        Foreign(
            name: "a text file", make: { try "not a database\n".write(toFile: $0, atomically: true, encoding: .utf8) },
            reason: "it is not an SQLite database"),
        Foreign(
            name: "a short binary file", make: { _ = FileManager.default.createFile(atPath: $0, contents: Data([0x53, 0x51])) },
            reason: "it is not an SQLite database"),
        Foreign(
            name: "another application's database",
            make: { path in
                let queue = try DatabaseQueue(path: path)
                try queue.write { try $0.execute(sql: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')") }
            }, reason: "it is another application's database"),
        Foreign(
            name: "a database with another application id",
            make: { path in
                let queue = try DatabaseQueue(path: path)
                try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA application_id = 42; PRAGMA user_version = 1") }
            }, reason: "it is another application's database"),
    ]

    @Test(arguments: foreign)
    func refusesAFileThatIsNotAHistory(_ c: Foreign) throws {
        let path = try temporaryHistoryPath()
        try c.make(path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: HistoryError.notAHistory(path: path, reason: c.reason)) { try HistoryStore.open(path, create: true) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func refusesAFolder() throws {
        let path = try temporaryHistoryPath()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(throws: HistoryError.notAHistory(path: path, reason: "it is a directory")) { try HistoryStore.open(path, create: true) }
    }

    @Test func anOlderHistoryIsMigratedAndItsValuesReadFromTheIndex() throws {
        let path = try temporaryHistoryPath()
        // A history as the binaries of schema v2 left it, with a run that has a value.
        let old = try DatabaseQueue(path: path)
        try HistorySchema.migrator.migrate(old, upTo: "v2: steps as statistics read them")
        try old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO run (id, routine, path, sourceHash, date, startedAt, utcOffset, result)
                    VALUES (1, 'Morning', '/r/test.rt', 'h', '2026-11-23', '2026-11-23T06:00:00.000Z', 0, 'completed');
                    INSERT INTO step (runId, step, node, kind, title, result, value, target, decidedAt, seconds)
                    VALUES (1, 1, 'water', 'habit', 'Water', 'done', NULL, NULL, '2026-11-23T06:00:05.000Z', 5),
                           (1, 2, 'drink', 'habit', 'Drink', 'done', 6.5, 8, '2026-11-23T06:00:09.000Z', 4);
                    """)
        }
        try old.close()
        let store = try #require(try HistoryStore.open(path, create: false))
        let (columns, plan) = try store.queue.read { db in
            (
                try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info('step_values')"),
                try Row.fetchAll(
                    db,
                    sql:
                        "EXPLAIN QUERY PLAN SELECT runId, node, value, target FROM step WHERE runId BETWEEN 1 AND 2 AND value IS NOT NULL ORDER BY runId, step"
                )
                .map { $0["detail"] as String }.joined()
            )
        }
        #expect(columns == ["runId", "step", "node", "value", "target"])
        #expect(plan.contains("COVERING INDEX step_values"), "\(plan)")
        let totals = try #require(try store.runTotals(RunFilter()).first?.totals)
        #expect(totals.done == 2 && totals.values == [RunTotals.Value(node: "drink", value: 6.5, target: 8)])
    }

    /// A history of schema v3, whose steps all have seconds, is rebuilt by v4 so that a step
    /// may have none: every row kept, the indexes exactly as v1 to v3 made them, and the
    /// statistics still read from their covering index.
    @Test func aV3HistoryLetsAStepsSecondsBeUnknown() throws {
        let path = try temporaryHistoryPath()
        let old = try DatabaseQueue(path: path)
        try HistorySchema.migrator.migrate(old, upTo: "v3: values as the log reads them")
        let v3Columns = "runId, step, node, kind, title, result, value, target, unit, optionIndex, optionText, decidedAt, seconds"
        func schema(_ db: Database) throws -> [String] {
            // The step table's indexes as v1 to v4 made them: later migrations add others (v8 step_passed).
            try String.fetchAll(
                db,
                sql:
                    "SELECT type || ' ' || name || ': ' || ifnull(sql, '') FROM sqlite_master WHERE type = 'index' AND tbl_name = 'step' AND name != 'step_passed' ORDER BY name"
            )
        }
        let (indexes, rowsBefore) = try old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO run (id, routine, path, sourceHash, date, startedAt, utcOffset, result)
                    VALUES (1, 'Morning', '/r/test.rt', 'h', '2026-11-23', '2026-11-23T06:00:00.000Z', 0, 'completed');
                    INSERT INTO step (runId, step, node, kind, title, result, value, target, unit, optionIndex, optionText, decidedAt, seconds)
                    VALUES (1, 1, 'water', 'habit', 'Water', 'done', NULL, NULL, NULL, NULL, NULL, '2026-11-23T06:00:05.000Z', 5),
                           (1, 2, 'mood', 'question', 'Mood?', 'answered', NULL, NULL, NULL, 0, 'Good', '2026-11-23T06:00:07.000Z', 2),
                           (1, 3, 'drink', 'habit', 'Drink', 'done', 6.5, 8, 'glasses', NULL, NULL, '2026-11-23T06:00:09.000Z', 2.25);
                    """)
            return (try schema(db), try Row.fetchAll(db, sql: "SELECT \(v3Columns) FROM step ORDER BY runId, step"))
        }
        #expect(throws: (any Error).self) {
            try old.write { try $0.execute(sql: "UPDATE step SET seconds = NULL WHERE step = 1") }
        }
        try old.close()

        let store = try #require(try HistoryStore.open(path, create: false))
        try store.queue.read { db in
            #expect(try schema(db) == indexes)
            #expect(try Row.fetchAll(db, sql: "SELECT \(v3Columns) FROM step ORDER BY runId, step") == rowsBefore)
            #expect(try Bool.fetchOne(db, sql: "SELECT \"notnull\" FROM pragma_table_info('step') WHERE name = 'seconds'") == false)
            #expect(try Bool.fetchOne(db, sql: "SELECT \"notnull\" FROM pragma_table_info('step') WHERE name = 'decidedAt'") == true)
            #expect(try String.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(StepReader.sql)", arguments: [1, 1]).map { $0["detail"] as String }.joined()
            #expect(plan.contains("COVERING INDEX step_stats"), "\(plan)")
        }
        // A fresh history has the same indexes.
        let fresh = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        #expect(try fresh.queue.read(schema) == indexes)

        let step = StoredStep(
            decision: RecordedStep(step: 4, node: "rest", kind: .habit, result: .skipped), title: "Rest",
            decidedAt: Timestamp("2026-11-23T06:00:11.000Z")!, seconds: nil)
        try store.insertStep(step, run: 1)
        let run = try #require(try store.runs(RunFilter()).first)
        #expect(run.steps.map(\.seconds) == [5, 2, 2.25, nil])
        // A run removed takes its steps along: the rebuilt table still refers to its run.
        try store.queue.write { try $0.execute(sql: "DELETE FROM run WHERE id = 1") }
        #expect(try store.queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM step") } == 0)
    }

    /// A history of schema v6 keeps its amendments through v7, which lets an amendment hold a
    /// question's answer: the rows as they were, the answer columns empty, and an answer
    /// amended afterwards taken back to the option it held.
    @Test func aV6HistoryKeepsItsAmendmentsAndMayAmendAnswers() throws {
        let path = try temporaryHistoryPath()
        let old = try DatabaseQueue(path: path)
        try HistorySchema.migrator.migrate(old, upTo: "v6: days off")
        try old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO run (id, routine, path, sourceHash, date, startedAt, utcOffset, endedAt, result)
                    VALUES (1, 'Morning', '/r/test.rt', 'h', '2026-11-23', '2026-11-23T06:00:00.000Z', 0, '2026-11-23T06:01:00.000Z', 'completed');
                    INSERT INTO step (runId, step, node, kind, title, result, value, target, unit, optionIndex, optionText, decidedAt, seconds)
                    VALUES (1, 1, 'water', 'habit', 'Water', 'done', NULL, NULL, NULL, NULL, NULL, '2026-11-23T06:00:05.000Z', 5),
                           (1, 2, 'mood', 'question', 'Mood?', 'answered', NULL, NULL, NULL, 0, 'Good', '2026-11-23T06:00:07.000Z', 2);
                    INSERT INTO amendment (runId, step, madeAt, added, result, value, seconds)
                    VALUES (1, 1, '2026-11-24T08:00:00.000Z', 0, 'skipped', NULL, 4);
                    """)
        }
        try old.close()
        let store = try #require(try HistoryStore.open(path, create: false))
        let run = try #require(try store.runs(RunFilter()).first)
        #expect(
            run.amendments == [
                Amendment(step: 1, madeAt: Timestamp("2026-11-24T08:00:00.000Z")!, added: false, before: .init(result: .skipped, seconds: 4))
            ])
        let amended = try store.amendAnswer("mood", of: morning, on: CalendarDate("2026-11-23")!, to: 1).get()
        #expect(amended.amendment.before == .init(result: .answered, seconds: 2, option: 0, optionText: "Good"))
        #expect(try store.runs(RunFilter()).first?.steps[1].decision.optionText == "Bad")
        let undone = try #require(try store.undoAmendment(of: "Morning"))
        #expect(undone.step.decision.option == 0 && undone.step.decision.optionText == "Good")
        #expect(try store.runs(RunFilter()).first?.amendments.count == 1)
        #expect(try store.integrityCheck() == "ok")
    }

    /// The statistics read a day's runs in the order they started, whatever order they were
    /// written in (an import, a resumed run): the day's last answer is the last one given.
    @Test func statisticsReadRunsInStartOrder() throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        func run(_ start: String, _ option: Int) -> StoredRun {
            let at = Timestamp("2026-11-23T\(start):00.000Z")!
            return StoredRun(
                routine: "Morning", path: "/r/test.rt", sourceHash: "h", date: "2026-11-23", startedAt: at, utcOffset: 0, endedAt: at,
                result: .quit,
                steps: [
                    StoredStep(
                        decision: RecordedStep(step: 1, node: "mood", kind: .question, result: .answered, option: option, optionText: "x"),
                        title: "Mood?", decidedAt: at, seconds: nil)
                ])
        }
        #expect(try store.insertRuns([run("09:00", 1), run("07:00", 0), run("08:00", 1)]) == 3)
        for oldestFirst in [false, true] {
            let runs = try store.statsRuns(RunFilter(routine: "Morning", oldestFirst: oldestFirst), of: morning)
            #expect(runs.map { $0.answers.first?.option } == [0, 1, 1], "oldestFirst \(oldestFirst)")
        }
    }

    /// A recorder told what the runner measured stores it; a record it was told nothing of
    /// has no time.
    @Test func theRecorderStoresWhatTheRunnerMeasured() throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        let day = CalendarDate("2026-11-23")!
        var run = RoutineRun(routine: morning, date: day)
        let recorder = try RunRecorder.start(store, routine: morning, path: "/r/test.rt", source: [], date: day, onFailure: { Issue.record("\($0)") })
        run.decide(.done(value: nil))
        recorder.observe(.record(run.records[0]), run, seconds: [3.5])
        run.decide(.option(1))
        recorder.observe(.record(run.records[1]), run, seconds: [3.5, 1.25])
        run.decide(.skip)
        recorder.observe(.end(.quit), run, seconds: [3.5, 1.25])
        let stored = try #require(try store.runs(RunFilter()).first)
        #expect(stored.steps.map(\.seconds) == [3.5, 1.25, nil])
    }

    /// Two routines' runs interleaved, so that the other's steps lie inside the ranges read,
    /// and the halves read on two connections split between them.
    static func interleavedHistory() throws -> HistoryStore {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        var random = SeededRandom(state: 7)
        var runs: [StoredRun] = []
        let start = try #require(CalendarDate("2026-01-01"))
        for day in 0..<300 {
            for name in ["Morning", "Evening"] where random.below(4) > 0 {
                let date = start.adding(days: day)
                let at = try #require(Timestamp("\(date)T06:00:00.000Z"))
                var steps: [StoredStep] = []
                for (k, node) in ["water", "mood", "run", "rest", "drink", "gone"].enumerated() where random.below(3) > 0 {
                    let result: RecordedStep.Result = node == "mood" ? .answered : [.done, .skipped, .notScheduled][random.below(3)]
                    let decision = RecordedStep(
                        step: k + 1, node: node, kind: node == "mood" ? .question : .habit, result: result,
                        value: node == "drink" && result == .done ? Double(random.below(10)) : nil, option: node == "mood" ? random.below(3) : nil)
                    steps.append(
                        StoredStep(
                            decision: decision, title: node, target: 8, decidedAt: at, seconds: random.below(4) == 0 ? nil : Double(random.below(100))
                        ))
                }
                runs.append(
                    StoredRun(
                        routine: name, path: "/r.rt", sourceHash: "h", date: date.description, startedAt: at, utcOffset: 0,
                        result: random.below(5) == 0 ? .quit : .completed, steps: steps))
            }
        }
        _ = try store.insertRuns(runs)
        return store
    }

    @Test(arguments: [nil, "2026-03-01"])
    func statisticsReadOnTwoConnectionsEqualOneConnection(_ since: String?) throws {
        let store = try Self.interleavedHistory()
        let filter = RunFilter(routine: "Morning", since: since)
        func summary(_ runs: [StatsRun]) -> [String] {
            runs.map { run in
                "\(run.date) \(run.completed) "
                    + run.steps.map { "\($0.node):\($0.result):\($0.value ?? -1):\($0.seconds ?? -1)" }.joined(separator: ",")
                    + " " + run.answers.map { "\($0.question)=\($0.option)" }.joined(separator: ",")
            }
        }
        let one = summary(try store.statsRuns(filter, of: morning, runsForTwoThreads: .max))
        let two = summary(try store.statsRuns(filter, of: morning, runsForTwoThreads: 2))
        #expect(one.count > 100)
        #expect(one == two)
        #expect(one.contains { $0.contains("1=1") } && one.contains { $0.contains("4:done:") })
    }

    @Test(arguments: [nil, "2026-03-01"])
    func logTotalsCountedOnTwoConnectionsEqualOneConnection(_ since: String?) throws {
        let store = try Self.interleavedHistory()
        let filter = RunFilter(routine: "Morning", since: since)
        func summary(_ runs: [(run: StoredRun, totals: RunTotals)]) -> [String] {
            runs.map { "\($0.run.date) \($0.totals.done) \($0.totals.skipped) \($0.totals.notScheduled) \($0.totals.values.map(\.value))" }
        }
        let one = summary(try store.runTotals(filter, runsForTwoThreads: .max))
        let two = summary(try store.runTotals(filter, runsForTwoThreads: 2))
        #expect(one.count > 100 && one == two)
        // Newest first, as `log` lists them; every run counted as its steps say.
        let runs = try store.runs(filter)
        #expect(one == summary(runs.map { ($0, RunTotals($0.steps)) }))
    }

    /// A file this user cannot write is opened as an immutable file: through a URI, so the
    /// characters a URI gives a meaning must reach SQLite escaped.
    @Test(arguments: ["history.sqlite", "a %20 ?x=1#b ü.sqlite"])
    func anUnwritableHistoryIsReadWithoutFilesBesideIt(_ name: String) throws {
        let folder = URL(fileURLWithPath: try temporaryHistoryPath()).deletingLastPathComponent()
        let path = folder.appendingPathComponent(name).path
        try recordRun(try #require(try HistoryStore.open(path, create: true)), morning, decisions: [.decision(.done(value: nil))], end: .quit)
        // The writer's stamp is the one file beside it (CheckedStampTests).
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [name, name + "-checked"])
        let store = try #require(try HistoryStore.openUnwritable(path))
        #expect(try store.runCount() == 1)
        #expect(try store.statsRuns(RunFilter(), of: morning).first?.steps.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [name, name + "-checked"])
    }

    /// A run whose date cannot be read (a file edited by hand) is left out; its steps go to
    /// no other run, on one connection or two.
    @Test(arguments: [2, Int.max])
    func aRunWithAnUnreadableDateIsLeftOut(_ runsForTwoThreads: Int) throws {
        let path = try Self.interleavedHistory().path
        let store = try #require(try HistoryStore.open(path, create: false))
        let filter = RunFilter(routine: "Morning")
        let before = try store.statsRuns(filter, of: morning, runsForTwoThreads: runsForTwoThreads)
        try store.queue.write { db in
            try db.execute(sql: "UPDATE run SET date = 'someday' WHERE id = (SELECT max(id) FROM run WHERE routine = 'Morning')")
        }
        let after = try store.statsRuns(filter, of: morning, runsForTwoThreads: runsForTwoThreads)
        #expect(after.count == before.count - 1)
        func summary(_ runs: [StatsRun]) -> [String] {
            runs.map { "\($0.date) " + $0.steps.map { "\($0.node):\($0.result)" }.joined(separator: ",") + " \($0.answers.count)" }
        }
        #expect(summary(after) == Array(summary(before).dropLast()), "the newest run, last in start order, is left out")
    }

    /// The second connection opens what the store opened, an immutable file's URI included,
    /// and reads the same rows.
    @Test(arguments: [false, true])
    func theSecondConnectionReadsWhatTheStoreReads(_ unwritable: Bool) throws {
        // Closed once written, so that its WAL file is folded in and removed.
        let path = try Self.interleavedHistory().path
        let store = try #require(unwritable ? try HistoryStore.openUnwritable(path) : try HistoryStore.open(path, create: false))
        #expect(store.location.hasPrefix("file:") == unwritable)
        let other = try #require(SecondConnection(path: store.location))
        var rows = 0
        #expect(other.forEachRow(ResultCounter.sql, from: 0, to: .max) { _ in rows += 1 })
        let expected = try store.queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM step") }
        #expect(rows > 1000 && rows == expected)
    }

    @Test func refusesANewerSchema() throws {
        let path = try temporaryHistoryPath()
        let store = try #require(try HistoryStore.open(path, create: true))
        try store.queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99: from the future')") }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: HistoryError.newerSchema(path: path)) { try HistoryStore.open(path, create: true) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func recordsEveryKindOfStep() throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        // Monday: run is scheduled; Tuesday: it is passed over.
        try recordRun(
            store, morning, date: "2026-11-24",
            decisions: [
                .decision(.done(value: nil)), .decision(.option(0)), .decision(.done(value: 6.5)),
            ], end: .completed)
        let run = try #require(try store.runs(RunFilter()).first)
        #expect(run.routine == "Morning" && run.date == "2026-11-24" && run.result == .completed && run.endedAt != nil)
        #expect(
            run.steps.map(\.decision) == [
                RecordedStep(step: 1, node: "water", kind: .habit, result: .done),
                RecordedStep(step: 2, node: "mood", kind: .question, result: .answered, option: 0, optionText: "Good"),
                RecordedStep(step: 3, node: "run", kind: .habit, result: .notScheduled),
                RecordedStep(step: 4, node: "drink", kind: .habit, result: .done, value: 6.5),
            ])
        #expect(run.steps.map(\.title) == ["Water", "Mood?", "Run", "Drink"])
        #expect(run.steps[3].target == 8 && run.steps[3].unit == "glasses")
        // Nothing timed these decisions: no step has a time.
        #expect(run.steps.allSatisfy { $0.seconds == nil })
    }

    @Test func skippedAndBackAreRecorded() throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        try recordRun(
            store, morning,
            decisions: [
                .decision(.skip), .decision(.option(1)), .back, .decision(.option(0)), .decision(.skip), .back, .back,
            ])
        let run = try #require(try store.runs(RunFilter()).first)
        #expect(run.result == nil && run.resultText == "unfinished")
        #expect(run.steps.map(\.decision) == [RecordedStep(step: 1, node: "water", kind: .habit, result: .skipped)])
    }

    @Test func filtersAndOrdersRuns() throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        for date in ["2026-11-20", "2026-11-22", "2026-11-21"] { try recordRun(store, morning, date: date, decisions: [], end: .quit) }
        let other = routine("routine \"Evening\"\nhabit a \"A\"")
        try recordRun(store, other, date: "2026-11-21", decisions: [], end: .quit)
        #expect(try store.runs(RunFilter()).map(\.date) == ["2026-11-22", "2026-11-21", "2026-11-21", "2026-11-20"])
        #expect(try store.runs(RunFilter(routine: "Morning", since: "2026-11-21")).map(\.date) == ["2026-11-22", "2026-11-21"])
        #expect(try store.runs(RunFilter(until: "2026-11-20")).map(\.date) == ["2026-11-20"])
        #expect(try store.runs(RunFilter(limit: 1, oldestFirst: true)).map(\.date) == ["2026-11-20"])
        #expect(try store.latestRun(of: "Evening", on: "2026-11-21")?.routine == "Evening")
    }
}

/// Days off: recorded once a day, asked for by routine and date, removed by span.
struct DaysOffTests {
    @Test func aDayOffIsRecordedAskedForAndRemoved() throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        let at = Timestamp(milliseconds: 1_700_000_000_000)
        let day = { (n: Int, routine: String) in
            DayOff(routine: routine, date: CalendarDate(year: 2026, month: 11, day: n), reason: "sick", recordedAt: at)
        }
        #expect(try store.insertDaysOff([day(4, "Day"), day(5, "Day"), day(4, "Other")]) == 3)
        #expect(try store.insertDaysOff([day(5, "Day")]) == 0, "a day already off is kept as it was")
        #expect(try store.dayOff(of: "Day", on: CalendarDate(year: 2026, month: 11, day: 4)) == day(4, "Day"))
        #expect(try store.dayOff(of: "Day", on: CalendarDate(year: 2026, month: 11, day: 6)) == nil)
        #expect(try store.daysOff().map(\.routine) == ["Day", "Other", "Day"], "oldest first, then by routine")
        #expect(
            try store.deleteDaysOff(
                of: "Day", from: CalendarDate(year: 2026, month: 11, day: 1), through: CalendarDate(year: 2026, month: 11, day: 4)) == 1)
        #expect(try store.daysOff(of: "Day").map(\.date.description) == ["2026-11-05"])
    }
}
