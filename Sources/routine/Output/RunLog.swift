import RoutineHistory
import RoutineKit

/// The text `routine log` prints.
enum RunLog {
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// One line per run: date, weekday, start time, result, counts, values, time taken.
    static func table(_ runs: [(run: StoredRun, totals: RunTotals)], showRoutine: Bool, routine: Routine? = nil) -> TextTable {
        var table = TextTable(columns: showRoutine ? 7 : 6, rows: runs.count)
        for (run, totals) in runs {
            table.append(visible: run.date)
            table.endCell()
            if let day = CalendarDate(run.date) { table.append(Self.weekdays[day.isoWeekday - 1]) }
            table.endCell()
            let minutes = run.startedAt.minuteOfDay(offset: run.utcOffset)
            table.append(twoDigits: minutes / 60)
            table.append(":")
            table.append(twoDigits: minutes % 60)
            table.endCell()
            if showRoutine {
                table.append(visible: run.routine)
                table.endCell()
            }
            table.append(run.shownResult)
            table.endCell()
            counts(totals, routine: routine, into: &table)
            table.endCell()
            table.append(span(run))
            table.endCell()
        }
        return table
    }

    /// The days off, one line each: date, weekday, routine (when several may show), reason.
    static func daysOff(_ days: [DayOff], showRoutine: Bool) -> String {
        var text = ""
        for day in days {
            text += "\(day.date)  \(Self.weekdays[day.date.isoWeekday - 1])  day off"
            // Each entry one line: an old history's reason may hold a line break.
            if showRoutine { text += " · " + Sanitizer.visible(day.routine) }
            if let reason = day.reason { text += " (" + Sanitizer.visible(reason) + ")" }
            text += "\n"
        }
        return text
    }

    /// A run's heading and its steps, in order; `routine`, when known, tells a limit ("at most") from a goal.
    static func steps(of run: StoredRun, routine: Routine? = nil) -> String {
        let day = CalendarDate(run.date)?.weekdayName ?? ""
        var span = run.startedAt.clockTime(offset: run.utcOffset)
        if let ended = run.endedAt { span += " to " + ended.clockTime(offset: run.utcOffset) }
        var text = "\(run.routine) · \(day) \(run.date) · \(span) · \(run.shownResult)\(run.reachedEnd ? " (reached end)" : "")\n"
        for step in run.steps {
            let d = step.decision
            var line = "  \(d.step). \(step.title)" + (d.result == .answered ? " " : ": ")
            switch d.result {
            case .answered: line += d.optionText ?? ""
            case .done:
                line += step.valueText(in: routine) ?? "done"
            case .skipped: line += "skipped"
            case .notScheduled:
                switch step.reason {
                case .doneByLog?: line += "passed over, done by a log"
                case .doneByRun?: line += "passed over, done by another run"
                case nil: line += "not scheduled"
                }
            }
            // A step nobody was timed on (a scripted run's, a log without --took) shows no time.
            if d.result != .notScheduled, let seconds = step.seconds { line += " · " + DurationText.human(Int(seconds.rounded())) }
            if run.amendments.contains(where: { $0.step == d.step }) { line += " (amended)" }
            text += line + "\n"
        }
        // A run on which nobody was timed (a scripted one) took no time anybody measured; a log
        // takes none.
        let took = took(run)
        return text + "  " + counts(RunTotals(run.steps), routine: routine) + (took.isEmpty ? "" : " · took \(took)") + "\n"
    }

    static func counts(_ totals: RunTotals, routine: Routine? = nil) -> String {
        var table = TextTable(columns: 1)
        counts(totals, routine: routine, into: &table)
        table.endCell()
        return String(table.text.dropLast())
    }

    /// "27 done, 2 skipped, 0 not scheduled · h9 4/8" (", 1 done earlier" when a log or an
    /// earlier run had done a habit the run passed over): a routine of many numeric habits would
    /// make a line per run unreadable, so three values, then how many more (`log --date`
    /// shows them all). `routine`, when known, tells a limit from a goal: "coffee 3 (over the
    /// limit of 2)".
    static func counts(_ totals: RunTotals, routine: Routine? = nil, into table: inout TextTable) {
        table.append(totals.done)
        table.append(" done, ")
        table.append(totals.skipped)
        table.append(" skipped, ")
        table.append(totals.notScheduled)
        table.append(" not scheduled")
        if totals.doneEarlier > 0 {
            table.append(", ")
            table.append(totals.doneEarlier)
            table.append(" done earlier")
        }
        for value in totals.values.prefix(3) {
            table.append(" · ")
            table.append(visible: value.node)
            table.append(" ")
            if let amount = value.target {
                table.append(TargetValue(recorded: amount, node: value.node, in: routine).shortValueText(value.value))
            } else {
                table.append(NumberText.format(value.value))
            }
        }
        if totals.values.count > 3 {
            table.append(" · ")
            table.append(totals.values.count - 3)
            table.append(" more values")
        }
    }

    /// From a finished run's start to its end, as the clock said; empty for a log and an
    /// unfinished run. (The list reads no steps: what the run took is under `--date`.)
    static func span(_ run: StoredRun) -> String {
        guard let ended = run.endedAt, run.kind == .run else { return "" }
        return DurationText.human(Int(max(0, run.startedAt.seconds(to: ended)).rounded()))
    }

    /// What a finished run took (``StepTimer/took(_:)``); empty for a log, an unfinished run
    /// and one nobody timed.
    static func took(_ run: StoredRun) -> String {
        guard run.endedAt != nil, run.kind == .run, let seconds = StepTimer.took(run.steps.map(\.seconds)) else { return "" }
        return DurationText.human(Int(seconds.rounded()))
    }
}
