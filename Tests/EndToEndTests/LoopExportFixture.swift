import Foundation

/// Loop Habit Tracker's CSV export, written as its exporter writes it (uhabits-core's
/// `HabitsCSVExporter`, `HabitList.writeCSV` and `Entry.formattedValue`, through opencsv's
/// `CSVWriter` without quoting every field), unzipped: `Habits.csv` of every habit; a folder
/// `%03d Name` per exported habit (the name without what is not an ASCII letter, digit, space,
/// `.`, `_` or `-`, cut to 100, the whole trimmed) holding `Checkmarks.csv` (`Date,Value,Notes`,
/// the known days newest first) and `Scores.csv`; the top-level `Checkmarks.csv` and
/// `Scores.csv`, whose header names are written as they are, each followed by a comma, and
/// whose rows run from the export's day back to the oldest day recorded by hand.
struct LoopExport {
    struct Habit {
        var name: String
        var numeric = false
        var question = ""
        var description = ""
        var numerator = 1
        var denominator = 1
        var unit = ""
        var atMost = false
        var target = 0.0
        var archived = false
        /// Loop's computed entries (`computedEntries.getKnown()`): a day, its value as Loop keeps
        /// it (2 done by hand, 1 done by the frequency, 0 not done, 3 skipped, -1 unknown; a
        /// numeric habit's amount in thousandths) and its notes.
        var entries: [(date: String, value: Int, notes: String)] = []
        /// Whether the export holds its days (Loop's export of one habit holds one).
        var exported = true
    }

    var habits: [Habit]
    /// The day of the export: the top-level files' first row.
    var today: String

    /// `Entry.formattedValue`: the five values as words, any other as its digits.
    static func formatted(_ value: Int) -> String {
        switch value {
        case 2: "YES_MANUAL"
        case 1: "YES_AUTO"
        case 0: "NO"
        case 3: "SKIP"
        case -1: "UNKNOWN"
        default: String(value)
        }
    }

    /// One line as opencsv writes it without quoting all: a field holding a quote, a comma or
    /// a line break quoted, its quotes doubled; lines end with LF.
    static func csvLine(_ fields: [String]) -> String {
        fields.map { field in
            field.contains(where: { $0 == "\"" || $0 == "," || $0 == "\n" || $0 == "\r" })
                ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
        }.joined(separator: ",") + "\n"
    }

    static func folder(_ position: Int, _ name: String) -> String {
        let kept = String(
            String.UnicodeScalarView(
                name.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || "0123456789 ._-".unicodeScalars.contains($0)) }))
        let folder = String(format: "%03d", position) + " " + String(kept.prefix(100))
        return String(folder.reversed().drop { $0 == " " }.reversed())
    }

    static func day(_ date: String, minus days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: calendar.date(byAdding: .day, value: -days, to: formatter.date(from: date)!)!)
    }

    func write(to dir: URL) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var text = Self.csvLine([
            "Position", "Name", "Type", "Question", "Description", "FrequencyNumerator", "FrequencyDenominator", "Color", "Unit", "Target Type",
            "Target Value", "Archived?",
        ])
        for (k, habit) in habits.enumerated() {
            text += Self.csvLine([
                String(format: "%03d", k + 1), habit.name, habit.numeric ? "NUMERICAL" : "YES_NO", habit.question, habit.description,
                String(habit.numerator), String(habit.denominator), "#FF8F00", habit.numeric ? habit.unit : "",
                habit.numeric ? (habit.atMost ? "AT_MOST" : "AT_LEAST") : "", habit.numeric ? "\(habit.target)" : "", "\(habit.archived)",
            ])
        }
        try Data(text.utf8).write(to: dir.appendingPathComponent("Habits.csv"))
        let exported = habits.enumerated().filter { $0.element.exported }
        for (k, habit) in exported {
            let folder = dir.appendingPathComponent(Self.folder(k + 1, habit.name))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let entries = habit.entries.sorted { $0.date > $1.date }
            let checkmarks = entries.map { Self.csvLine([$0.date, Self.formatted($0.value), $0.notes]) }.joined()
            try Data((Self.csvLine(["Date", "Value", "Notes"]) + checkmarks).utf8).write(to: folder.appendingPathComponent("Checkmarks.csv"))
            let scores = entries.map { Self.csvLine([$0.date, "0.5000"]) }.joined()
            try Data((Self.csvLine(["Date", "Score"]) + scores).utf8).write(to: folder.appendingPathComponent("Scores.csv"))
        }
        // From the export's day back to the oldest day an exported habit recorded (Loop's
        // `originalEntries`, which hold no day done only by the frequency).
        let recorded = exported.flatMap { habit in habit.element.entries.filter { $0.value != 1 || habit.element.numeric }.map(\.date) }
        let header = "Date," + exported.map { $0.element.name + "," }.joined() + "\n"
        var checks = header
        var scores = header
        if let oldest = recorded.min() {
            var day = today
            var back = 0
            while day >= oldest {
                checks +=
                    day + "," + exported.map { habit in Self.formatted(habit.element.entries.first { $0.date == day }?.value ?? -1) + "," }.joined()
                    + "\n"
                scores += day + "," + exported.map { _ in "0.5000," }.joined() + "\n"
                back += 1
                day = Self.day(today, minus: back)
            }
        }
        try Data(checks.utf8).write(to: dir.appendingPathComponent("Checkmarks.csv"))
        try Data(scores.utf8).write(to: dir.appendingPathComponent("Scores.csv"))
    }
}
