/// `routine stats --json` and `--csv`: every figure, per habit and per day, for programs.
public enum StatsJSON {
    static func number(_ x: Double?) -> JSONValue { x.map { .number(($0 * 10_000).rounded() / 10_000) } ?? .null }

    /// Every figure as one JSON object, in memory: for tests and small windows. `write` gives
    /// the same bytes piece by piece.
    public static func encode(_ report: StatsReport) -> String {
        var text = ""
        write(report) { text += $0 }
        return text
    }

    /// How `write` gives each question's habits table.
    public enum QuestionHabits: Sendable {
        /// Its first `QuestionStats.habitRows` habits and how many are left out (`stats --json`).
        case bounded
        /// None, not even the member: the studio's page asks for one question's table
        /// (`encode`) when it shows it.
        case none
    }

    /// `routine stats --json`, handed to `emit` a day at a time: the output is never held whole,
    /// so memory does not grow with the window beyond the days' statuses themselves.
    public static func write(_ report: StatsReport, questionHabits: QuestionHabits = .bounded, to emit: (String) -> Void) {
        /// An object's text without its closing brace, for members written after it.
        func open(_ members: [(String, JSONValue)]) -> String { String(JSONValue.object(members).text.dropLast()) }
        emit(
            open([
                ("routine", .string(report.routine.name)), ("from", .string(report.first.description)), ("until", .string(report.until.description)),
            ]) + ",\"habits\":[")
        for (k, habit) in report.habits.enumerated() {
            emit((k > 0 ? "," : "") + open(members(of: habit)) + ",\"days\":[")
            var days = ByteWriter(capacity: habit.days.count * 64 + 2)
            write(habit.days, into: &days)
            days.write("]}")
            emit(days.text)
        }
        emit("],\"questions\":[")
        let withHabits = questionHabits == .bounded
        for (k, question) in QuestionStats.all(in: report, rows: withHabits ? QuestionStats.habitRows : 0).enumerated() {
            emit((k > 0 ? "," : "") + encode(question, withHabits: withHabits).text)
        }
        emit("],\"days\":[")
        if report.first <= report.until {
            for n in report.first.dayNumber...report.until.dayNumber {
                let date = CalendarDate(dayNumber: n)
                let tally = report.daily[date] ?? (0, 0)
                let object = JSONValue.object([
                    ("date", .string(date.description)), ("done", .int(tally.done)), ("due", .int(tally.due)),
                    ("share", number(report.share(on: date))),
                ])
                emit((n > report.first.dayNumber ? "," : "") + object.text)
            }
        }
        emit("]}")
    }

    /// A habit's days as `{"date","status","value","seconds"}` objects, written as bytes with no
    /// value built per day: ten years of thirty habits are 110,000 of them. The same text as
    /// `JSONValue` would give (numbers to four decimals).
    static func write(_ days: [HabitDay], into out: inout ByteWriter) {
        for (d, day) in days.enumerated() {
            out.write(d > 0 ? ",{\"date\":\"" : "{\"date\":\"")
            write(day.date, into: &out)
            out.write("\",\"status\":\"")
            out.write(string: day.status.rawValue)
            out.write("\",\"value\":")
            write(day.value, into: &out)
            out.write(",\"seconds\":")
            write(day.seconds, into: &out)
            out.byte(UInt8(ascii: "}"))
        }
    }

