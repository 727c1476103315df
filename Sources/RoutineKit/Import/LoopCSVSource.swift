/// Loop Habit Tracker's CSV export, a folder holding `Habits.csv` (one row per habit) and
/// `Checkmarks.csv` (a date column, then one column per habit in `Habits.csv`'s order, each
/// cell a value as in the backup's `Repetitions`), the checkmarks read as a stream.
public struct LoopCSVSource: TrackerSource {
    public let trackerName = "Loop Habit Tracker"
    public let habits: [TrackerHabit]
    let checkmarksPath: String
    let numeric: [Bool]

    /// Reads `Habits.csv`; throws ``TrackerReadError``.
    public init(folder: String) throws {
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        let habitsPath = base + "Habits.csv"
        checkmarksPath = base + "Checkmarks.csv"
        var column: [String: Int] = [:]
        var habits: [TrackerHabit] = []
        var numeric: [Bool] = []
        try CSVRecords.each(habitsPath) { fields, line in
            if column.isEmpty {
                for (k, name) in fields.enumerated() { column[name] = k }
                for required in ["Name", "FrequencyNumerator", "FrequencyDenominator"] where column[required] == nil {
                    throw TrackerReadError(
                        file: habitsPath, line: line, reason: "the header has no '\(required)' column: this is not Loop's Habits.csv")
                }
                return
            }
            guard fields.count == column.count else {
                throw TrackerReadError(file: habitsPath, line: line, reason: "expected \(column.count) fields, found \(fields.count)")
            }
            func field(_ name: String) -> String? { column[name].map { fields[$0] } }
            func number(_ name: String) throws(TrackerReadError) -> Int {
                guard let text = field(name), let value = Int(text), (0...10_000).contains(value) else {
                    throw TrackerReadError(file: habitsPath, line: line, reason: "'\(name)' must be a whole number from 0 to 10000")
                }
                return value
            }
            let name = try TrackerValues.name(field("Name") ?? "", file: habitsPath, line: line)
            let isNumeric = field("Type") == "1"
            var habit = TrackerHabit(
                name: name,
                note: try TrackerValues.note(field("Description"), file: habitsPath, line: line)
                    ?? TrackerValues.note(field("Question"), file: habitsPath, line: line),
                numerator: try number("FrequencyNumerator"), denominator: try number("FrequencyDenominator"),
                archived: field("Archived?") == "true" || field("Archived?") == "1")
            if isNumeric {
                habit.target = try LoopTarget.make(
                    value: Double(field("Target Value") ?? ""), atMost: field("Target Type") == "1", unit: field("Unit"),
                    file: habitsPath, line: line)
            }
            habits.append(habit)
            numeric.append(isNumeric)
        }
        self.habits = habits
        self.numeric = numeric
    }

    public func forEachDay(_ body: (TrackerDay) throws -> Void) throws {
        var columns: [Int?] = []
        try CSVRecords.each(checkmarksPath) { fields, line in
            var fields = fields
            // Loop ends each line with a comma: the empty field after it is no column.
            if fields.count > 1, fields.last == "" { fields.removeLast() }
            if line == 1 {
                // Columns are named by habit; one the habits file does not list is refused.
                let index = Dictionary(habits.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
                for name in fields.dropFirst() {
                    guard let k = index[name] else {
                        throw TrackerReadError(
                            file: checkmarksPath, line: line, reason: "the column '\(Sanitizer.visible(name))' names no habit of Habits.csv")
                    }
                    columns.append(k)
                }
                return
            }
            guard fields.count == columns.count + 1 else {
                throw TrackerReadError(file: checkmarksPath, line: line, reason: "expected \(columns.count + 1) fields, found \(fields.count)")
            }
            let date = try TrackerValues.date(Substring(fields[0]), file: checkmarksPath, line: line)
            for (k, habit) in columns.enumerated() {
                guard let habit else { continue }
                let cell = fields[k + 1]
                guard let value = Int64(cell) else {
                    throw TrackerReadError(
                        file: checkmarksPath, line: line, reason: "'\(Sanitizer.visible(String(cell.prefix(20))))' is not a whole number")
                }
                let mark = try TrackerValues.loopMark(value, numeric: numeric[habit], file: checkmarksPath, line: line)
                try body(TrackerDay(habit: habit, date: date, mark: mark))
            }
        }
    }
}

/// A numeric Loop habit's target: an amount above 0 (Loop allows 0, "at most 0" above all,
/// which the routine language does not: read as the smallest amount it writes, 0.001).
public enum LoopTarget {
    public static func make(value: Double?, atMost: Bool, unit: String?, file: String, line: Int) throws(TrackerReadError) -> TargetValue {
        guard let value, value.isFinite, value >= 0, value <= TargetValue.maximum else {
            throw TrackerReadError(file: file, line: line, reason: "the target value must be a number from 0 to \(TargetValue.maximumText)")
        }
        let unit = unit.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        if unit?.utf8.contains(0) == true { throw TrackerReadError(file: file, line: line, reason: "the unit holds a NUL character") }
        return TargetValue(amount: max(value, 0.001), unit: unit, atMost: atMost)
    }
}

/// Records of a CSV file as RFC 4180 writes them, read a line at a time: a record whose
/// quoted field holds a line break goes on over the next lines.
enum CSVRecords {
    static func each(_ path: String, _ body: ([String], Int) throws -> Void) throws {
        var pending: String?
        var firstLine = 0
        try HarshSource.eachLine(path) { line, number in
            var text = line
            if let before = pending {
                text = before + "\n" + line
            } else {
                firstLine = number
            }
            // An odd number of quotes so far: a quoted field is still open.
            if text.utf8.reduce(0, { $0 + ($1 == 0x22 ? 1 : 0) }) % 2 == 1 {
                pending = text
                return
            }
            pending = nil
            if firstLine == 1, text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            try body(try fields(text, file: path, line: firstLine), firstLine)
        }
        if pending != nil { throw TrackerReadError(file: path, line: firstLine, reason: "a quoted field is not closed") }
    }

    static func fields(_ text: String, file: String, line: Int) throws(TrackerReadError) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var afterQuote = false
        var atStart = true
        for ch in text {
            if quoted {
                if ch == "\"" {
                    quoted = false
                    afterQuote = true
                } else {
                    field.append(ch)
                }
                continue
            }
            switch ch {
            case "\"" where atStart || afterQuote:
                // A doubled quote inside a quoted field, or the field's opening quote.
                if afterQuote { field.append("\"") }
                quoted = true
                afterQuote = false
                atStart = false
            case ",":
                fields.append(field)
                field = ""
                atStart = true
                afterQuote = false
            default:
                if afterQuote { throw TrackerReadError(file: file, line: line, reason: "text after a closing quote") }
                field.append(ch)
                atStart = false
            }
        }
        fields.append(field)
        return fields
    }
}
