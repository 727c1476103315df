/// The calendar of a routine (or one habit), laid out as GitHub lays out contributions: one
/// column per ISO week (Monday first), one row per weekday, month names above the week in
/// which a month begins, weekday names beside, and a legend.
public struct HeatMap: Sendable {
    /// How a cell is drawn: plain characters, 256 colours, or 24-bit colour.
    public enum Palette: Sendable {
        case characters, colors256, trueColor
    }

    public var palette: Palette
    /// The number of week columns, the last being the week of the last day.
    public var weeks: Int
    /// Days off of the routine: drawn with their own mark, whatever was done on them.
    public var daysOff: Set<CalendarDate> = []

    public init(palette: Palette, weeks: Int) {
        self.palette = palette
        self.weeks = max(1, weeks)
    }

    /// How many weeks fit in `width` columns beside the weekday labels.
    public static func weeks(fitting width: Int) -> Int { max(4, (width - 5) / 2) }

    /// As many weeks as fit in `width`, but none before the week of `first`: a history shorter
    /// than the width starts at its first week rather than after months of empty columns.
    public static func weeks(fitting width: Int, from first: CalendarDate, to last: CalendarDate) -> Int {
        let span = max(1, (last.weekStart.dayNumber - first.weekStart.dayNumber) / 7 + 1)
        return min(weeks(fitting: width), span)
    }

    /// The character levels, from nothing done to everything done.
    static let characters: [Character] = ["·", "░", "▒", "▓", "█"]

    /// Draws the routine's calendar: each day shaded by `level(date)` (0...4), nil for a day
    /// with nothing due, up to `last`.
    public func render(last: CalendarDate, level: (CalendarDate) -> Int?) -> String {
        var legend = "     less "
        for k in 0..<5 { legend += cell(k) + " " }
        return render(last: last, legend: legend + "more" + offLegend(last: last) + "\n") { cell(level($0)) }
    }

    /// Draws one habit's calendar, each status its own mark.
    public func render(last: CalendarDate, status: (CalendarDate) -> DayStatus?) -> String {
        let order: [DayStatus] = [.done, .skipped, .missed, .unknown, .notDue]
        let legend = "     " + order.map { mark($0) + " " + $0.rawValue }.joined(separator: "  ") + offLegend(last: last) + "\n"
        return render(last: last, legend: legend) { status($0).map(mark) ?? " " }
    }

    /// The day-off mark in the legend, when the calendar shows one.
    private func offLegend(last: CalendarDate) -> String {
        let first = last.weekStart.adding(days: -7 * (weeks - 1))
        return daysOff.contains { $0 >= first && $0 <= last } ? "   " + offMark + " day off" : ""
    }

    /// A day off: `○`, blue where there is colour.
    var offMark: String {
        switch palette {
        case .characters: "○"
        case .colors256: "\u{1B}[38;5;75m○\u{1B}[0m"
        case .trueColor: "\u{1B}[38;2;88;166;255m○\u{1B}[0m"
        }
    }

    func mark(_ status: DayStatus) -> String {
        let (character, color256, rgb): (String, Int, (Int, Int, Int)) =
            switch status {
            case .done: ("█", 40, (57, 211, 83))
            case .skipped: ("░", 178, (210, 153, 34))
            case .missed: ("×", 160, (218, 54, 51))
            case .unknown: ("?", 244, (139, 148, 158))
            case .notDue: ("·", 238, (72, 79, 88))
            }
        switch palette {
        case .characters: return character
        case .colors256: return "\u{1B}[38;5;\(color256)m\(character)\u{1B}[0m"
        case .trueColor: return "\u{1B}[38;2;\(rgb.0);\(rgb.1);\(rgb.2)m\(character)\u{1B}[0m"
        }
    }

    private func render(last: CalendarDate, legend: String, cell: (CalendarDate) -> String) -> String {
        let firstMonday = last.weekStart.adding(days: -7 * (weeks - 1))
        var monthLine = Array(repeating: Character(" "), count: 5 + 2 * weeks + 4)
        // Each month's name stands above the week in which its first day falls; the first
        // column names the month it starts in.
        var labels: [(week: Int, month: Int)] = []
        for week in 0..<weeks {
            let monday = firstMonday.adding(days: 7 * week)
            let month = week == 0 ? monday.month : monday.adding(days: 6).month
            if month != labels.last?.month { labels.append((week, month)) }
        }
        // A name needs two columns: the first column's month, if the next begins a week
        // later, gives way, rather than push the next name a week late.
        if labels.count > 1, labels[1].week - labels[0].week < 2 { labels.removeFirst() }
        for (week, month) in labels {
            let column = 5 + 2 * week
            for (k, c) in Self.monthNames[month - 1].enumerated() where column + k < monthLine.count { monthLine[column + k] = c }
        }
        var text = String(monthLine).trimmingTrailingSpaces() + "\n"
        for row in 0..<7 {
            var line = [1: "Mon  ", 3: "Wed  ", 5: "Fri  "][row + 1] ?? "     "
            for week in 0..<weeks {
                let date = firstMonday.adding(days: 7 * week + row)
                line += date > last ? "  " : (daysOff.contains(date) ? offMark : cell(date)) + " "
            }
            text += line.trimmingTrailingSpaces() + "\n"
        }
        return text + legend
    }

    /// The level (0...4) of a share of due habits done; nil when nothing was due.
    public static func level(share: Double?) -> Int? {
        guard let share else { return nil }
        if share >= 1 { return 4 }
        if share <= 0 { return 0 }
        return share < 1.0 / 3 ? 1 : share < 2.0 / 3 ? 2 : 3
    }

    func cell(_ level: Int?) -> String {
        guard let level else { return " " }
        switch palette {
        case .characters:
            return String(Self.characters[level])
        case .colors256:
            let codes = [237, 22, 28, 34, 40]
            return "\u{1B}[38;5;\(codes[level])m■\u{1B}[0m"
        case .trueColor:
            let rgb = [(48, 54, 61), (14, 68, 41), (0, 109, 50), (38, 166, 65), (57, 211, 83)][level]
            return "\u{1B}[38;2;\(rgb.0);\(rgb.1);\(rgb.2)m■\u{1B}[0m"
        }
    }

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