    /// `number(x)`'s text. Below 10^11 the value is a whole number of ten-thousandths, whose
    /// shortest text (what `NumberText.format` gives) is its decimal digits with trailing zeros
    /// dropped: written from the integer, without formatting a double.
    static func write(_ x: Double?, into out: inout ByteWriter) {
        guard let x else { return out.write("null") }
        let scaled = (x * 10_000).rounded()
        guard abs(scaled) < 1e15 else {
            let rounded = scaled / 10_000
            return rounded.isFinite ? out.write(string: NumberText.format(rounded)) : out.write("null")
        }
        var units = Int64(scaled)
        if units < 0 {
            out.byte(UInt8(ascii: "-"))
            units = -units
        }
        out.write(Int(units / 10_000))
        var fraction = Int(units % 10_000)
        guard fraction > 0 else { return }
        var width = 4
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        out.byte(UInt8(ascii: "."))
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            out.byte(UInt8(truncatingIfNeeded: 0x30 + fraction / divisor % 10))
            divisor /= 10
        }
    }

    /// `YYYY-MM-DD`, as `CalendarDate.description` writes it; straight-line, as it runs for
    /// every habit-day.
    static func write(_ date: CalendarDate, into out: inout ByteWriter) {
        let (y, m, d) = (date.year, date.month, date.day)
        guard (0...9999).contains(y) else { return out.write(string: date.description) }
        @inline(__always) func digit(_ n: Int) -> UInt8 { UInt8(truncatingIfNeeded: 0x30 + n) }
        out.byte(digit(y / 1000))
        out.byte(digit(y / 100 % 10))
        out.byte(digit(y / 10 % 10))
        out.byte(digit(y % 10))
        out.byte(UInt8(ascii: "-"))
        out.byte(digit(m / 10))
        out.byte(digit(m % 10))
        out.byte(UInt8(ascii: "-"))
        out.byte(digit(d / 10))
        out.byte(digit(d % 10))
    }

    /// A habit's figures, its days left out.
    static func members(of habit: HabitStats) -> [(String, JSONValue)] {
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
            if target.atMost { members.append(("atMost", .bool(true))) }
            members.append(("lastValue", number(habit.values.last?.value)))
            members.append(("averageValue", number(habit.averageValue)))
            members.append(("valuesGiven", .int(habit.values.count)))
            members.append(("targetMet", .int(habit.targetMet)))
        }
        if let planned = habit.plannedSeconds {
            members.append(("plannedSeconds", .int(planned)))
            members.append(("measuredSeconds", number(habit.measuredSeconds)))
        }
        return members
    }

    /// One question: each option's days chosen (whole window, 30 and 7 days, and by week), and
    /// each habit after it on the days of each answer against the days of the others (without
    /// that table when `withHabits` is false).
    public static func encode(_ question: QuestionStats, withHabits: Bool = true) -> JSONValue {
        func window(_ w: QuestionStats.Window) -> JSONValue { .object([("all", .int(w.all)), ("last30", .int(w.last30)), ("last7", .int(w.last7))]) }
        func tally(_ t: QuestionStats.Tally) -> JSONValue { .object([("done", .int(t.done)), ("due", .int(t.due)), ("rate", number(t.rate))]) }
        let most = question.mostChosen
        var members: [(String, JSONValue)] = [
            ("id", .string(question.id)), ("prompt", .string(question.prompt)), ("answered", window(question.answered)),
            // `mostChosen` the first in the routine's order; `mostChosenAll` every one on a tie.
            ("mostChosen", most.map { .string(question.options[$0.options[0]].text) } ?? .null),
            ("mostChosenAll", .array((most?.options ?? []).map { .string(question.options[$0].text) })), ("mostChosenShare", number(most?.share)),
            ("weeks", .array(question.weeks.map { .string($0.description) })),
            (
                "options",
                .array(
                    question.options.map { option in
                        .object([
                            ("text", .string(option.text)), ("chosen", window(option.chosen)), ("weekly", .array(option.weekly.map(JSONValue.int))),
                        ])
                    })
            ),
        ]
        guard withHabits else { return .object(members) }
        members.append(
            (
                "habits",
                .array(
                    question.habits.map { habit in
                        .object([
                            ("id", .string(habit.id)),
                            (
                                "byAnswer",
                                .array(
                                    question.options.indices.map { k in
                                        .object([
                                            ("answer", .string(question.options[k].text)), ("with", tally(habit.with[k])),
                                            ("others", tally(habit.others[k])),
                                        ])
                                    })
                            ),
                        ])
                    })
            ))
        if question.habitsLeftOut { members.append(("habitsLeftOut", .bool(true))) }
        if question.habitsOmitted > 0 { members.append(("habitsOmitted", .int(question.habitsOmitted))) }
        return .object(members)
    }

    /// One row per habit and day: `date,habit,status,value,seconds`, handed to `emit` a row at a time.
    public static func csv(_ report: StatsReport, to emit: (String) -> Void) {
        emit("date,habit,status,value,seconds\n")
        for habit in report.habits {
            let id = CSV.field(habit.id)
            for day in habit.days {
                let value = day.value.map(NumberText.format) ?? ""
                let seconds = day.seconds.map { NumberText.format(($0 * 1000).rounded() / 1000) } ?? ""
                emit("\(day.date),\(id),\(day.status.rawValue),\(value),\(seconds)\n")
            }
        }
    }
}
