import Foundation
import Testing

@testable import RoutineKit

/// Day statuses, streaks, rates and scores over hand-built histories of a small branching
/// routine, and the rendered table and calendars against golden files.
struct StatsTests {
    /// `tea` is on every way; `run` only after "Good"; `rest` only after "Tired"; `read`
    /// only on weekdays; `water` is numeric; `end` after "Skip" leaves `read` undone.
    static let source = """
        routine "Day"
        habit tea "Tea" -> mood
        question mood "How?"
          "Good" -> run
          "Tired" -> rest
          "Skip" -> end
          then -> read
        habit run "Run" for 20m
        habit rest "Rest"
        habit read "Read" on weekdays -> water
        habit water "Water" target 8 glasses
        """
    static let routine = load(source + "\n").routine
    static let monday = CalendarDate(year: 2026, month: 11, day: 2)

    /// A run on `monday + day`: `steps` as "id:result[:value]", completed unless `stopped`.
    static func run(_ day: Int, _ steps: String, stopped: Bool = false) -> StatsRun {
        let recorded = steps.split(separator: " ").enumerated().map { k, text -> RecordedStep in
            let parts = text.split(separator: ":").map(String.init)
            if parts[1].hasPrefix("=") {
                return RecordedStep(step: k + 1, node: parts[0], kind: .question, result: .answered, option: Int(parts[1].dropFirst()))
            }
            return RecordedStep(
                step: k + 1, node: parts[0], kind: .habit, result: RecordedStep.Result(rawValue: parts[1])!,
                value: parts.count > 2 ? Double(parts[2]) : nil)
        }
        return StatsRun(date: monday.adding(days: day), completed: !stopped, recorded: recorded, in: routine)
    }

    static func report(_ runs: [StatsRun], until day: Int) -> StatsReport {
        let unconditional = try! PathExplorer(routine).nodesOnEveryWay()
        return StatsReport(routine: routine, runs: runs, since: monday, until: monday.adding(days: day), unconditional: unconditional)
    }

    static func statuses(_ report: StatsReport, _ id: String) -> String {
        report.habits.first { $0.id == id }!.days.map(\.status.rawValue).joined(separator: " ")
    }

    /// "measured … on average" is over the days someone was timed; a scripted day (no time)
    /// is not a 0, and a habit never timed is "not measured yet".
    @Test func onlyMeasuredDaysMakeTheAverage() {
        func run(_ day: Int, _ seconds: Double?) -> StatsRun {
            let steps = ["tea", "run"].enumerated().map { k, node in RecordedStep(step: k + 1, node: node, kind: .habit, result: .done) }
            return StatsRun(date: Self.monday.adding(days: day), completed: true, recorded: steps, seconds: [nil, seconds], in: Self.routine)
        }
        let report = Self.report([run(0, nil), run(1, 1200), run(2, nil), run(3, 1320)], until: 3)
        let habit = report.habits.first { $0.id == "run" }!
        #expect(habit.measuredSeconds == 1260)
        #expect(habit.days.map(\.seconds) == [nil, 1200, nil, 1320])
        #expect(StatsText.table(report).contains("time: planned 20m · measured 21m on average"))
        let scripted = Self.report([run(0, nil), run(1, nil)], until: 1)
        #expect(scripted.habits.first { $0.id == "run" }!.measuredSeconds == nil)
        #expect(StatsText.table(scripted).contains("time: planned 20m · not measured yet"))
    }

    @Test func onlyTheHabitsOnEveryWayAreUnconditional() throws {
        let every = try PathExplorer(Self.routine).nodesOnEveryWay().map(Self.routine.id(of:)).sorted()
        #expect(every == ["mood", "tea"])
    }

