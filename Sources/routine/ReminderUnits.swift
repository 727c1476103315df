import RoutineKit

/// The systemd user units of a reminder: a oneshot service that runs `routine today --notify`,
/// and a persistent timer that starts it at a time of day, on some days.
struct ReminderUnits {
    /// `routine-morning`: the units' name without its suffix.
    let name: String
    let service: String
    let timer: String

    /// `command`: the program and its arguments, unquoted; `days`: nil for every day.
    init(routine: String, command: [String], hour: Int, minute: Int, days: Weekdays?) {
        name = "routine-" + Self.slug(routine)
        let label = Self.specifiers(Sanitizer.visible(routine))
        let time = Self.twoDigits(hour) + ":" + Self.twoDigits(minute)
        let dayText = days.map { " on " + $0.words.joined(separator: " ") } ?? " every day"
        service = """
            [Unit]
            Description=Reminder of the routine '\(label)'

            [Service]
            Type=oneshot
            ExecStart=\(command.map(Self.quoted).joined(separator: " "))
            # notify-send talks to the desktop through the session bus of the user's manager.
            Environment=DBUS_SESSION_BUS_ADDRESS=unix:path=%t/bus

            """
        timer = """
            [Unit]
            Description=Reminder of the routine '\(label)' at \(time)\(dayText)

            [Timer]
            OnCalendar=\(days.map { Self.systemdDays($0) + " " } ?? "")*-*-* \(time):00
            # A reminder missed while the machine slept comes when it wakes.
            Persistent=true
            Unit=\(name).service

            [Install]
            WantedBy=timers.target

            """
    }

    /// Lower-case letters and digits of `name`, the rest as single dashes: a unit name systemd
    /// takes without escaping.
    static func slug(_ name: String) -> String {
        var out = ""
        for scalar in name.lowercased().unicodeScalars {
            if (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") {
                out.unicodeScalars.append(scalar)
            } else if !out.isEmpty, !out.hasSuffix("-") {
                out += "-"
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "routine" : String(out.prefix(64))
    }

    /// `Mon,Wed` for systemd's calendar events.
    static func systemdDays(_ days: Weekdays) -> String {
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        return (1...7).filter { days.contains(.isoDay($0)) }.map { names[$0 - 1] }.joined(separator: ",")
    }

    /// One word of a command line as systemd reads it: in double quotes, with `\`, `"` escaped,
    /// `%` (a specifier) and `$` (a variable) doubled.
    static func quoted(_ word: String) -> String {
        var out = "\""
        for ch in word {
            switch ch {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "%": out += "%%"
            case "$": out += "$$"
            case "\n": out += "\\n"
            default: out.append(ch)
            }
        }
        return out + "\""
    }

    /// Text with `%` doubled, as a unit's free-text settings need.
    static func specifiers(_ text: String) -> String { text.replacingOccurrences(of: "%", with: "%%") }

    static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
