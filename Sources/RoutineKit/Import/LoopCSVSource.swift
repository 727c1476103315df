#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loop Habit Tracker's CSV export, unzipped, as its exporter writes it: `Habits.csv` (one row
/// per habit), then for each habit exported a folder `NNN Name` (its position, three digits
/// at least, and its name without what is not an ASCII letter, digit, space, `.`, `_` or `-`)
/// whose `Checkmarks.csv` lists its known days newest first (`Date,Value,Notes`), and a
/// top-level `Checkmarks.csv` with a column per exported habit and a row per day, from today
/// back to the oldest day recorded. A value is a word (`YES_MANUAL`, `YES_AUTO`, `NO`, `SKIP`,
/// `UNKNOWN`, for 2, 1, 0, 3 and -1) or, for a numeric habit, its amount in thousandths.
/// The `Scores.csv` files, derived by Loop, are not read.
///
/// The days are read from the habits' files, which hold their notes, and the top-level file
/// must say the same of every day it lists: where they differ the import is refused, naming
/// both. Every file is read as a stream, the habits' files side by side with the top-level one.
public struct LoopCSVSource: TrackerSource {
    public let trackerName = "Loop Habit Tracker"
    public let habits: [TrackerHabit]
    let base: String
    let numeric: [Bool]
    /// The habits exported (those with a folder), in Habits.csv's order, with their folders.
    let exported: [(habit: Int, folder: String)]

