/// What the history says about a routine's graph over a window: each habit's completion rate,
/// which nodes any run reached, and how often each answer was chosen. `graph --stats` draws it.
public struct GraphHistory: Sendable {
    /// Completion rate by node, for habits with a due day in the window.
    public var rates: [Int: Double] = [:]
    /// Whether any run of the window reached each node.
    public var reached: [Bool]
    /// On how many days each option of each question was the day's answer (the last one
    /// given that day, as `stats --question` counts), by question.
    public var chosen: [Int: [Int]] = [:]
    /// The runs counted, and the window, for the legend.
    public var runs: Int
    public var first: CalendarDate
    public var until: CalendarDate

    public init(report: StatsReport, runs: [StatsRun]) {
        let routine = report.routine
        reached = Array(repeating: false, count: routine.nodeCount)
        self.runs = runs.count
        first = report.first
        until = report.until
        for habit in report.habits {
            if let rate = habit.rateAll { rates[habit.index] = rate }
        }
        for run in runs {
            for step in run.steps where step.result != .notScheduled { reached[step.node] = true }
        }
        for (ordinal, question) in report.questions.enumerated() {
            let count = routine.optionCount(of: question)
            for option in report.answers[ordinal] where option >= 0 && Int(option) < count {
                reached[question] = true
                chosen[question, default: Array(repeating: 0, count: count)][Int(option)] += 1
            }
        }
    }

    /// What a count on an answer is, for the legends of `graph --stats` and the studio.
    public static let countNote = "N× on an answer: days it was the day's answer (the last one given)"

    /// The fill colour of a completion rate: red through amber to green, in five steps.
    public static func color(rate: Double) -> String {
        let scale = ["#f4b6b6", "#f7d1a8", "#f5e79e", "#c9e7a7", "#8fd18f"]
        return scale[min(4, Int(rate * 5))]
    }

    /// The legend's bands, lowest first.
    public static let bands = ["0–19%", "20–39%", "40–59%", "60–79%", "80–100%"]
}