    /// (case, habit, runs, the day asked about, expected status); the window runs to day 6.
    @Test(
        arguments: [
            ("a branch not taken is not due", "run", [run(0, "tea:done mood:=1 rest:done read:done water:done:8")], 0, "not-due"),
            ("a branch taken and done", "run", [run(0, "tea:done mood:=0 run:done read:done water:done:8")], 0, "done"),
            ("no run: missed when on every way", "tea", [run(1, "tea:done")], 0, "missed"),
            ("no run: unknown when conditional", "run", [run(1, "tea:done")], 0, "unknown"),
            ("a run stopped before it", "read", [run(0, "tea:done mood:=1", stopped: true)], 0, "missed"),
            ("a completed run that ended first", "read", [run(0, "tea:done mood:=2")], 0, "not-due"),
            ("skipped, then done in a second run", "tea", [run(0, "tea:skipped", stopped: true), run(0, "tea:done mood:=2")], 0, "done"),
            ("skipped and not done", "tea", [run(0, "tea:skipped mood:=2")], 0, "skipped"),
            ("recorded not scheduled", "read", [run(5, "tea:done mood:=1 rest:done read:not-scheduled water:done:8")], 5, "not-due"),
            ("no run on a Sunday: not scheduled", "read", [run(0, "tea:done")], 6, "not-due"),
        ] as [(String, String, [StatsRun], Int, String)])
    func dayStatus(_ name: String, _ habit: String, _ runs: [StatsRun], _ day: Int, _ expected: String) {
        // A run on day 6 keeps the last day from being "not run yet".
        let report = Self.report(runs + [Self.run(6, "tea:done mood:=2")], until: 6)
        let days = report.habits.first { $0.id == habit }!.days
        #expect(days[day].status.rawValue == expected, "\(name)")
    }

    /// The quit runs of "Mini": a habit the run did not reach is missed only when it was still
    /// certain to come, not-due when the answer given ruled it out, unknown when it hung on a
    /// question not yet answered.
    @Test(arguments: [
        ("answered Left, did left, quit", "a:done q:=0 left:done", "a:done left:done right:not-due c:missed"),
        ("quit before the question", "a:done", "a:done left:unknown right:unknown c:missed"),
        ("answered Right and quit before it", "a:done q:=1", "a:done left:not-due right:missed c:missed"),
        ("skipped a, then quit", "a:skipped", "a:skipped left:unknown right:unknown c:missed"),
    ])
    func aQuitRunOfMini(_ name: String, _ steps: String, _ expected: String) throws {
        let mini = load(try String(contentsOf: testsDirectory.appendingPathComponent("Fixtures/stats/mini.rt"), encoding: .utf8)).routine
        let recorded = steps.split(separator: " ").enumerated().map { k, text -> RecordedStep in
            let parts = text.split(separator: ":").map(String.init)
            if parts[1].hasPrefix("=") {
                let option = Int(parts[1].dropFirst())!
                return RecordedStep(
                    step: k + 1, node: parts[0], kind: .question, result: .answered, option: option, optionText: ["Left", "Right"][option])
            }
            return RecordedStep(step: k + 1, node: parts[0], kind: .habit, result: RecordedStep.Result(rawValue: parts[1])!)
        }
        let run = StatsRun(date: Self.monday, completed: false, recorded: recorded, in: mini)
        let report = StatsReport(
            routine: mini, runs: [run], since: Self.monday, until: Self.monday, unconditional: try PathExplorer(mini).nodesOnEveryWay())
        let found = report.habits.map { "\($0.id):\($0.days[0].status.rawValue)" }.joined(separator: " ")
        #expect(found == expected, "\(name)")
        // `graph --stats` colours by the same rates: a not-due habit has none, a missed one 0%.
        let rates = GraphHistory(report: report, runs: [run]).rates
        for habit in report.habits {
            let status = habit.days[0].status
            #expect(rates[habit.index] == (status == .done ? 1 : status == .notDue || status == .unknown ? nil : 0), "\(name): \(habit.id)")
        }
    }

