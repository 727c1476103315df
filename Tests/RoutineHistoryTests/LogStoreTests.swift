import Foundation
import RoutineKit
import Testing

@testable import RoutineHistory

/// Logs and amendments in the store: migration v5, the day's facts, and a log's refusals.
struct LogStoreTests {
    static let source = """
        routine "Morning"
        habit water "Water" -> read
        habit read "Read" 2 per week -> mood
        question mood "Mood?"
          "Good" -> gym
          "Bad" -> end
        habit gym "Gym" on mon

        """

    static var routine: Routine { RoutineLoader.load(SourceFile(name: "m.rt", bytes: Array(source.utf8))).routine }

    @Test func aHistoryOfSchemaV3IsUpgradedAndItsRunsReadAsRuns() throws {
        let path = try temporaryHistoryPath()
        let old = try DatabaseQueue(path: path)
        try HistorySchema.migrator.migrate(old, upTo: "v3: values as the log reads them")
        try old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO run (id, routine, path, sourceHash, date, startedAt, utcOffset, result)
                    VALUES (1, 'Morning', '/r/m.rt', 'h', '2026-11-23', '2026-11-23T06:00:00.000Z', 0, 'completed');
                    INSERT INTO step (runId, step, node, kind, title, result, decidedAt, seconds)
                    VALUES (1, 1, 'water', 'habit', 'Water', 'done', '2026-11-23T06:00:05.000Z', 5);
                    """)
        }
        try old.close()
        let store = try #require(try HistoryStore.open(path, create: false))
        let run = try #require(try store.runs(RunFilter()).first)
        #expect(run.kind == .run && run.steps.first?.reason == nil && run.amendments.isEmpty)
        let day = CalendarDate("2026-11-23")!
        let facts = try store.dayFacts(of: Self.routine, on: day)
        #expect(facts.hadRun && facts.runCompleted && facts.entries.map(\.node) == [0])
        #expect(try store.queue.read { try $0.tableExists("amendment") })
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let before: [LogRequest]
        let request: LogRequest
        let date: String
        /// The refusal's code, or nil when it is recorded.
        let code: DiagnosticCode?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a first log", before: [], request: LogRequest(id: "water"), date: "2026-11-24", code: nil),
        Case(name: "done twice", before: [LogRequest(id: "water")], request: LogRequest(id: "water"), date: "2026-11-24", code: .alreadyDone),
        Case(
            name: "done twice, forced", before: [LogRequest(id: "water")], request: LogRequest(id: "water", force: true), date: "2026-11-24",
            code: nil),
        Case(
            name: "done after a skip", before: [LogRequest(id: "water", skip: true)], request: LogRequest(id: "water"), date: "2026-11-24", code: nil),
        Case(
            name: "skipped twice", before: [LogRequest(id: "water", skip: true)], request: LogRequest(id: "water", skip: true), date: "2026-11-24",
            code: .alreadyDone),
        Case(name: "not its day", before: [], request: LogRequest(id: "gym"), date: "2026-11-24", code: .notScheduledThatDay),
        Case(name: "its day", before: [], request: LogRequest(id: "gym"), date: "2026-11-23", code: nil),
        Case(name: "a question", before: [], request: LogRequest(id: "mood", force: true), date: "2026-11-24", code: .logOfQuestion),
        Case(name: "unknown", before: [], request: LogRequest(id: "gim", force: true), date: "2026-11-24", code: .unknownHabit),
        Case(name: "a value without a target", before: [], request: LogRequest(id: "water", value: 3), date: "2026-11-24", code: .logValue),
    ]

    @Test(arguments: cases)
    func logsAreRecordedOrRefused(_ c: Case) throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        let day = CalendarDate(c.date)!
        for request in c.before { _ = try store.log(request, of: Self.routine, on: day, path: "/m.rt", sourceHash: "h") }
        let count = try store.runCount()
        switch try store.log(c.request, of: Self.routine, on: day, path: "/m.rt", sourceHash: "h") {
        case .success(let run):
            #expect(c.code == nil)
            let after = try store.runCount()
            #expect(run.kind == .log && run.steps.count == 1 && after == count + 1)
        case .failure(let refusal):
            #expect(refusal.diagnostic.code == c.code)
            #expect(try store.runCount() == count)
        }
    }

    @Test func theWeeklyQuotaCountsEarlierDaysOfTheWeekOnly() throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        // Sunday 2026-11-22 is the week before; Monday and Tuesday meet the quota of 2.
        for date in ["2026-11-22", "2026-11-23", "2026-11-24"] {
            let result = try store.log(LogRequest(id: "read"), of: Self.routine, on: CalendarDate(date)!, path: "/m.rt", sourceHash: "h")
            #expect((try? result.get()) != nil)
        }
        let wednesday = try store.log(LogRequest(id: "read"), of: Self.routine, on: CalendarDate("2026-11-25")!, path: "/m.rt", sourceHash: "h")
        #expect(wednesday == .failure(.quotaMet(id: "read", title: "Read", quota: 2, done: 2)))
        let rules = DayRules(
            routine: Self.routine, facts: try store.dayFacts(of: Self.routine, on: CalendarDate("2026-11-25")!), unconditional: [0, 1])
        #expect(rules.state(1) == .notDue(.quotaMet))
        #expect(rules.state(0) == .pending)
        #expect(rules.state(3) == .notDue(.notScheduled))
    }
}

/// A step amended by its run and number, as the studio's corrections do, and undone.
struct AmendStoreTests {
    @Test func aStepIsAmendedByItsNumberAndUndone() throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        let day = CalendarDate("2026-11-24")!
        let log = try store.log(LogRequest(id: "water", skip: true), of: LogStoreTests.routine, on: day, path: "/m.rt", sourceHash: "h").get()
        let id = try #require(log.id)
        #expect(try store.amendStep(2, of: id, to: AmendChange(result: .done)) == nil)
        let outcome = try #require(try store.amendStep(1, of: id, to: AmendChange(result: .done, seconds: 30))).get()
        #expect(outcome.amendment.before == Amendment.Before(result: .skipped, seconds: nil) && outcome.date == "2026-11-24")
        let facts = try store.dayFacts(of: LogStoreTests.routine, on: day)
        #expect(facts.entries.map(\.result) == [.done] && facts.entries.first?.seconds == 30)
        let undone = try #require(try store.undoAmendment(of: "Morning"))
        #expect(undone.step.decision.result == .skipped)
        #expect(try store.runs(RunFilter()).first?.amendments.isEmpty == true)
        #expect(try store.undoAmendment(of: "Morning") == nil)
    }

    /// A change to what the step holds already is refused and records nothing: done on a done
    /// step (E501), skipped on a skipped one.
    @Test(arguments: [(AmendChange(result: .skipped), DiagnosticCode.alreadyDone), (AmendChange(result: .done), .alreadyDone)])
    func aChangeThatChangesNothingIsRefused(_ first: AmendChange, _ code: DiagnosticCode) throws {
        let store = try #require(try HistoryStore.open(try temporaryHistoryPath(), create: true))
        let day = CalendarDate("2026-11-24")!
        let log = try store.log(LogRequest(id: "water", skip: true), of: LogStoreTests.routine, on: day, path: "/m.rt", sourceHash: "h").get()
        let id = try #require(log.id)
        if first.result == .done { _ = try store.amendStep(1, of: id, to: first) }
        let again = try #require(try store.amendStep(1, of: id, to: first))
        guard case .failure(let refusal) = again else {
            Issue.record("a no-op amendment was recorded")
            return
        }
        #expect(refusal.diagnostic.code == code)
        #expect(try store.runs(RunFilter()).first?.amendments.count == (first.result == .done ? 1 : 0))
    }
}
