import RoutineKit

/// The systemd user units of a reminder: a oneshot service that runs `routine today --notify`,
/// and a persistent timer that starts it at a time of day, on some days.
struct ReminderUnits {
    /// `routine-morning-1a2b3c4d`: the units' name without its suffix; the hash of the routine's
    /// name keeps apart routines whose readable parts are the same ("Утро" and "Вечер").
    let name: String
    /// The line that says which routine the units remind of, for `--install` and `--uninstall`
    /// to leave another routine's units alone.
    let ownerLine: String
    let service: String
    let timer: String

    /// `command`: the program and its arguments, unquoted; `days`: nil for every day.
    init(routine: String, command: [String], hour: Int, minute: Int, days: Weekdays?) {
        name = Self.unitName(routine)
        ownerLine = Self.ownerLine(routine)
        let label = Self.specifiers(Sanitizer.visible(routine))
        let time = Self.twoDigits(hour) + ":" + Self.twoDigits(minute)
        let dayText = days.map { " on " + $0.words.joined(separator: " ") } ?? " every day"
        service = """
            [Unit]
            Description=Reminder of the routine '\(label)'
            \(ownerLine)

            [Service]
            Type=oneshot
            ExecStart=\(command.enumerated().map { Self.quoted($1, executable: $0 == 0) }.joined(separator: " "))
            # notify-send talks to the desktop through the session bus of the user's manager.
            Environment=DBUS_SESSION_BUS_ADDRESS=unix:path=%t/bus

            """
        timer = """
            [Unit]
            Description=Reminder of the routine '\(label)' at \(time)\(dayText)
            \(ownerLine)

            [Timer]
            OnCalendar=\(days.map { Self.systemdDays($0) + " " } ?? "")*-*-* \(time):00
            # A reminder missed while the machine slept comes when it wakes.
            Persistent=true
            Unit=\(name).service

            [Install]
            WantedBy=timers.target

            """
    }

    /// `routine-SLUG-HASH`: readable, and one per routine name.
    static func unitName(_ routine: String) -> String {
        "routine-" + slug(routine) + "-" + hash(routine)
    }

    /// `X-Routine="NAME"`, the name quoted onto one line (systemd ignores `X-` settings; the
    /// closing quote keeps a final backslash from continuing the line).
    static func ownerLine(_ routine: String) -> String { "X-Routine=" + quoted(routine) }

    /// Eight hex digits of the FNV-1a hash of `text`'s UTF-8: the same on every machine and run.
    static func hash(_ text: String) -> String {
        var h: UInt32 = 0x811C_9DC5
        for byte in text.utf8 { h = (h ^ UInt32(byte)) &* 0x0100_0193 }
        return hex(h, digits: 8)
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
        while out.count > 48 { out.removeLast() }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "routine" : out
    }

    /// `Mon,Wed` for systemd's calendar events.
    static func systemdDays(_ days: Weekdays) -> String {
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        return (1...7).filter { days.contains(.isoDay($0)) }.map { names[$0 - 1] }.joined(separator: ",")
    }

    /// One word of a command line as systemd reads it: in double quotes, with `\`, `"` escaped,
    /// `%` (a specifier) and `$` (a variable) doubled, and control characters as C escapes (a raw
    /// carriage return would end the line, and systemd would refuse the unit). The executable's
    /// name is not searched for variables, so its `$` stays single there.
    static func quoted(_ word: String, executable: Bool = false) -> String {
        var out = "\""
        // By scalars: a quote with a combining mark is one Character, but still a quote to systemd.
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "%": out += "%%"
            case "$": out += executable ? "$" : "$$"
            default:
                if !Sanitizer.isUnsafe(scalar) {
                    out.unicodeScalars.append(scalar)
                } else if scalar.isASCII {
                    out += "\\x" + hex(scalar.value, digits: 2)
                } else {
                    out += "\\u" + hex(scalar.value, digits: 4)
                }
            }
        }
        return out + "\""
    }

    static func hex(_ n: UInt32, digits: Int) -> String {
        let text = String(n, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// Text with `%` doubled, as a unit's free-text settings need.
    static func specifiers(_ text: String) -> String { text.replacing("%", with: "%%") }

    static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
