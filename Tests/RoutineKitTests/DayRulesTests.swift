import Testing

@testable import RoutineKit

/// The day's rules: due, maybe, not due and why, done by what, and the counts.
struct DayRulesTests {
    static let source = """
        routine "Day"
        habit water "Water" -> mood
        question mood "Mood?"
          "Good" -> gym
          "Bad" -> nap
          then -> read
        habit gym "Gym"
        habit nap "Nap"
        habit read "Read" on mon
        habit spare "Spare" 1 per week

        """

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let entries: [DayEntry]
        var hadRun = false
        var runCompleted = false
        var doneEarlier: [Int: Int] = [:]
        /// The state word of water, gym, nap, read, spare.
        let expected: [String]
        var testDescription: String { name }
    }

    // Node indices: water 0, mood 1, gym 2, nap 3, read 4, spare 5. Tuesday 2026-11-24.
    static let cases: [Case] = [
        Case(name: "no record", entries: [], expected: ["due", "maybe", "maybe", "not-due", "maybe"]),
        Case(
            name: "a log of a maybe habit", entries: [DayEntry(node: 2, result: .done, source: .log, time: "07:00")],
            expected: ["due", "done", "maybe", "not-due", "maybe"]),
        Case(
            name: "a completed run that went to gym",
            entries: [
                DayEntry(node: 0, result: .done, source: .run, time: "07:00"), DayEntry(node: 2, result: .skipped, source: .run, time: "07:01"),
            ],
            hadRun: true, runCompleted: true, expected: ["done", "skipped", "not-due", "not-due", "not-due"]),
        Case(
            name: "the weekly quota met", entries: [], doneEarlier: [5: 1], expected: ["due", "maybe", "maybe", "not-due", "not-due"]),
        Case(
            name: "passed over by a run", entries: [DayEntry(node: 5, result: .notScheduled, source: .run, time: "07:00")], hadRun: true,
            expected: ["due", "maybe", "maybe", "not-due", "not-due"]),
    ]

    @Test(arguments: cases)
    func states(_ c: Case) throws {
        let routine = try #require(RoutineLoader.load(SourceFile(name: "d.rt", bytes: Array(Self.source.utf8))).routine as Routine?)
        let facts = DayFacts(
            date: CalendarDate("2026-11-24")!, entries: c.entries, hadRun: c.hadRun, runCompleted: c.runCompleted, doneEarlierThisWeek: c.doneEarlier)
        let rules = DayRules(routine: routine, facts: facts, unconditional: try PathExplorer(routine).nodesOnEveryWay())
        #expect([0, 2, 3, 4, 5].map { rules.state($0).word } == c.expected)
        let overview = rules.overview()
        #expect(overview.due == c.expected.count { $0 == "due" || $0 == "done" || $0 == "skipped" })
        #expect(overview.habits.count == 5)
    }

    @Test func theFirstCompletionIsTheOneThatCounts() throws {
        let routine = RoutineLoader.load(SourceFile(name: "d.rt", bytes: Array(Self.source.utf8))).routine
        let facts = DayFacts(
            date: CalendarDate("2026-11-24")!,
            entries: [
                DayEntry(node: 0, result: .done, source: .log, time: "06:50"), DayEntry(node: 0, result: .done, source: .run, time: "07:10"),
            ])
        let rules = DayRules(routine: routine, facts: facts, unconditional: [0])
        #expect(rules.completion(of: 0) == Completion(source: .log, time: "06:50"))
        #expect(
            rules.mayLog(LogRequest(id: "water"))
                == .failure(.alreadyDone(id: "water", title: "Water", date: facts.date, by: Completion(source: .log, time: "06:50"))))
        #expect(rules.mayLog(LogRequest(id: "water", force: true)) == .success(0))
    }
}
