/// Renders run events as text for people: the interactive screen (prompts and all) or the
/// plain transcript of a scripted run. Colour is the caller's decision.
public struct RunTranscript: Sendable {
    /// Whether the person answers at a terminal: show prompts and help, and do not repeat
    /// what they just typed.
    public var interactive: Bool
    public var colors: Bool
    /// Seconds measured on each record of the run, in order (nil: not measured), for the
    /// summary at a terminal: ``StepTimer/seconds``.
    public var measured = StepTimes()

    public init(interactive: Bool, colors: Bool) {
        self.interactive = interactive
        self.colors = colors
    }

    /// The text for `event`: `stdout` for the screen, `stderr` for complaints.
    /// `elapsed`: the time the run took, nil when it was not measured (a scripted run).
    public func render(_ event: RunEvent, _ run: RoutineRun, elapsed: Double? = nil) -> (stdout: String, stderr: String) {
        // Single fields from the records: a whole node would copy every option of a question,
        // and a question of 100,000 options is answered, refused and recorded many times.
        let routine = run.routine
        switch event {
        case .start:
            var text = paint(run.routine.name, "1") + dim(" · \(run.date.weekdayName) \(run.date)") + "\n"
            if interactive { text += dim("Enter or d: done · s: skip · b: back · q: quit · ?: help") + "\n" }
            return (text, "")
        case .prompt(let index, let step, let again):
            guard interactive else { return ("", "") }
            return (again ? "  " + inputLine(index, routine) : prompt(routine.nodes[index], index: index, step: step, run: run), "")
        case .record(let record):
            let title = routine.title(of: record.node)
            switch record.outcome {
            case .habit(.notScheduled, _) where run.passReason(of: record.node) != nil:
                let time = run.doneEarlier[record.node].map { "done at " + $0.text } ?? "done"
                return (dim("\(record.step). \(title): \(time)") + "\n", "")
            case .habit(.notScheduled, _) where run.routine.days(of: record.node).map({ $0.contains(run.date.weekday) }) ?? true:
                // On its day, so passed over for its weekly quota.
                let quota = routine.perWeek(of: record.node) ?? 0
                return (dim("\(record.step). \(title): done \(run.doneThisWeek[record.node] ?? quota) of \(quota) this week") + "\n", "")
            case .habit(.notScheduled, _):
                return (dim("\(record.step). \(title): not scheduled on \(run.date.weekdayName)s") + "\n", "")
            case _ where interactive:
                return ("", "")
            case .habit(let result, let value):
                let shown =
                    value.map { "\(NumberText.format($0))" + (routine.target(of: record.node)?.unit.map { " " + $0 } ?? "") } ?? result.rawValue
                return (clean("\(record.step). \(title): \(shown)") + "\n", "")
            case .answer(let k):
                return (clean("\(record.step). \(title) \(routine.answer(k, of: record.node))") + "\n", "")
            }
        case .back(let index):
            return (dim("back to step \(run.step): \(routine.title(of: index))") + "\n", "")
        case .invalid(let index, _, let message):
            let prefix = interactive || index < 0 ? "  " : "step \(run.step) ('\(routine.id(of: index))'): "
            return ("", clean(prefix + message) + "\n")
        case .confirmEnd:
            return ("\n" + paint("That's the end of '\(routine.name)'.", "1") + " Enter to finish, b to go back > ", "")
        case .help(let index):
            return (help(index, routine), "")
        case .end(let result):
            return (summary(result, run, elapsed: elapsed), "")
        }
    }

    private func prompt(_ node: RoutineNode, index: Int, step: Int, run: RoutineRun) -> String {
        let progress = run.stepsLeft.text
        var text = "\n" + dim("Step \(step) · \(run.routine.name) · \(progress)") + "\n"
        var details: [String] = []
        if let seconds = node.duration { details.append(DurationText.human(seconds)) }
        if let target = node.target { details.append("target " + AnswerInterpreter.describe(target)) }
        if let quota = node.perWeek { details.append("\(run.doneThisWeek[index] ?? 0) of \(quota) this week") }
        text += "  " + paint(node.title, "1") + (details.isEmpty ? "" : dim(" · " + details.joined(separator: " · "))) + "\n"
        if let note = node.note { text += dim(indent(note, by: "  ")) + "\n" }
        if node.isQuestion {
            for (k, option) in node.options.enumerated() { text += "    \(k + 1). " + clean(option.text) + "\n" }
        }
        return text + "  " + inputLine(index, run.routine)
    }

