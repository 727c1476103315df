/// What the passing cases of one routine reached, and what they did not.
public struct ScenarioCoverage: Sendable {
    public let routine: Routine
    public private(set) var habits: Set<Int> = []
    public private(set) var answers: Set<OptionRef> = []

    public init(routine: Routine) { self.routine = routine }

    /// Counts what a case reached; a failing case counts for nothing.
    public mutating func add(_ outcome: ScenarioOutcome) {
        guard outcome.passed else { return }
        habits.formUnion(outcome.habits)
        answers.formUnion(outcome.answers)
    }

    public var answerCount: Int { (0..<routine.nodeCount).reduce(0) { $0 + routine.optionCount(of: $1) } }
    public var habitCount: Int { (0..<routine.nodeCount).filter { !routine.isQuestion($0) }.count }
    public var isComplete: Bool { answers.count == answerCount && habits.count == habitCount }

    /// "answers 9 of 11, habits 14 of 15".
    public var summary: String { "answers \(answers.count) of \(answerCount), habits \(habits.count) of \(habitCount)" }

    /// One warning (W013) per answer and habit no passing case reached, in source order.
    public func uncovered() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let nodes = routine.nodes
        for index in 0..<routine.nodeCount {
            let node = nodes[index]
            if node.isQuestion {
                for (k, option) in node.options.enumerated() where !answers.contains(OptionRef(node: index, option: k)) {
                    diagnostics.append(.uncoveredAnswer(option.text, of: node.id, at: option.textSpan))
                }
            } else if !habits.contains(index) {
                diagnostics.append(.uncoveredHabit(node.id, at: node.idSpan))
            }
        }
        return diagnostics.sortedByPosition()
    }
}