    /// The `-> end` routine of the defect: with a "Sick" option to `end`, `gym` is not on every
    /// way, so two days without a run are unknown. The table says so rather than show a bare
    /// 100%, and `--explain` lists them.
    @Test func anEndOptionWithTwoDaysWithoutRunsShowsItsUnknownDays() throws {
        let routine = load(
            """
            routine "Gym"
            question mood "How do you feel?"
              "Fine" -> gym
              "Sick" -> end
            habit gym "Gym" -> stretch
            habit stretch "Stretch"

            """
        ).routine
        let runs = (0..<13).filter { $0 != 4 && $0 != 9 }.map { day in
            StatsRun(
                date: Self.monday.adding(days: day), completed: true,
                recorded: [
                    RecordedStep(step: 1, node: "mood", kind: .question, result: .answered, option: 0, optionText: "Fine"),
                    RecordedStep(step: 2, node: "gym", kind: .habit, result: .done),
                    RecordedStep(step: 3, node: "stretch", kind: .habit, result: .done),
                ], in: routine)
        }
        let report = StatsReport(
            routine: routine, runs: runs, since: Self.monday, until: Self.monday.adding(days: 12),
            unconditional: try PathExplorer(routine).nodesOnEveryWay())
        let gym = try #require(report.habits.first { $0.id == "gym" })
        #expect(gym.unknownAll == 2)
        let text = StatsText.heading(report, recordedDays: 11) + StatsText.table(report) + "\n" + StatsText.explain(gym)
        #expect(!text.contains("100%    "), "no bare 100% beside unknown days")
        try assertGolden(text, testsDirectory.appendingPathComponent("Fixtures/stats/unknown-days.txt"))
    }

    /// A day off: every habit is not due, so neither a streak nor a rate suffers, and a day
    /// without a run is not unknown; a run made that day still counts what it did.
    @Test func onADayOffNothingIsDueButARunStillCounts() {
        let runs = [Self.run(0, "tea:done mood:=2"), Self.run(2, "tea:done mood:=0 run:done", stopped: true), Self.run(3, "tea:done mood:=2")]
        let off: Set<CalendarDate> = [Self.monday.adding(days: 1), Self.monday.adding(days: 2)]
        let unconditional = try! PathExplorer(Self.routine).nodesOnEveryWay()
        let report = StatsReport(
            routine: Self.routine, runs: runs, since: Self.monday, until: Self.monday.adding(days: 3), unconditional: unconditional, daysOff: off)
        #expect(Self.statuses(report, "tea") == "done not-due done done")
        #expect(Self.statuses(report, "run") == "not-due not-due done not-due")
        #expect(Self.statuses(report, "read") == "not-due not-due not-due not-due")
        let tea = report.habits.first { $0.id == "tea" }!
        #expect(tea.currentStreak == 3)
        #expect(tea.rateAll == 1)
        let without = Self.report(runs, until: 3)
        #expect(Self.statuses(without, "tea") == "done missed done done", "the same days without the days off")
    }

    /// (case, terminal width, first day, last day, weeks drawn): a short history starts at its
    /// first week; a long one fills the width.
    @Test(arguments: [
        ("two weeks on a wide terminal", 200, "2026-11-09", "2026-11-22", 2),
        ("two weeks from a Sunday", 200, "2026-11-08", "2026-11-21", 3),
        ("one day", 80, "2026-11-22", "2026-11-22", 1),
        ("a year on 80 columns", 80, "2025-11-22", "2026-11-22", 37),
    ])
    func theCalendarStartsAtTheFirstRecordedWeek(_ name: String, _ width: Int, _ first: String, _ last: String, _ weeks: Int) {
        #expect(HeatMap.weeks(fitting: width, from: CalendarDate(first)!, to: CalendarDate(last)!) == weeks, "\(name)")
    }

    /// Days off in the calendars: their own mark, and in the legend.
    @Test func goldenDaysOffInTheCalendar() throws {
        let runs = (0..<12).filter { $0 < 4 || $0 > 8 }.map { Self.run($0, "tea:done mood:=2") }
        let off = Set((4...8).map { Self.monday.adding(days: $0) })
        let unconditional = try PathExplorer(Self.routine).nodesOnEveryWay()
        let report = StatsReport(
            routine: Self.routine, runs: runs, since: Self.monday, until: Self.monday.adding(days: 11), unconditional: unconditional, daysOff: off)
        var map = HeatMap(palette: .characters, weeks: 3)
        map.daysOff = report.daysOff
        let tea = report.habits.first { $0.id == "tea" }!
        let byDate = Dictionary(uniqueKeysWithValues: tea.days.map { ($0.date, $0.status) })
        var text = map.render(last: report.until) { HeatMap.level(share: report.share(on: $0)) } + "\n"
        text += map.render(last: report.until) { byDate[$0] }
        map.palette = .colors256
        text += "\n" + map.render(last: report.until) { byDate[$0] }
        try assertGolden(text, testsDirectory.appendingPathComponent("Fixtures/stats/days-off.txt"))
    }