    /// The line the answer is typed on.
    public func inputLine(_ index: Int, _ routine: Routine) -> String {
        if routine.isQuestion(index) {
            let count = routine.optionCount(of: index)
            // Options written as numbers: say which number a digit means.
            let numbered = (0..<count).contains { k in
                let text = routine.answer(k, of: index)
                return !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
            }
            return "answer (1-\(count)\(numbered ? ", by position" : "")) > "
        }
        if let target = routine.target(of: index) { return "amount [\(Sanitizer.visible(AnswerInterpreter.describe(target)))] > " }
        return routine.duration(of: index) == nil ? "done? > " : "done? (t: timer) > "
    }

    private func help(_ index: Int, _ routine: Routine) -> String {
        if routine.isQuestion(index) {
            return "  Type an option's number or its text (or the start of it). b: back · q: quit\n"
        }
        let done =
            routine.target(of: index) != nil
            ? "Enter: the target · a number: the amount done"
            : routine.duration(of: index) != nil
                ? "Enter or d: done · t: a timer of its duration (Space pauses, Esc comes back here)"
                : "Enter or d: done"
        return "  \(done) · s: skip · b: back to the previous step · q: quit and show the summary\n"
    }

    private func summary(_ result: RunResult, _ run: RoutineRun, elapsed: Double?) -> String {
        let s = RunSummary(run)
        // The words of --json, `log` and the history, at a terminal and in a script alike.
        let outcome = result == .incomplete ? "incomplete: the answers ran out" : result.rawValue
        var text = "\n" + paint("\(run.routine.name): \(outcome)", "1") + "\n"
        text += "  \(s.done) done · \(s.skipped) skipped · \(s.notScheduled) not scheduled\n"
        for (node, value) in s.values {
            let habit = run.routine.nodes[node]
            var line = "  \(habit.title): \(NumberText.format(value))"
            if let target = habit.target { line += " of " + AnswerInterpreter.describe(target) }
            text += clean(line) + "\n"
        }
        // What was decided, by name: the skipped habits and the answers (and at a terminal,
        // each timed habit's planned time against its time).
        let skipped = run.records.filter { $0.outcome == .habit(.skipped, value: nil) }.map { run.routine.title(of: $0.node) }
        if !skipped.isEmpty { text += clean("  skipped: " + skipped.joined(separator: ", ")) + "\n" }
        for (k, record) in run.records.enumerated() {
            switch record.outcome {
            case .answer(let k):
                text += clean("  \(run.routine.title(of: record.node)) \(run.routine.answer(k, of: record.node))") + "\n"
            case .habit(.done, _):
                guard let planned = run.routine.duration(of: record.node), k < measured.count, let took = measured[k] else { continue }
                text +=
                    clean(
                        "  \(run.routine.title(of: record.node)): planned \(DurationText.human(planned)) · took \(DurationText.human(Int(took.rounded())))"
                    ) + "\n"
            default:
                continue
            }
        }
        let took = elapsed.map { "took " + DurationText.human(Int($0.rounded())) } ?? "time not measured"
        // A run with no timed habit planned no time: nothing to set against it.
        text += "  " + (s.plannedSeconds > 0 ? "planned \(DurationText.human(s.plannedSeconds)) · " : "") + took + "\n"
        return text
    }

    private func indent(_ text: String, by prefix: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
    }

    private func dim(_ text: String) -> String { paint(text, "2") }

    /// Every text from the routine or the person passes through here or ``clean(_:)``, so
    /// that none reaches the terminal raw.
    private func paint(_ text: String, _ code: String) -> String {
        let text = Sanitizer.visible(text, keepingNewlines: true)
        return colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    private func clean(_ text: String) -> String { Sanitizer.visible(text) }
}
