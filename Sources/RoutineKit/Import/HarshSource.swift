/// harsh's folder: `habits` (`Name: frequency` lines, `! Heading` lines, `#` comments) and
/// `log` (`YYYY-MM-DD : Habit : y|n|s[ : comment[ : amount]]`), the log read as a stream.
public struct HarshSource: TrackerSource {
    public let trackerName = "harsh"
    public let habits: [TrackerHabit]
    let logPath: String
    let index: [String: Int]

    /// Reads the habits file; throws ``TrackerReadError``.
    public init(folder: String) throws {
        let habitsPath = folder.hasSuffix("/") ? folder + "habits" : folder + "/habits"
        logPath = folder.hasSuffix("/") ? folder + "log" : folder + "/log"
        var habits: [TrackerHabit] = []
        var index: [String: Int] = [:]
        var heading: String?
        try Self.eachLine(habitsPath) { line, number in
            let text = line.trimmingWhitespace()
            if text.isEmpty || text.hasPrefix("#") { return }
            if text.hasPrefix("!") {
                heading = String(text.dropFirst()).trimmingWhitespace()
                return
            }
            // The name may hold a colon; the frequency is after the last one.
            guard let colon = text.lastIndex(of: ":") else {
                throw TrackerReadError(file: habitsPath, line: number, reason: "expected 'Name: frequency'")
            }
            let name = try TrackerValues.name(String(text[..<colon]).trimmingWhitespace(), file: habitsPath, line: number)
            let (numerator, denominator) = try Self.frequency(
                String(text[text.index(after: colon)...]).trimmingWhitespace(), file: habitsPath, line: number)
            guard index[name] == nil else { throw TrackerReadError(file: habitsPath, line: number, reason: "the habit '\(name)' is listed twice") }
            index[name] = habits.count
            habits.append(TrackerHabit(name: name, numerator: numerator, denominator: denominator, heading: heading))
        }
        self.habits = habits
        self.index = index
    }

    /// harsh's frequency: `1` daily, `N` every N days, `Nw` every N weeks, `N/M` N times in M
    /// days, `0` tracking only (a denominator of 0).
    static func frequency(_ text: String, file: String, line: Int) throws(TrackerReadError) -> (Int, Int) {
        let bad = TrackerReadError(
            file: file, line: line, reason: "'\(Sanitizer.visible(String(text.prefix(20))))' is not a frequency such as 1, 7, 1w or 3/7")
        func count(_ part: Substring) throws(TrackerReadError) -> Int {
            guard !part.isEmpty, part.count <= 4, part.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(part) else { throw bad }
            return n
        }
        if text == "0" { return (0, 0) }
        if let slash = text.firstIndex(of: "/") {
            let n = try count(text[..<slash])
            let m = try count(text[text.index(after: slash)...])
            guard n > 0, m > 0 else { throw bad }
            return (n, m)
        }
        if text.hasSuffix("w") {
            let weeks = try count(text.dropLast())
            guard weeks > 0 else { throw bad }
            return (1, weeks * 7)
        }
        let days = try count(Substring(text))
        guard days > 0 else { throw bad }
        return (1, days)
    }

    public func forEachDay(_ body: (TrackerDay) throws -> Void) throws {
        try Self.eachLine(logPath) { line, number in
            let text = line.trimmingWhitespace()
            if text.isEmpty || text.hasPrefix("#") { return }
            let fields = text.split(separator: " : ", omittingEmptySubsequences: false).map(String.init)
            guard (3...5).contains(fields.count) else {
                throw TrackerReadError(
                    file: logPath, line: number, reason: "expected 'YYYY-MM-DD : Habit : y|n|s[ : comment[ : amount]]', found \(fields.count) fields")
            }
            let date = try TrackerValues.date(Substring(fields[0].trimmingWhitespace()), file: logPath, line: number)
            let name = fields[1].trimmingWhitespace()
            guard let habit = index[name] else {
                throw TrackerReadError(
                    file: logPath, line: number, reason: "'\(Sanitizer.visible(String(name.prefix(60))))' is not a habit of the habits file")
            }
            let mark: TrackerMark
            switch fields[2].trimmingWhitespace() {
            case "y": mark = .done(nil)
            case "n": mark = .notDone
            case "s": mark = .skipped
            default:
                throw TrackerReadError(file: logPath, line: number, reason: "the entry must be y, n or s")
            }
            let comment = fields.count > 3 && !fields[3].trimmingWhitespace().isEmpty
            var amount = false
            if fields.count > 4 {
                let value = fields[4].trimmingWhitespace()
                guard value.isEmpty || Double(value)?.isFinite == true else {
                    throw TrackerReadError(file: logPath, line: number, reason: "the amount is not a number")
                }
                amount = !value.isEmpty
            }
            try body(TrackerDay(habit: habit, date: date, mark: mark, hadNote: comment, hadAmount: amount))
        }
    }

    /// Calls `body` with each line of `path` (without its end, CR LF or LF) and its number,
    /// read as a stream; a file that cannot be read, or a line that is not UTF-8, is refused.
    static func eachLine(_ path: String, _ body: (String, Int) throws -> Void) throws {
        let lines = try TrackerLines(path)
        while let line = try lines.next() { try body(line, lines.number) }
    }
}

/// The lines of an export's file, read one at a time: only a regular file (a named pipe in
/// its place would wait for a writer forever), each line UTF-8 and at most 1 MiB.
final class TrackerLines {
    let path: String
    private let reader: LineReader

    init(_ path: String) throws(TrackerReadError) {
        self.path = path
        switch LineReader.openRegularFile(path) {
        case .success(let opened): reader = opened
        case .failure(let diagnostic): throw TrackerReadError(file: path, line: 0, reason: diagnostic.message)
        }
        // No line of an export is near this long: a longer one is not an export's, and is
        // refused before it costs memory.
        reader.maximumLine = 1 << 20
    }

    /// The number of the line ``next()`` returned last.
    var number: Int { reader.lineNumber }

    /// The next line without its end, or nil after the last one.
    func next() throws(TrackerReadError) -> String? {
        switch reader.next() {
        case .success(let line?):
            guard let text = String(validating: line, as: UTF8.self) else {
                throw TrackerReadError(file: path, line: reader.lineNumber, reason: "the line is not UTF-8")
            }
            return text
        case .success(nil): return nil
        case .failure(let diagnostic):
            throw TrackerReadError(
                file: path, line: reader.lineNumber + 1,
                reason: reader.lineTooLong ? "the line is longer than 1 MiB, which no line of an export is" : diagnostic.message)
        }
    }
}