    @Test func skippedDaysNeitherBreakNorExtendAStreakAndMissedDaysBreakIt() {
        let runs = [
            Self.run(0, "tea:done mood:=2"), Self.run(1, "tea:skipped mood:=2"), Self.run(2, "tea:done mood:=2"),
            Self.run(3, "tea:done mood:=2"), Self.run(5, "tea:skipped mood:=2"), Self.run(6, "tea:done mood:=2"),
        ]
        let report = Self.report(runs, until: 6)
        #expect(Self.statuses(report, "tea") == "done skipped done done missed skipped done")
        let tea = report.habits.first { $0.id == "tea" }!
        #expect(tea.currentStreak == 1)
        #expect(tea.bestStreak == 3)
        #expect(tea.rateAll == 4.0 / 7)
        #expect(tea.counts[.skipped] == 2)
    }

    @Test func todayWithoutARunIsStillOpen() {
        let report = Self.report([Self.run(0, "tea:done mood:=2"), Self.run(1, "tea:done mood:=2")], until: 2)
        #expect(report.untilIsOpen)
        #expect(Self.statuses(report, "tea") == "done done")
        #expect(report.habits.first { $0.id == "tea" }!.currentStreak == 2)
    }

    @Test func theScoreFollowsItsFormula() {
        let report = Self.report([Self.run(0, "tea:done mood:=2"), Self.run(2, "tea:done mood:=2")], until: 2)
        let tea = report.habits.first { $0.id == "tea" }!
        let m = pow(0.5, 1.0 / 13)
        let expected = m * (m * (1 - m) + 0) + (1 - m)
        #expect(abs(tea.score - expected) < 1e-12)
        #expect(tea.scoreSteps.map(\.status) == [.done, .missed, .done])
    }

    @Test func aNumericHabitScoresItsShareOfTheTarget() {
        let report = Self.report([Self.run(0, "tea:done mood:=1 rest:done read:done water:done:4")], until: 0)
        let water = report.habits.first { $0.id == "water" }!
        #expect(water.scoreSteps.first?.value == 0.5)
        #expect(water.targetMet == 0)
        #expect(water.averageValue == 4)
    }

    @Test func aRenamedHabitKeepsItsDaysByID() {
        // The history recorded the old title; the routine's ID is what joins them.
        let report = Self.report([Self.run(0, "tea:done mood:=2")], until: 0)
        #expect(report.habits.first { $0.id == "tea" }!.title == "Tea")
        #expect(Self.statuses(report, "tea") == "done")
    }

    @Test(arguments: [(0, "1970-01-01"), (-1, "1969-12-31"), (11_016, "2000-02-29"), (-719_528, "0000-01-01"), (20_415, "2025-11-23")])
    func dayNumbersRoundTrip(_ number: Int, _ text: String) {
        #expect(CalendarDate(dayNumber: number).description == text)
        #expect(CalendarDate(text)!.dayNumber == number)
    }

    /// Three weeks of runs, answering each of the three options in turn, some days without a run.
    static let threeWeeks: [StatsRun] = (0..<18).filter { $0 % 5 != 3 }.map { day in
        let answer = day % 3
        let branch = ["run:done", "rest:done", ""][answer]
        let read = day % 7 >= 5 ? "read:not-scheduled" : (day % 4 == 0 ? "read:skipped" : "read:done")
        return Self.run(day, "tea:done mood:=\(answer) \(branch) \(answer == 2 ? "" : read + " water:done:\(6 + day % 4)")")
    }