    /// Reads `Habits.csv`, and finds the habits' folders; throws ``TrackerReadError``.
    public init(folder: String) throws {
        base = folder.hasSuffix("/") ? folder : folder + "/"
        let habitsPath = base + "Habits.csv"
        let reader = try CSVRecordReader(habitsPath)
        guard let header = try reader.next() else {
            throw TrackerReadError(file: habitsPath, line: 0, reason: "it is empty: this is not Loop's Habits.csv")
        }
        var column: [String: Int] = [:]
        for (k, name) in header.fields.enumerated() { column[name] = k }
        for required in ["Position", "Name", "Type", "FrequencyNumerator", "FrequencyDenominator"] where column[required] == nil {
            throw TrackerReadError(file: habitsPath, line: 1, reason: "the header has no '\(required)' column: this is not Loop's Habits.csv")
        }
        var habits: [TrackerHabit] = []
        var numeric: [Bool] = []
        var exported: [(habit: Int, folder: String)] = []
        while let record = try reader.next() {
            let (fields, line) = (record.fields, record.line)
            guard fields.count == column.count else {
                throw TrackerReadError(file: habitsPath, line: line, reason: "expected \(column.count) fields, found \(fields.count)")
            }
            func field(_ name: String) -> String? { column[name].map { fields[$0] } }
            func bad(_ reason: String) -> TrackerReadError { TrackerReadError(file: habitsPath, line: line, reason: reason) }
            func number(_ name: String) throws(TrackerReadError) -> Int {
                guard let text = field(name), let value = Int(text), (0...10_000).contains(value) else {
                    throw bad("'\(name)' must be a whole number from 0 to 10000")
                }
                return value
            }
            func word(_ name: String, _ words: [String]) throws(TrackerReadError) -> Int {
                let text = field(name) ?? ""
                guard let k = words.firstIndex(of: text) else {
                    throw bad(
                        "'\(name)' is '\(Sanitizer.visible(String(text.prefix(20))))', not " + words.map { "'\($0)'" }.joined(separator: " or "))
                }
                return k
            }
            let name = try TrackerValues.name(field("Name") ?? "", file: habitsPath, line: line)
            let isNumeric = try word("Type", ["YES_NO", "NUMERICAL"]) == 1
            guard let position = field("Position").flatMap({ Int($0) }), position > 0, position <= 100_000 else {
                throw bad("'Position' must be a whole number from 1")
            }
            let archived = try column["Archived?"] != nil && word("Archived?", ["false", "true"]) == 1
            var habit = TrackerHabit(
                name: name,
                note: try TrackerValues.note(field("Description"), file: habitsPath, line: line)
                    ?? TrackerValues.note(field("Question"), file: habitsPath, line: line),
                numerator: try number("FrequencyNumerator"), denominator: try number("FrequencyDenominator"),
                archived: archived)
            if isNumeric {
                habit.target = try LoopTarget.make(
                    value: Double(field("Target Value") ?? ""), atMost: try word("Target Type", ["AT_LEAST", "AT_MOST"]) == 1,
                    unit: field("Unit"), file: habitsPath, line: line)
            }
            let folder = Self.folder(position: position, name: name)
            var info = stat()
            if stat(base + folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { exported.append((habits.count, folder)) }
            habits.append(habit)
            numeric.append(isNumeric)
        }
        self.habits = habits
        self.numeric = numeric
        self.exported = exported
    }

    /// The folder Loop writes a habit's files in: `%03d %s` of its position and its name
    /// without what is not an ASCII letter, digit, space, `.`, `_` or `-`, cut to 100
    /// characters, without the spaces that end it.
    static func folder(position: Int, name: String) -> String {
        let digits = String(position)
        let kept = name.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || "0123456789 ._-".unicodeScalars.contains($0)) }
        var folder = String(repeating: "0", count: max(0, 3 - digits.count)) + digits + " " + String(String.UnicodeScalarView(kept.prefix(100)))
        while folder.last == " " { folder.removeLast() }
        return folder
    }

    /// A day of one habit's file.
    struct HabitLine {
        var date: CalendarDate
        var value: Int64
        var text: String
        var note: Bool
        var line: Int
    }

    public func forEachDay(_ body: (TrackerDay) throws -> Void) throws {
        let topPath = base + "Checkmarks.csv"
        let top = try CSVRecordReader(topPath)
        try checkHeader(top)
        var files: [CSVRecordReader] = []
        for (_, folder) in exported {
            let file = try CSVRecordReader(base + folder + "/Checkmarks.csv")
            guard let header = try file.next() else { throw TrackerReadError(file: file.path, line: 0, reason: "it is empty") }
            guard header.fields == ["Date", "Value", "Notes"] else {
                throw TrackerReadError(file: file.path, line: 1, reason: "the header is not 'Date,Value,Notes': this is not Loop's file")
            }
            files.append(file)
        }
        var heads = try files.indices.map { try nextDay(files[$0], of: exported[$0].habit, after: nil) }
        var row = try nextRow(top, after: nil)
        while let day = (heads.compactMap { $0?.date } + [row?.date].compactMap { $0 }).max() {
            let cells = row?.date == day ? row : nil
            for (k, (habit, _)) in exported.enumerated() {
                let head = heads[k]?.date == day ? heads[k] : nil
                if let cells {
                    let topValue = try value(cells.values[k], of: habit, file: topPath, line: cells.line)
                    if topValue != (head?.value ?? -1) {
                        let there = head.map { "'\($0.text)' in '\(files[k].path)' line \($0.line)" } ?? "'UNKNOWN' (no line of '\(files[k].path)')"
                        throw TrackerReadError(
                            file: topPath, line: cells.line,
                            reason: "'\(Sanitizer.visible(habits[habit].name))' on \(day) is '\(cells.values[k])' here, but \(there)")
                    }
                }
                guard let head else { continue }
                heads[k] = try nextDay(files[k], of: habit, after: head.date)
                let mark = try TrackerValues.loopMark(head.value, numeric: numeric[habit], file: files[k].path, line: head.line)
                try body(TrackerDay(habit: habit, date: day, mark: mark, hadNote: head.note))
            }
            if cells != nil { row = try nextRow(top, after: day) }
        }
    }

    /// The top-level file's first line: `Date,` and the name of each habit exported, each
    /// followed by a comma, written as they are (not as CSV fields).
    private func checkHeader(_ top: CSVRecordReader) throws {
        let expected = "Date," + exported.map { habits[$0.habit].name + "," }.joined()
        guard let header = try top.next() else { throw TrackerReadError(file: top.path, line: 0, reason: "it is empty") }
        guard header.text != expected else { return }
        func fail(_ reason: String) -> TrackerReadError { TrackerReadError(file: top.path, line: 1, reason: reason) }
        // Names are written as they are, commas and all: looked for whole, between commas.
        func listed(_ habit: Int) -> Bool { header.text.contains("," + habits[habit].name + ",") }
        if let missing = exported.first(where: { !listed($0.habit) }) {
            throw fail(
                "no column names '\(Sanitizer.visible(habits[missing.habit].name))', though the folder '\(Sanitizer.visible(missing.folder))' holds its days"
            )
        }
        if let extra = habits.indices.first(where: { habit in listed(habit) && !exported.contains { habits[$0.habit].name == habits[habit].name } }) {
            throw fail(
                "the column '\(Sanitizer.visible(habits[extra].name))' has no folder of its days beside it, which Loop writes for each habit it exports"
            )
        }
        throw fail("expected '\(Sanitizer.visible(expected))', the habits of the folders in Habits.csv's order")
    }

    /// The next row of the top-level file: its day, the day before `after`, and its values.
    private func nextRow(_ top: CSVRecordReader, after: CalendarDate?) throws -> (date: CalendarDate, values: [String], line: Int)? {
        guard let record = try top.next() else { return nil }
        var fields = record.fields
        let line = record.line
        // Loop ends each line with a comma: the empty field after it is no column.
        if fields.count == exported.count + 2, fields.last == "" { fields.removeLast() }
        guard fields.count == exported.count + 1 else {
            throw TrackerReadError(file: top.path, line: line, reason: "expected \(exported.count + 1) fields, found \(fields.count)")
        }
        let date = try TrackerValues.date(Substring(fields[0]), file: top.path, line: line)
        if let after, date.dayNumber != after.dayNumber - 1 {
            throw TrackerReadError(file: top.path, line: line, reason: "\(date) is not the day before \(after): Loop writes every day, newest first")
        }
        return (date, Array(fields.dropFirst()), line)
    }

    /// The next line of a habit's file: a day before `after`.
    private func nextDay(_ file: CSVRecordReader, of habit: Int, after: CalendarDate?) throws -> HabitLine? {
        guard let record = try file.next() else { return nil }
        let (fields, line) = (record.fields, record.line)
        guard fields.count == 3 else { throw TrackerReadError(file: file.path, line: line, reason: "expected 3 fields, found \(fields.count)") }
        let date = try TrackerValues.date(Substring(fields[0]), file: file.path, line: line)
        if let after, date >= after {
            throw TrackerReadError(file: file.path, line: line, reason: "\(date) is not before \(after): Loop writes the days newest first")
        }
        let value = try value(fields[1], of: habit, file: file.path, line: line)
        return HabitLine(date: date, value: value, text: fields[1], note: !fields[2].allSatisfy(\.isWhitespace), line: line)
    }

    /// A cell as the number Loop keeps: a word, or a numeric habit's thousandths.
    private func value(_ text: String, of habit: Int, file: String, line: Int) throws(TrackerReadError) -> Int64 {
        if let k = Self.words.firstIndex(of: text) { return Int64(k) - 1 }
        if numeric[habit], !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int64(text) { return value }
        throw TrackerReadError(
            file: file, line: line,
            reason: "'\(Sanitizer.visible(String(text.prefix(20))))' is none of Loop's values (YES_MANUAL, YES_AUTO, NO, SKIP, UNKNOWN"
                + (numeric[habit] ? ", or an amount in thousandths)" : ")"))
    }

    /// Loop's words for -1, 0, 1, 2 and 3.
    static let words = ["UNKNOWN", "NO", "YES_AUTO", "YES_MANUAL", "SKIP"]
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
/// quoted field holds a line break goes on over the next lines, up to 1 MiB.
final class CSVRecordReader {
    private let lines: TrackerLines
    var path: String { lines.path }

    init(_ path: String) throws(TrackerReadError) { lines = try TrackerLines(path) }

    /// The next record: its fields, the line it starts on, and its text (its lines joined by LF).
    func next() throws(TrackerReadError) -> (fields: [String], line: Int, text: String)? {
        guard var text = try lines.next() else { return nil }
        let first = lines.number
        // An odd number of quotes so far: a quoted field is still open.
        var quotes = Self.quotes(text)
        while quotes % 2 == 1 {
            guard let more = try lines.next() else { throw TrackerReadError(file: path, line: first, reason: "a quoted field is not closed") }
            guard text.utf8.count + more.utf8.count < 1 << 20 else {
                throw TrackerReadError(file: path, line: first, reason: "a record is longer than 1 MiB, which no record of an export is")
            }
            text += "\n" + more
            quotes += Self.quotes(more)
        }
        if first == 1, text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return (try Self.fields(text, file: path, line: first), first, text)
    }

    private static func quotes(_ text: String) -> Int { text.utf8.reduce(0) { $0 + ($1 == 0x22 ? 1 : 0) } }

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
