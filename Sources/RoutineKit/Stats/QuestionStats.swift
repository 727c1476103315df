/// What the answers to one question say (`routine stats --question ID`): how often each option
/// was chosen, week by week, and how the habits after the question fared on the days of each
/// answer against the days of the others.
public struct QuestionStats: Sendable {
    public var index: Int
    public var id: String
    public var prompt: String
    public var options: [Option]
    /// Days with an answer: the whole window, its last 30 and last 7 days.
    public var answered: Window
    /// The Mondays of the weeks in `Option.weekly`, oldest first.
    public var weeks: [CalendarDate]
    /// The habits the question can lead to, in declaration order.
    public var habits: [Habit]
    /// Whether `habits` was left out to keep within `habitsBudget` (then it is empty).
    public var habitsLeftOut = false
    /// The habits after the question past the table's row bound, not in `habits`.
    public var habitsOmitted = 0

    /// The rows of a question's habits table when every question's is given (`stats --json`):
    /// the first habits after it in the routine's order. A question before ten thousand habits
    /// would otherwise take megabytes; `--question ID` lists them all.
    public static let habitRows = 50

    /// The work the habits tables of all the questions of one report may take together (a node
    /// or arrow searched, a habit-day or option tallied): a routine of thousands of questions
    /// each before thousands of habits would otherwise take minutes. Far above what a routine
    /// of dozens of questions and habits over ten years takes.
    public static let habitsBudget = 4_000_000

    /// Fewer due days than this on a side of a comparison, and it is only a hint.
    public static let fewDays = 10

    /// A count over the whole window, its last 30 days and its last 7.
    public struct Window: Sendable, Equatable {
        public var all = 0
        public var last30 = 0
        public var last7 = 0
    }

    public struct Option: Sendable {
        public var text: String
        /// On how many days it was the day's answer.
        public var chosen: Window
        /// On how many days of each week of `weeks`.
        public var weekly: [Int]
    }

    /// done / due of a habit over some days.
    public struct Tally: Sendable, Equatable {
        public var done = 0
        public var due = 0
        public var rate: Double? { due == 0 ? nil : Double(done) / Double(due) }
    }

    public struct Habit: Sendable {
        public var id: String
        /// By option: the habit on the days of that answer, and on the days of the others.
        public var with: [Tally]
        public var others: [Tally]
    }

    /// The options chosen most often (several on a tie, in the routine's order) and the share
    /// of the days answered each has; nil before any answer.
    public var mostChosen: (options: [Int], share: Double)? {
        guard answered.all > 0, let most = options.map(\.chosen.all).max() else { return nil }
        return (options.indices.filter { options[$0].chosen.all == most }, Double(most) / Double(answered.all))
    }

    /// The figures of question `index` (one of `report.questions`) over the report's window,
    /// with every habit after it; without `habits` when `withHabits` is false (the table needs
    /// only the answers).
    public init(_ index: Int, in report: StatsReport, withHabits: Bool = true) {
        var unbounded = Int.max
        self.init(index, in: report, graph: withHabits ? RoutineGraph(report.routine) : nil, rows: Int.max, budget: &unbounded)
    }

    /// Every question of `report`, in order, each habits table at most `rows` long and all of
    /// them taken from one `budget`: once it is spent, the later questions have `habitsLeftOut`.
    /// `rows` 0 leaves every table out, with no search at all.
    public static func all(in report: StatsReport, rows: Int = habitRows, budget: Int = habitsBudget) -> [QuestionStats] {
        let graph = rows > 0 ? RoutineGraph(report.routine) : nil
        var left = budget
        return report.questions.map { QuestionStats($0, in: report, graph: graph, rows: rows, budget: &left) }
    }

    /// `graph` nil leaves the habits out; their table, its first `rows` habits, is made only if
    /// its work fits in `budget`, which it then takes from.
    private init(_ index: Int, in report: StatsReport, graph: RoutineGraph?, rows: Int, budget: inout Int) {
        let routine = report.routine
        self.index = index
        id = routine.id(of: index)
        prompt = routine.title(of: index)
        let ordinal = report.questions.firstIndex(of: index) ?? 0
        let days = report.answers.isEmpty ? [] : report.answers[ordinal]
        let optionCount = routine.optionCount(of: index)
        // The days of the window, like the rates: the last 7 and 30 end at `until`.
        let firstDay = report.first.dayNumber
        let windowEnd = report.until.dayNumber
        let firstMonday = report.first.weekStart.dayNumber
        let weekCount = days.isEmpty ? 0 : (firstDay + days.count - 1 - firstMonday) / 7 + 1
        weeks = (0..<weekCount).map { CalendarDate(dayNumber: firstMonday + 7 * $0) }
        options = (0..<optionCount).map {
            Option(text: routine.answer($0, of: index), chosen: Window(), weekly: Array(repeating: 0, count: weekCount))
        }
        answered = Window()
        for (offset, option) in days.enumerated() where option >= 0 && Int(option) < optionCount {
            let k = Int(option)
            let day = firstDay + offset
            let recent = windowEnd - day
            options[k].chosen.all += 1
            answered.all += 1
            if recent < 30 {
                options[k].chosen.last30 += 1
                answered.last30 += 1
            }
            if recent < 7 {
                options[k].chosen.last7 += 1
                answered.last7 += 1
            }
            options[k].weekly[(day - firstMonday) / 7] += 1
        }
        habits = []
        guard let graph else { return }
        // The search, then the tally, each charged before it is done.
        let search = graph.nodeCount + graph.targets.count
        guard search <= budget else {
            (habitsLeftOut, budget) = (true, 0)
            return
        }
        budget -= search
        let after = graph.reachable(from: graph.successors(of: index).map(Int.init))
        var reached = report.habits.filter { after[$0.index] }
        habitsOmitted = max(0, reached.count - rows)
        reached.removeLast(habitsOmitted)
        let tally = reached.count * (days.count + optionCount)
        guard tally <= budget else {
            (habitsLeftOut, habitsOmitted, budget) = (true, 0, 0)
            return
        }
        budget -= tally
        habits = reached.map { habit in
            var with = [Tally](repeating: Tally(), count: optionCount)
            var total = Tally()
            for (offset, day) in habit.days.enumerated() where offset < days.count {
                let option = Int(days[offset])
                guard option >= 0, option < optionCount else { continue }
                switch day.status {
                case .done:
                    with[option].done += 1
                    with[option].due += 1
                    total.done += 1
                    total.due += 1
                case .skipped, .missed:
                    with[option].due += 1
                    total.due += 1
                case .notDue, .unknown:
                    break
                }
            }
            let others = with.map { Tally(done: total.done - $0.done, due: total.due - $0.due) }
            return Habit(id: habit.id, with: with, others: others)
        }
    }
}
