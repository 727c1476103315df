/// `routine stats --json` and `--csv`: every figure, per habit and per day, for programs.
public enum StatsJSON {
    static func number(_ x: Double?) -> JSONValue { x.map { .number(($0 * 10_000).rounded() / 10_000) } ?? .null }

    public static func encode(_ report: StatsReport) -> JSONValue {
        let habits: [JSONValue] = report.habits.map { habit in
            var members: [(String, JSONValue)] = [
                ("id", .string(habit.id)), ("title", .string(habit.title)),
                ("currentStreak", .int(habit.currentStreak)), ("bestStreak", .int(habit.bestStreak)),
                ("rate7", number(habit.rate7)), ("rate30", number(habit.rate30)), ("rateAll", number(habit.rateAll)),
                ("score", habit.hasScore ? number(habit.score) : .null),
                ("lastDone", habit.lastDone.map { .string($0.description) } ?? .null),
                ("counts", .object(DayStatus.allCases.map { ($0.rawValue, .int(habit.counts[$0] ?? 0)) })),
            ]
            if let target = habit.target {
                members.append(("target", .number(target.amount)))
                members.append(("unit", target.unit.map(JSONValue.string) ?? .null))
                members.append(("lastValue", number(habit.values.last?.value)))
                members.append(("averageValue", number(habit.averageValue)))
                members.append(("valuesGiven", .int(habit.values.count)))
                members.append(("targetMet", .int(habit.targetMet)))
            }
            if let planned = habit.plannedSeconds {
                members.append(("plannedSeconds", .int(planned)))
                members.append(("measuredSeconds", number(habit.measuredSeconds)))
            }
            members.append(("days", .array(habit.days.map { day in
                .object([
                    ("date", .string(day.date.description)), ("status", .string(day.status.rawValue)),
                    ("value", number(day.value)), ("seconds", number(day.seconds)),
                ])
            })))
            return .object(members)
        }
        var days: [JSONValue] = []
        if report.first <= report.until {
            for n in report.first.dayNumber...report.until.dayNumber {
                let date = CalendarDate(dayNumber: n)
                let tally = report.daily[date] ?? (0, 0)
                days.append(.object([
                    ("date", .string(date.description)), ("done", .int(tally.done)), ("due", .int(tally.due)),
                    ("share", number(report.share(on: date))),
                ]))
            }
        }
        return .object([
            ("routine", .string(report.routine.name)), ("from", .string(report.first.description)),
            ("until", .string(report.until.description)), ("habits", .array(habits)),
            ("questions", .array(report.questions.map { encode(QuestionStats($0, in: report)) })), ("days", .array(days)),
        ])
    }

    /// One question: each option's days chosen (whole window, 30 and 7 days, and by week), and
    /// each habit after it on the days of each answer against the days of the others.
    public static func encode(_ question: QuestionStats) -> JSONValue {
        func window(_ w: QuestionStats.Window) -> JSONValue { .object([("all", .int(w.all)), ("last30", .int(w.last30)), ("last7", .int(w.last7))]) }
        func tally(_ t: QuestionStats.Tally) -> JSONValue { .object([("done", .int(t.done)), ("due", .int(t.due)), ("rate", number(t.rate))]) }
        let most = question.mostChosen
        return .object([
            ("id", .string(question.id)), ("prompt", .string(question.prompt)), ("answered", window(question.answered)),
            ("mostChosen", most.map { .string(question.options[$0.option].text) } ?? .null), ("mostChosenShare", number(most?.share)),
            ("weeks", .array(question.weeks.map { .string($0.description) })),
            ("options", .array(question.options.map { option in
                .object([("text", .string(option.text)), ("chosen", window(option.chosen)), ("weekly", .array(option.weekly.map(JSONValue.int)))])
            })),
            ("habits", .array(question.habits.map { habit in
                .object([
                    ("id", .string(habit.id)),
                    ("byAnswer", .array(question.options.indices.map { k in
                        .object([("answer", .string(question.options[k].text)), ("with", tally(habit.with[k])), ("others", tally(habit.others[k]))])
                    })),
                ])
            })),
        ])
    }

    /// One row per habit and day: `date,habit,status,value,seconds`.
    public static func csv(_ report: StatsReport) -> String {
        var text = "date,habit,status,value,seconds\n"
        for habit in report.habits {
            for day in habit.days {
                let value = day.value.map(NumberText.format) ?? ""
                let seconds = day.seconds.map { NumberText.format(($0 * 1000).rounded() / 1000) } ?? ""
                text += "\(day.date),\(CSV.field(habit.id)),\(day.status.rawValue),\(value),\(seconds)\n"
            }
        }
        return text
    }
}
