import RoutineKit

extension HistoryJSON {
    /// A day off as `history export` writes it: its own line, after the runs, starting with
    /// its `dayOff` key, which tells it from a run's line.
    public static func encode(_ day: DayOff) -> JSONValue {
        .object([
            ("dayOff", .string(day.date.description)), ("routine", .string(day.routine)),
            ("reason", day.reason.map(JSONValue.string) ?? .null), ("recorded", .string(day.recordedAt.description)),
        ])
    }

    /// Whether a line of an export is a day off rather than a run.
    public static func isDayOff(_ line: some Collection<UInt8>) -> Bool {
        line.starts(with: #"{"dayOff""#.utf8)
    }

    /// Reads a day-off line as `encode` writes it.
    public static func decodeDayOff(_ line: some Collection<UInt8>) throws(ImportProblem) -> DayOff {
        guard case .object(let members)? = try? JSONParser.parse(Array(line)), let dayOff = members["dayOff"]?.string,
            let routine = members["routine"]?.string, let recorded = members["recorded"]?.string,
            case .some(let reason) = optional(members["reason"], \.string)
        else {
            throw ImportProblem("a day off needs 'dayOff' (a date), 'routine', 'reason' (a string or null) and 'recorded' (a UTC time)")
        }
        let date: CalendarDate
        switch CalendarDate.checked(dayOff) {
        case .success(let checked): date = checked
        case .failure(let problem): throw ImportProblem("'dayOff' '\(dayOff)' \(problem.reason)")
        }
        for (name, text) in [("routine", routine), ("reason", reason ?? "")] {
            if let problem = RecordedValues.textProblem(text) { throw ImportProblem("'\(name)' \(problem)") }
        }
        if let reason = reason, let problem = RecordedValues.reasonProblem(reason) { throw ImportProblem("'reason' \(problem)") }
        guard let at = Timestamp(recorded) else { throw ImportProblem("'recorded' is not a UTC time such as 2026-11-23T06:12:03.120Z") }
        return DayOff(routine: routine, date: date, reason: reason, recordedAt: at)
    }
}
