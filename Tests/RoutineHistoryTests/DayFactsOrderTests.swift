import Foundation
import RoutineKit
import Testing

@testable import RoutineHistory

/// The day's facts as `today` reads them, against the plain reading of the same rows: every
/// step of the week in SQLite's order (day, decision time as text, run, step), and each
/// habit's earlier days counted as a set. Seeded weeks of runs and logs, with decision times
/// that tie, that differ in form (with and without milliseconds), steps of nodes the routine
/// does not have, and runs of other routines.
struct DayFactsOrderTests {
    /// `LogStoreTests`' routine: the steps of `stretch` and `gone` below name nodes it does
    /// not have, which both readings pass over.
    static var routine: Routine { LogStoreTests.routine }

    /// Runs and their steps written straight into the tables, as any version of the program
    /// may have left them.
    static func fill(_ store: HistoryStore, seed: UInt64) throws {
        var random = SeededRandom(state: seed)
        let days = ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27"]
        let nodes = ["water", "read", "gym", "stretch", "gone"]
        let results = ["done", "done", "skipped", "not-scheduled"]
        let times = ["07:00:00.000Z", "07:00:00Z", "07:00:00.500Z", "07:01:00.000Z", "06:59:59.999Z"]
        try store.queue.write { db in
            for id in 1...Int64.random(in: 4...14, using: &random) {
                let day = days.randomElement(using: &random)!
                let routine = Int.random(in: 0..<6, using: &random) == 0 ? "Evening" : "Morning"
                let kind = Bool.random(using: &random) ? "run" : "log"
                try db.execute(
                    sql: """
                        INSERT INTO run (id, routine, path, sourceHash, date, startedAt, utcOffset, result, kind)
                        VALUES (?, ?, '/m.rt', 'h', ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        id, routine, day, day + "T06:\(id < 10 ? "0" : "")\(id):00.000Z", 3600 * Int.random(in: -2...2, using: &random), "quit",
                        kind,
                    ])
                for step in 1...Int.random(in: 1...5, using: &random) {
                    let question = Int.random(in: 0..<5, using: &random) == 0
                    try db.execute(
                        sql: """
                            INSERT INTO step (runId, step, node, kind, title, result, decidedAt, seconds)
                            VALUES (?, ?, ?, ?, 'T', ?, ?, ?)
                            """,
                        arguments: [
                            id, step, question ? "mood" : nodes.randomElement(using: &random)!, question ? "question" : "habit",
                            question ? "answered" : results.randomElement(using: &random)!, day + "T" + times.randomElement(using: &random)!,
                            Double(Int.random(in: 0...90, using: &random)),
                        ])
                }
            }
        }
    }

    /// The reading the facts must agree with.
    static func expected(_ store: HistoryStore, on date: CalendarDate) throws -> (entries: [DayEntry], earlier: [Int: Int]) {
        let routine = Self.routine
        let ids = routine.indexByID()
        let rows = try store.queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT run.date, run.kind = 'log' AS isLog, run.utcOffset, step.node, step.result, step.value, step.seconds, step.decidedAt
                    FROM run CROSS JOIN step ON step.runId = run.id
                    WHERE run.routine = 'Morning' AND run.date BETWEEN ? AND ? AND step.kind = 'habit'
                    ORDER BY run.date, step.decidedAt, run.id, step.step
                    """,
                arguments: [date.weekStart.description, date.description])
        }
        var entries: [DayEntry] = []
        var earlier: [Int: Set<String>] = [:]
        for row in rows {
            let day: String = row["date"]
            let nodeID: String = row["node"]
            guard let node = ids[nodeID], let result = RecordedStep.Result(rawValue: row["result"]) else { continue }
            if day != date.description {
                if result == .done { earlier[node, default: []].insert(day) }
                continue
            }
            let at = Timestamp(row["decidedAt"] as String) ?? Timestamp(milliseconds: 0)
            entries.append(
                DayEntry(
                    node: node, result: result, value: row["value"], seconds: row["seconds"], source: (row["isLog"] as Bool) ? .log : .run,
                    time: at.clockTime(offset: row["utcOffset"])))
        }
        return (entries, earlier.mapValues { $0.count })
    }

    @Test(arguments: 1...40)
    func theDaysFactsAgreeWithThePlainReading(seed: UInt64) throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        try Self.fill(store, seed: seed)
        for day in ["2026-11-23", "2026-11-25", "2026-11-27"] {
            let date = CalendarDate(day)!
            let facts = try store.dayFacts(of: Self.routine, on: date)
            let expected = try Self.expected(store, on: date)
            #expect(facts.entries == expected.entries, "seed \(seed), \(day)")
            #expect(facts.doneEarlierThisWeek == expected.earlier, "seed \(seed), \(day)")
        }
    }
}
