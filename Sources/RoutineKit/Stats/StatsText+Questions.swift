/// The answers of a routine's questions as text: a row per question under the habits' table,
/// and a question's own page (`--question ID`).
extension StatsText {
    /// One row per question: its most chosen answer (each, on a tie) and its share of the days answered.
    public static func questionRows(_ report: StatsReport) -> String {
        guard !report.questions.isEmpty else { return "" }
        let questions = report.questions.map { QuestionStats($0, in: report, withHabits: false) }
        let width = max(8, questions.map { $0.id.count }.max() ?? 8)
        var text = "question".padding(width) + "  most chosen\n"
        for question in questions {
            text += Sanitizer.visible(question.id).padding(width) + "  "
            if let (options, share) = question.mostChosen {
                let names = options.map { Sanitizer.visible(StringLiteral.encode(question.options[$0].text)) }
                text += names.count > 1 ? names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1] : names[0]
                text +=
                    " \(percent(share))\(options.count > 1 ? " each" : "") of \(question.answered.all) day\(question.answered.all == 1 ? "" : "s") answered\n"
            } else {
                text += "never answered\n"
            }
        }
        return text
    }

    /// A question's page: each option chosen over the whole window, 30 and 7 days; a sparkline
    /// per option of its weeks; each habit after the question on the days of each answer
    /// against the days of the others.
    public static func questionPage(_ question: QuestionStats) -> String {
        var text = Sanitizer.visible("\(question.id): \(question.prompt)") + "\n"
        let names = question.options.map { Sanitizer.visible(StringLiteral.encode($0.text)) }
        let width = max(6, names.map(\.count).max() ?? 6)
        func cell(_ count: Int, _ of: Int) -> String {
            let share = of == 0 ? "–" : percent(Double(count) / Double(of))
            return (String(count) + " " + share).leftPadded(9)
        }
        text += "  " + "answer".padding(width) + "      all      30d       7d\n"
        for (k, option) in question.options.enumerated() {
            text +=
                "  " + names[k].padding(width) + cell(option.chosen.all, question.answered.all) + cell(option.chosen.last30, question.answered.last30)
            text += cell(option.chosen.last7, question.answered.last7) + "\n"
        }
        text += "  " + "days".padding(width) + String(question.answered.all).leftPadded(9) + String(question.answered.last30).leftPadded(9)
        text += String(question.answered.last7).leftPadded(9) + "\n"
        if !question.weeks.isEmpty {
            let shown = min(question.weeks.count, 52)
            text += "  weeks from \(question.weeks[question.weeks.count - shown]), one bar a week (days chosen, 0 to 7)\n"
            for (k, option) in question.options.enumerated() {
                text += "  " + names[k].padding(width) + "  " + weekBars(option.weekly.suffix(shown)) + "\n"
            }
        }
        guard !question.habits.isEmpty else { return text + "  no habit comes after it\n" }
        var few = false
        text += "  habits after it: done of due on the days of each answer, against the days of the others\n"
        for habit in question.habits {
            text += "  " + Sanitizer.visible(habit.id) + "\n"
            for (k, name) in names.enumerated() {
                let with = habit.with[k]
                let others = habit.others[k]
                let thin = with.due < QuestionStats.fewDays || others.due < QuestionStats.fewDays
                few = few || thin
                text += "    after " + name.padding(width) + "  " + tally(with) + " · after the others " + tally(others) + (thin ? "  *" : "") + "\n"
            }
        }
        if few { text += "  * fewer than \(QuestionStats.fewDays) due days on a side: a hint, not yet a finding\n" }
        return text
    }

    static func tally(_ tally: QuestionStats.Tally) -> String {
        percent(tally.rate).leftPadded(4) + " (\(tally.done) of \(tally.due))"
    }

    /// One bar per week, one level per day chosen: `▁` for none to `█` for all seven.
    static func weekBars(_ counts: ArraySlice<Int>) -> String {
        let bars = Array("▁▂▃▄▅▆▇█")
        return String(counts.map { bars[min(7, $0)] })
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