    /// A question's page and its JSON, over the same three weeks.
    @Test func goldenQuestionPageAndJSON() throws {
        let report = Self.report(Self.threeWeeks, until: 18)
        let mood = QuestionStats(Self.routine.indexByID()["mood"]!, in: report)
        #expect(mood.options.map(\.chosen.all) == [5, 5, 5])
        #expect(mood.answered == QuestionStats.Window(all: 15, last30: 15, last7: 5))
        let read = try #require(mood.habits.first { $0.id == "read" })
        #expect(read.with[2] == QuestionStats.Tally(done: 0, due: 0), "'Skip' ends the run before 'read': not due")
        let text = StatsText.questionRows(report) + "\n" + StatsText.questionPage(mood)
        try assertGolden(text, testsDirectory.appendingPathComponent("Fixtures/stats/question.txt"))
        try assertGolden(StatsJSON.encode(mood).text + "\n", testsDirectory.appendingPathComponent("Fixtures/stats/question.json"))
    }

    /// Within the budget every question's table is the one `--question` gives; past it the
    /// habits are left out and said to be, and the answers' figures stay.
    @Test(arguments: [(QuestionStats.habitsBudget, false), (0, true)])
    func theHabitsTablesOfAllQuestionsShareABudget(_ budget: Int, _ leftOut: Bool) throws {
        let report = Self.report(Self.threeWeeks, until: 18)
        let mood = Self.routine.indexByID()["mood"]!
        let alone = QuestionStats(mood, in: report)
        let all = QuestionStats.all(in: report, budget: budget)
        let shared = try #require(all.first { $0.index == mood })
        #expect(all.map(\.index) == report.questions)
        #expect(shared.habitsLeftOut == leftOut)
        #expect(shared.habits.map(\.id) == (leftOut ? [] : alone.habits.map(\.id)))
        #expect(shared.habits.map(\.with) == (leftOut ? [] : alone.habits.map(\.with)))
        #expect(shared.options.map(\.chosen) == alone.options.map(\.chosen))
        #expect(StatsJSON.encode(shared).text.contains(#""habitsLeftOut":true"#) == leftOut)
        #expect(leftOut || StatsJSON.encode(shared).text == StatsJSON.encode(alone).text)
    }

    /// Every question's table holds its first `rows` habits in the routine's order and counts
    /// the rest; 0 rows leaves the member out; `--question` (no bound) lists them all.
    @Test(arguments: [(50, ["run", "rest", "read", "water"], 0), (2, ["run", "rest"], 2), (1, ["run"], 3), (0, [], 0)])
    func eachQuestionsTableIsBoundedAndSaysWhatItLeftOut(_ rows: Int, _ listed: [String], _ omitted: Int) throws {
        let report = Self.report(Self.threeWeeks, until: 18)
        let mood = Self.routine.indexByID()["mood"]!
        let alone = QuestionStats(mood, in: report)
        let bounded = try #require(QuestionStats.all(in: report, rows: rows).first { $0.index == mood })
        #expect(bounded.habits.map(\.id) == listed)
        #expect(bounded.habitsOmitted == omitted)
        #expect(bounded.habits.map(\.with) == Array(alone.habits.prefix(rows)).map(\.with))
        let json = StatsJSON.encode(bounded, withHabits: rows > 0).text
        #expect(json.contains(#""habitsOmitted":\#(omitted)"#) == (omitted > 0))
        #expect(json.contains(#""habits":"#) == (rows > 0))
        // The answers' figures are those of the whole table, whatever the bound.
        let answers = StatsJSON.encode(alone, withHabits: false).text
        #expect(json.hasPrefix(String(answers.dropLast())))
        #expect(alone.habitsOmitted == 0)
    }

    /// The whole statistics with the questions' tables left out are those with them, less the
    /// `habits` members: what the studio's page is given.
    @Test func theStatisticsWithoutTheQuestionsTablesDifferOnlyByThem() throws {
        let report = Self.report(Self.threeWeeks, until: 18)
        var full = ""
        StatsJSON.write(report) { full += $0 }
        var lean = ""
        StatsJSON.write(report, questionHabits: .none) { lean += $0 }
        let table = StatsJSON.encode(QuestionStats(Self.routine.indexByID()["mood"]!, in: report)).text
        let habits = try #require(table.range(of: #","habits":"#))
        #expect(full.contains(table))
        #expect(lean == full.replacingOccurrences(of: table, with: String(table[..<habits.lowerBound]) + "}"))
    }

