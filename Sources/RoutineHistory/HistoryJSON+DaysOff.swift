import Foundation
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
    public static func isDayOff(_ line: Substring) -> Bool {
        line.utf8.starts(with: #"{"dayOff""#.utf8)
    }

    /// Reads a day-off line as `encode` writes it.
    public static func decodeDayOff(_ line: Substring) throws(ImportProblem) -> DayOff {
        struct Line: Decodable {
            var dayOff, routine, recorded: String
            var reason: String?
        }
        let decoded: Line
        do {
            decoded = try JSONDecoder().decode(Line.self, from: Data(line.utf8))
        } catch {
            throw ImportProblem("a day off needs 'dayOff' (a date), 'routine', 'reason' (a string or null) and 'recorded' (a UTC time)")
        }
        guard let date = CalendarDate(decoded.dayOff) else { throw ImportProblem("'dayOff' is not a date (YYYY-MM-DD): '\(decoded.dayOff)'") }
        guard let at = Timestamp(decoded.recorded) else { throw ImportProblem("'recorded' is not a UTC time such as 2026-11-23T06:12:03.120Z") }
        return DayOff(routine: decoded.routine, date: date, reason: decoded.reason, recordedAt: at)
    }
}
