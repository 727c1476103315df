/// `routine stats` as text for people: the table of habits, a habit's own page, and the
/// day-by-day explanation of a score. Every text from the routine passes the sanitiser.
public enum StatsText {
    public static func percent(_ share: Double?) -> String {
        guard let share else { return "–" }
        return "\(Int((share * 100).rounded()))%"
    }

    /// The heading: the routine, the window, on how many days something was recorded (a run
    /// or a log: a history imported from another tracker holds logs only).
    public static func heading(_ report: StatsReport, recordedDays: Int) -> String {
        let days = report.until.dayNumber - report.first.dayNumber + 1
        let open = report.untilIsOpen ? " · \(report.until) not run yet" : ""
        let offCount = report.daysOff.count { $0 >= report.first && $0 <= report.until }
        let off = offCount > 0 ? ", \(offCount) off" : ""
        return Sanitizer.visible(report.routine.name)
            + " · \(report.first) to \(report.until) · \(days) day\(days == 1 ? "" : "s"), \(recordedDays) with records\(off)\(open)\n"
    }

    /// One row per habit: streaks, rates, score, last done; numeric and timed details below.
    public static func table(_ report: StatsReport) -> String {
        let idWidth = max(5, report.habits.map { $0.id.count }.max() ?? 5)
        func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let room = String(repeating: " ", count: max(0, width - text.count))
            return right ? room + text : text + room
        }
        var text = pad("habit", idWidth) + "  streak  best    7d   30d   all  score  last done\n"
        for habit in report.habits {
            text += pad(Sanitizer.visible(habit.id), idWidth)
            text += pad(String(habit.currentStreak), 8, right: true) + pad(String(habit.bestStreak), 6, right: true)
            // A rate over a window with unknown days is over its known days only: marked `?`
            // in the space before the next column, so that the columns stay aligned.
            var marked = false
            for (rate, unknown) in [(habit.rate7, habit.unknown7), (habit.rate30, habit.unknown30), (habit.rateAll, habit.unknownAll)] {
                text += marked ? pad(percent(rate), 5, right: true) : pad(percent(rate), 6, right: true)
                marked = unknown > 0
                if marked { text += "?" }
            }
            text += pad(percent(habit.hasScore ? habit.score : nil), marked ? 6 : 7, right: true)
            text += "  " + (habit.lastDone.map(String.init(describing:)) ?? "never") + "\n"
            for line in details(habit) { text += "  " + line + "\n" }
        }
        if report.habits.contains(where: { $0.unknownAll > 0 }) {
            text += "? over known days only: on an unknown day nobody answered what decides the habit (--explain ID lists them)\n"
        }
        return text
    }

    /// "100% of 9 known days · 2 unknown": the whole window's rate, with what it leaves out.
    static func knownDays(_ habit: HabitStats) -> String {
        let known = habit.rateAll.map { "\(percent($0)) of \(habit.dueAll) known due day\(habit.dueAll == 1 ? "" : "s")" } ?? "no known due day"
        return known + " · \(habit.unknownAll) unknown"
    }

    /// Lines under a habit's row: values against the target, planned against measured time.
    static func details(_ habit: HabitStats) -> [String] {
        var lines: [String] = []
        if habit.unknownAll > 0 { lines.append("all: " + knownDays(habit)) }
        if let target = habit.target {
            let unit = target.unit.map { " " + Sanitizer.visible($0) } ?? ""
            if let last = habit.values.last, let average = habit.averageValue {
                lines.append(
                    "values: last \(NumberText.format(last.value))\(unit) · average \(NumberText.format((average * 10).rounded() / 10))\(unit) · target \(target.boundText)\(unit) met \(habit.targetMet) of \(habit.values.count)"
                )
            } else {
                lines.append("values: none given · target \(target.boundText)\(unit)")
            }
        }
        if let planned = habit.plannedSeconds {
            let measured = habit.measuredSeconds.map { "measured \(DurationText.human(Int($0.rounded()))) on average" } ?? "not measured yet"
            lines.append("time: planned \(DurationText.human(planned)) · \(measured)")
        }
        return lines
    }

    /// A habit's own page: its counts, streaks and score, and for a numeric habit a sparkline
    /// of its values with the target marked.
    public static func habitPage(_ habit: HabitStats) -> String {
        var text = Sanitizer.visible("\(habit.id): \(habit.title)") + "\n"
        let order: [DayStatus] = [.done, .skipped, .missed, .notDue, .unknown]
        text += "  " + order.map { "\(habit.counts[$0] ?? 0) \($0.rawValue)" }.joined(separator: " · ") + "\n"
        text += "  streak \(habit.currentStreak) · best \(habit.bestStreak) · score \(percent(habit.hasScore ? habit.score : nil))"
        text += " · last done " + (habit.lastDone.map(String.init(describing:)) ?? "never") + "\n"
        for line in details(habit) { text += "  " + line + "\n" }
        if let target = habit.target, !habit.values.isEmpty {
            text += "  " + sparkline(habit.values.map(\.value), target: target.amount) + "\n"
        }
        return text
    }

    /// Values as bars `▁▂▃▄▅▆▇█` scaled to the larger of the highest value and the target,
    /// followed by where the target sits.
    static func sparkline(_ values: [Double], target: Double) -> String {
        let bars = Array("▁▂▃▄▅▆▇█")
        let top = max(values.max() ?? 0, target)
        guard top > 0 else { return String(repeating: "▁", count: values.count) }
        let line = values.suffix(60).map { bars[min(7, max(0, Int(($0 / top * 7).rounded())))] }
        let mark = bars[min(7, Int((target / top * 7).rounded()))]
        return String(line) + "  (target \(NumberText.format(target)) = \(mark))"
    }

    /// Every due day's contribution to the score, with the formula.
    public static func explain(_ habit: HabitStats) -> String {
        let frequency = habit.frequency
        let m = HabitStats.multiplier(frequency: frequency)
        var text = Sanitizer.visible("\(habit.id): \(habit.title)") + "\n"
        text +=
            "  s = m·s + (1 − m)·v from s = 0, with m = 0.5^(√f / 13) = \(format(m, 4)), f = \(format(frequency, 3)) (the share of days it is scheduled)\n"
        text += "  v is 1 on a done day (for a numeric habit, value / target, at most 1), 0 on a missed day;\n"
        text += "  skipped, not-due and unknown days leave s as it is\n"
        let steps = habit.scoreSteps
        for step in steps {
            text += "  \(step.date)  " + step.status.rawValue.padding(6) + "  v = \(format(step.value, 2))  s = \(format(step.score, 4))\n"
        }
        if steps.isEmpty { text += "  no due day yet: no score\n" }
        let unknown = habit.days.filter { $0.status == .unknown }
        if !unknown.isEmpty {
            text += "  \(unknown.count) unknown day\(unknown.count == 1 ? "" : "s"), left out of the score and the rates (\(knownDays(habit))):\n"
            for day in unknown { text += "  \(day.date)  unknown\n" }
        }
        return text
    }

    static func format(_ x: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return NumberText.format((x * scale).rounded() / scale)
    }
}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