    /// Three weeks of a fixed history, "today" fixed: the table and both calendars.
    @Test(arguments: [("characters", HeatMap.Palette.characters), ("colors256", .colors256), ("truecolor", .trueColor)])
    func goldenTableAndCalendars(_ name: String, _ palette: HeatMap.Palette) throws {
        let runs = Self.threeWeeks
        let report = Self.report(runs, until: 18)
        let map = HeatMap(palette: palette, weeks: 5)
        var text = StatsText.heading(report, recordedDays: Set(runs.map(\.date)).count) + StatsText.table(report) + "\n"
        text += map.render(last: report.until.adding(days: -1)) { HeatMap.level(share: report.share(on: $0)) } + "\n"
        let water = report.habits.first { $0.id == "water" }!
        let byDate = Dictionary(uniqueKeysWithValues: water.days.map { ($0.date, $0.status) })
        text += StatsText.habitPage(water) + "\n" + map.render(last: report.until.adding(days: -1)) { byDate[$0] }
        try assertGolden(text, testsDirectory.appendingPathComponent("Fixtures/stats/\(name).txt"))
    }

    /// `run` is due twice a week: a week that met it early has no missed day, a week that
    /// ended short has the shortfall missed on its last days, the open week has none yet.
    @Test func aWeeklyQuotaIsTheSchedule() {
        let routine = load("routine \"Q\"\nhabit tea \"Tea\" -> run\nhabit run \"Run\" 2 per week\n").routine
        func run(_ day: Int, _ steps: String) -> StatsRun {
            let recorded = steps.split(separator: " ").enumerated().map { k, text in
                let parts = text.split(separator: ":").map(String.init)
                return RecordedStep(step: k + 1, node: parts[0], kind: .habit, result: RecordedStep.Result(rawValue: parts[1])!)
            }
            return StatsRun(date: Self.monday.adding(days: day), completed: true, recorded: recorded, in: routine)
        }
        let runs = [
            run(0, "tea:done run:done"), run(1, "tea:done run:done"), run(2, "tea:done run:not-scheduled"),  // met by Tuesday
            run(7, "tea:done run:done"), run(8, "tea:done run:skipped"),  // 1 done + 1 skipped: met
            run(14, "tea:done run:done"),  // one short
            run(21, "tea:done run:skipped"),  // the open week
        ]
        let report = StatsReport(routine: routine, runs: runs, since: Self.monday, until: Self.monday.adding(days: 23), unconditional: [0, 1])
        let days = report.habits[1].days.map(\.status.rawValue)
        #expect(Array(days[0..<7]) == ["done", "done", "not-due", "not-due", "not-due", "not-due", "not-due"])
        #expect(Array(days[7..<14]) == ["done", "skipped", "not-due", "not-due", "not-due", "not-due", "not-due"])
        #expect(Array(days[14..<21]) == ["done", "not-due", "not-due", "not-due", "not-due", "not-due", "missed"])
        #expect(Array(days[21...]) == ["skipped", "not-due"])
        #expect(abs(HabitStats.multiplier(frequency: 2.0 / 7) - pow(0.5, (2.0 / 7).squareRoot() / 13)) < 1e-15)
    }

    @Test func theRunShowsTheWeeksCountAndPassesOverAMetQuota() {
        let routine = load("routine \"Q\"\nhabit tea \"Tea\" -> run\nhabit run \"Run\" for 30m 2 per week\n").routine
        var run = RoutineRun(routine: routine, date: Self.monday, doneThisWeek: [1: 1])
        run.decide(.done(value: nil))
        let prompt = RunTranscript(interactive: true, colors: false).render(.prompt(node: 1, step: 2, again: false), run).stdout
        #expect(prompt.contains("Run · 30m · 1 of 2 this week"), "\(prompt)")
        var met = RoutineRun(routine: routine, date: Self.monday, doneThisWeek: [1: 2])
        met.decide(.done(value: nil))
        #expect(met.isFinished)
        let passed = RunTranscript(interactive: false, colors: false).render(.record(met.records[1]), met).stdout
        #expect(passed == "2. Run: done 2 of 2 this week\n")
    }
}
