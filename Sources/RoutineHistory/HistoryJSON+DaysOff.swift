import FoundationEssentials
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
        let decoded: DayOffLine
        do {
            decoded = try JSONDecoder().decode(DayOffLine.self, from: Data(line))
        } catch {
            throw ImportProblem("a day off needs 'dayOff' (a date), 'routine', 'reason' (a string or null) and 'recorded' (a UTC time)")
        }
        let date: CalendarDate
        switch CalendarDate.checked(decoded.dayOff) {
        case .success(let checked): date = checked
        case .failure(let problem): throw ImportProblem("'dayOff' '\(decoded.dayOff)' \(problem.reason)")
        }
        for (name, text) in [("routine", decoded.routine), ("reason", decoded.reason ?? "")] {
            if let problem = RecordedValues.textProblem(text) { throw ImportProblem("'\(name)' \(problem)") }
        }
        if let reason = decoded.reason, let problem = RecordedValues.reasonProblem(reason) { throw ImportProblem("'reason' \(problem)") }
        guard let at = Timestamp(decoded.recorded) else { throw ImportProblem("'recorded' is not a UTC time such as 2026-11-23T06:12:03.120Z") }
        return DayOff(routine: decoded.routine, date: date, reason: decoded.reason, recordedAt: at)
    }
}

private struct DayOffLine: Decodable {
    var dayOff, routine, recorded: String
    var reason: String?
}
