import Testing

@testable import RoutineKit

/// A day's answer is the last one given that day (grammar.md, "Answers"), against an oracle:
/// on random routines, random days of several runs each (some stopped early), the answers
/// `stats --question` and `graph --stats` count are those of the day's last run that
/// answered, run by run in the order they started.
struct DayAnswerOracleTests {
    static let first = CalendarDate(year: 2026, month: 11, day: 2)

    /// A run of `routine` on `date` after random decisions, stopped early one time in three.
    static func randomRun(_ routine: Routine, on date: CalendarDate, _ random: inout SeededRandom) -> RoutineRun {
        var run = RoutineRun(routine: routine, date: date)
        let stopAfter = random.below(3) == 0 ? random.below(5) : Int.max
        var decisions = 0
        while let node = run.current, decisions < stopAfter, decisions < 64 {
            let options = routine.optionCount(of: node)
            run.decide(options > 0 ? .option(random.below(options)) : random.below(4) == 0 ? .skip : .done(value: nil))
            decisions += 1
        }
        return run
    }

    @Test(arguments: 0..<150)
    func theDaysAnswerIsItsLastRunsAnswer(_ seed: UInt64) {
        let routine = PathOracleTests.routine(seed: seed)
        var random = SeededRandom(state: seed &* 7_919)
        let days = 12
        var runs: [StatsRun] = []
        // The oracle: question -> day -> the option of the day's last run that answered it.
        var last: [Int: [Int: Int]] = [:]
        for day in 0..<days {
            let date = Self.first.adding(days: day)
            for _ in 0..<random.below(4) {
                let run = Self.randomRun(routine, on: date, &random)
                let recorded = run.records.map { RecordedStep($0, of: routine) }
                runs.append(StatsRun(date: date, completed: run.current == nil, recorded: recorded, in: routine))
                for record in run.records {
                    if case .answer(let option) = record.outcome { last[record.node, default: [:]][day] = option }
                }
            }
        }
        // Days handed over newest first, each day's runs still in start order.
        let byDay = Dictionary(grouping: runs, by: \.date.dayNumber).sorted { $0.key > $1.key }.flatMap(\.value)
        let unconditional = (try? PathExplorer(routine).nodesOnEveryWay()) ?? []
        let report = StatsReport(
            routine: routine, runs: byDay, since: Self.first, until: Self.first.adding(days: days), unconditional: unconditional)
        let graph = GraphHistory(report: report, runs: runs)
        for question in report.questions {
            let stats = QuestionStats(question, in: report, withHabits: false)
            var expected = [Int](repeating: 0, count: routine.optionCount(of: question))
            for option in (last[question] ?? [:]).values { expected[option] += 1 }
            #expect(stats.options.map(\.chosen.all) == expected, "seed \(seed), \(routine.id(of: question))")
            #expect(graph.chosen[question] ?? expected.map { _ in 0 } == expected, "seed \(seed): graph --stats counts the same days")
            let most = expected.max() ?? 0
            let tied = expected.indices.filter { expected[$0] == most }
            #expect(stats.mostChosen?.options == (most == 0 ? nil : tied), "seed \(seed): every option tied for most is named")
        }
    }

    /// An answer amended afterwards, against an oracle: a random run has one of its answers
    /// changed, and each habit's status that day is what the ways through the routine say.
    /// The ways follow the day's answers up to the first question on the way that nobody
    /// answered, and any option from there ("the usual rules" of a run that stopped). A habit
    /// on none of them is not due (a step of it dropped); else its recorded result counts;
    /// else it is missed when on all of them, unknown when on some.
    @Test(arguments: 0..<300)
    func anAmendedAnswerReplaysTheDay(_ seed: UInt64) {
        let routine = PathOracleTests.routine(seed: seed)
        var random = SeededRandom(state: seed &+ 4_242)
        let date = Self.first
        let run = Self.randomRun(routine, on: date, &random)
        var answers: [Int: Int] = [:]
        var results: [Int: DayStatus] = [:]
        for record in run.records {
            switch record.outcome {
            case .answer(let k): answers[record.node] = k
            case .habit(let result, _): results[record.node] = result == .done ? .done : .skipped
            }
        }
        guard let question = answers.keys.sorted().dropFirst(random.below(max(1, answers.count))).first else { return }
        let count = routine.optionCount(of: question)
        answers[question] = (answers[question]! + 1 + random.below(count - 1)) % count
        var recorded = run.records.map { RecordedStep($0, of: routine) }
        for k in recorded.indices where recorded[k].kind == .question && recorded[k].node == routine.id(of: question) {
            recorded[k].option = answers[question]
        }
        var amended = StatsRun(date: date, completed: run.current == nil, recorded: recorded, in: routine)
        amended.answersAmended = true
        let report = StatsReport(routine: routine, runs: [amended], since: date, until: date, unconditional: [])

        var every: Set<Int>?
        var some: Set<Int> = []
        var stack = [(RoutineRun(routine: routine, date: date), false)]
        var walked = 0
        while let entry = stack.popLast(), walked < 100_000 {
            let (way, free) = entry
            walked += 1
            guard let node = way.current else {
                let reached = Set(way.records.map(\.node))
                every = every.map { $0.intersection(reached) } ?? reached
                some.formUnion(reached)
                continue
            }
            let options = routine.optionCount(of: node)
            if options == 0 {
                var next = way
                next.decide(.done(value: nil))
                stack.append((next, free))
            } else if !free, let fixed = answers[node] {
                var next = way
                next.decide(.option(fixed))
                stack.append((next, false))
            } else {
                for k in 0..<options {
                    var next = way
                    next.decide(.option(k))
                    stack.append((next, true))
                }
            }
        }
        for habit in report.habits {
            let expected: DayStatus =
                !some.contains(habit.index)
                ? .notDue
                : results[habit.index] ?? ((every ?? []).contains(habit.index) ? .missed : .unknown)
            #expect(habit.days.first?.status == expected, "seed \(seed), \(habit.id) after '\(routine.id(of: question))' changed")
        }
    }

    /// "Good" then "Bad" on one day: the day's answer is "Bad"; one day each: both are named.
    @Test func theLastAnswerWinsAndATieNamesBoth() {
        let routine = StatsTests.routine
        let mood = routine.indexByID()["mood"]!
        let goodThenBad = [StatsTests.run(0, "tea:done mood:=0 run:done"), StatsTests.run(0, "tea:done mood:=1 rest:done")]
        let one = QuestionStats(mood, in: StatsTests.report(goodThenBad, until: 1), withHabits: false)
        #expect(one.mostChosen?.options == [1])
        #expect(one.options.map(\.chosen.all) == [0, 1, 0])
        let tie = StatsTests.report(goodThenBad + [StatsTests.run(1, "tea:done mood:=0 run:done")], until: 2)
        #expect(QuestionStats(mood, in: tie, withHabits: false).mostChosen?.options == [0, 1])
        #expect(
            StatsText.questionRows(tie).contains("mood      \"Good\" and \"Tired\" 50% each of 2 days answered"), "\(StatsText.questionRows(tie))")
    }
}
