import ArgumentParser
import RoutineKit

/// The forms `routine today` prints a day in.
enum TodayFormat: String, CaseIterable, ExpressibleByArgument {
    case table, waybar, i3blocks, tmux, short
}

/// The texts of `routine today`: every title made safe (``Sanitizer``), and escaped for the
/// format that carries it (JSON, Pango markup).
enum TodayOutput {
    /// The plain table: per routine a heading with the count, then a row per habit.
    static func table(_ totals: DayTotals) -> String {
        var text = ""
        for (k, (routine, overview)) in totals.days.enumerated() {
            if k > 0 { text += "\n" }
            let day = overview.date
            text += Sanitizer.visible(routine.name) + " · \(day.weekdayName) \(day) · "
            if let dayOff = overview.dayOff {
                text += Sanitizer.visible(dayOff.text)
                if overview.due > 0 { text += " · \(overview.done) of \(overview.due) done" }
            } else {
                text += "\(overview.done) of \(overview.due) done"
            }
            if overview.maybe > 0 { text += " · \(overview.maybe) maybe" }
            text += "\n"
            var table = TextTable(columns: 3)
            for (node, state) in overview.habits {
                table.append("  " + Self.word(state))
                table.endCell()
                table.append(visible: routine.title(of: node))
                table.endCell()
                table.append(visible: detail(state, routine, node, day))
                table.endCell()
            }
            text += table.text
        }
        return text
    }

    /// A habit's state as the table's first column says it: its word, with a space for "not-due".
    static func word(_ state: HabitState) -> String {
        if case .notDue = state { return "not due" }
        return state.word
    }

    /// What the last column says of a habit: when and how it was done, or why it is not due.
    static func detail(_ state: HabitState, _ routine: Routine, _ node: Int, _ day: CalendarDate) -> String {
        switch state {
        case .done(let by):
            let value = by.value.map { value in (routine.target(of: node).map { $0.valueText(value) } ?? NumberText.format(value)) + " · " }
            return (value ?? "") + by.text
        case .skipped(let by): return by.text
        case .pending: return routine.target(of: node)?.dayText ?? ""
        case .maybe: return "depends on answers not given yet"
        case .notDue(.notScheduled): return "its days are " + (routine.days(of: node)?.words.joined(separator: " ") ?? "")
        case .notDue(.quotaMet): return "this week's quota is met (\(routine.perWeek(of: node) ?? 0) per week)"
        case .notDue(.passedOver): return "passed over by today's run"
        case .notDue(.notReached): return "today's run did not lead there"
        case .notDue(.ruledOut): return "ruled out by today's answers"
        case .notDue(.dayOff): return "day off"
        case .notDue(.trackedOnly): return "tracked only: no way from 'start' leads there; 'routine done' logs it"
        }
    }

    /// "3/7", or "day off (sick)" when every routine is off.
    static func count(_ totals: DayTotals) -> String {
        if let dayOff = totals.dayOffText { return Sanitizer.visible(dayOff) }
        return "\(totals.done)/\(totals.due)"
    }

    /// The next step as a bar shows it ("Water", "mood?"), safe; nil when nothing is due.
    static func next(_ totals: DayTotals) -> String? {
        totals.next.map { Sanitizer.visible($0.step.label(in: totals.days[$0.day].routine)) }
    }

    /// "3/7 · Water": the count, and the next step while there is one.
    static func short(_ totals: DayTotals) -> String { count(totals) + (next(totals).map { " · " + $0 } ?? "") }

    /// tmux's status line: the short form with `#` doubled, which tmux would read as a format.
    static func tmux(_ totals: DayTotals) -> String { short(totals).replacing("#", with: "##") }

    /// The lines under the count: what is still due, per routine, the next step when it is
    /// a question (never "all done" while the bar names a step), and the days off.
    static func pendingLines(_ totals: DayTotals) -> [String] {
        var lines = totals.pendingTitles.map {
            Sanitizer.visible($0.routine) + ": " + $0.titles.map { Sanitizer.visible($0) }.joined(separator: ", ")
        }
        if let next = totals.next, case .question = next.step, let label = Self.next(totals) {
            lines.append("next: " + label + " (its answer decides what is due)")
        }
        if lines.isEmpty, totals.dayOffText == nil { lines.append(totals.due == 0 ? "nothing due today" : "all done") }
        if totals.days.count > 1 || totals.dayOffText == nil {
            lines += totals.daysOff.map { Sanitizer.visible($0.routine) + ": " + Sanitizer.visible($0.text) }
        }
        return lines
    }

    /// waybar's custom module (`return-type: json`): text and tooltip are Pango markup there.
    static func waybar(_ totals: DayTotals) -> JSONValue {
        let tooltip = [totals.dayOffText.map { Sanitizer.visible($0) } ?? "\(totals.done) of \(totals.due) done"] + pendingLines(totals)
        return .object([
            ("text", .string(pango(short(totals)))), ("tooltip", .string(tooltip.map(pango).joined(separator: "\n"))),
            ("class", .string(totals.statusClass)), ("percentage", .int(totals.percentage)),
        ])
    }

    /// i3blocks: full text, short text and colour, one a line; the texts as Pango markup (for
    /// `markup=pango`; without it they read the same, bar the escaped `&<>`).
    static func i3blocks(_ totals: DayTotals) -> String {
        let next = next(totals).map { " · next: " + $0 } ?? ""
        let colors = ["off": "#6272A4", "done": "#50FA7B", "partial": "#F1FA8C"]
        let color = colors[totals.statusClass] ?? "#FF5555"
        let full = totals.isDayOff ? count(totals) : count(totals) + " done" + next
        return pango(full) + "\n" + pango(count(totals)) + "\n" + color + "\n"
    }

    /// `text` as Pango markup.
    static func pango(_ text: String) -> String { MarkupText.escaped(text) }
}
