/// One step of a run as a history recorded it: enough to replay the decision through the run
/// engine and to tell whether it still applies to the routine as it is now.
public struct RecordedStep: Hashable, Sendable {
    /// What happened at the step, in the history's words.
    public enum Result: String, Hashable, Sendable, CaseIterable {
        case done, skipped
        case notScheduled = "not-scheduled"
        case answered
    }

    /// 1-based step number.
    public var step: Int
    public var node: String
    public var kind: RoutineNode.Kind
    public var result: Result
    /// A numeric habit's value.
    public var value: Double?
    /// The chosen option's 0-based index and its text, for an answer.
    public var option: Int?
    public var optionText: String?

    public init(
        step: Int, node: String, kind: RoutineNode.Kind, result: Result, value: Double? = nil, option: Int? = nil,
        optionText: String? = nil
    ) {
        self.step = step
        self.node = node
        self.kind = kind
        self.result = result
        self.value = value
        self.option = option
        self.optionText = optionText
    }

    /// The step as the history would record `record` of `run`.
    public init(_ record: RunRecord, of routine: Routine) {
        let index = record.node
        switch record.outcome {
        case .answer(let k):
            self.init(
                step: record.step, node: routine.id(of: index), kind: .question, result: .answered, option: k,
                optionText: routine.answer(k, of: index))
        case .habit(let result, let value):
            let mapped: Result =
                switch result {
                case .done: .done
                case .skipped: .skipped
                case .notScheduled: .notScheduled
                }
            self.init(step: record.step, node: routine.id(of: index), kind: .habit, result: mapped, value: value)
        }
    }
}

/// Why a recorded step no longer applies to the routine: the replay stopped there.
public struct ReplayDivergence: Hashable, Sendable {
    /// The first step that was not replayed; it and every later step are dropped.
    public var step: Int
    public var node: String
    public var reason: String

    public init(step: Int, node: String, reason: String) {
        self.step = step
        self.node = node
        self.reason = reason
    }
}

extension RoutineRun {
    /// Replays `steps` (in step order) through the run. Stops at the first step that does not
    /// apply to the routine as it is now (its node is gone, is not the one waiting, or the
    /// option's index or text no longer match) and says why; the run is then as it was
    /// after the steps before it. The engine is deterministic, so a routine that did not
    /// change replays to exactly the recorded run.
    public mutating func replay(_ steps: [RecordedStep]) -> ReplayDivergence? {
        var ids: [String: Int]?
        func diverge(_ step: RecordedStep, _ reason: String) -> ReplayDivergence {
            ReplayDivergence(step: step.step, node: step.node, reason: reason)
        }
        func exists(_ id: String) -> Bool {
            if ids == nil { ids = routine.indexByID() }
            return ids?[id] != nil
        }
        for step in steps {
            if step.result == .notScheduled {
                // Passed over by the engine itself; it must have passed over the same node.
                let k = step.step - 1
                guard k < records.count, case .habit(.notScheduled, _) = records[k].outcome,
                    routine.id(of: records[k].node) == step.node
                else {
                    if !exists(step.node) { return diverge(step, "no node is named '\(step.node)' any more") }
                    return diverge(step, "'\(step.node)' is no longer passed over on \(date.weekdayName)s")
                }
                continue
            }
            guard let current else {
                return diverge(step, "the run now ends before this step")
            }
            let waiting = routine.id(of: current)
            guard waiting == step.node else {
                if !exists(step.node) { return diverge(step, "no node is named '\(step.node)' any more") }
                return diverge(step, "'\(waiting)' comes at this point now, not '\(step.node)'")
            }
            guard step.step == self.step else {
                return diverge(step, "it is step \(self.step) now")
            }
            let isQuestion = routine.isQuestion(current)
            guard isQuestion == (step.kind == .question) else {
                return diverge(step, "'\(step.node)' is a \(isQuestion ? "question" : "habit") now")
            }
            switch step.result {
            case .answered:
                let count = routine.optionCount(of: current)
                guard let k = step.option, k >= 0, k < count else {
                    return diverge(step, "'\(step.node)' has no option \((step.option ?? -1) + 1) now")
                }
                let text = routine.answer(k, of: current)
                guard text == step.optionText else {
                    return diverge(step, "option \(k + 1) of '\(step.node)' is \"\(text)\" now, not \"\(step.optionText ?? "")\"")
                }
                decide(.option(k))
            case .done:
                let numeric = routine.target(of: current) != nil
                guard numeric == (step.value != nil) else {
                    return diverge(step, numeric ? "'\(step.node)' asks for an amount now" : "'\(step.node)' no longer asks for an amount")
                }
                decide(.done(value: step.value))
            case .skipped:
                decide(.skip)
            case .notScheduled:
                break
            }
        }
        return nil
    }
}
