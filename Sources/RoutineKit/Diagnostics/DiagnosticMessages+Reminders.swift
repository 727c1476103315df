/// Refusals of `routine remind`: units that would name another file, replace another
/// routine's reminder, or that systemd would not load.
extension Diagnostic {
    /// `shown`: the path with its invalid bytes written `\xFF`.
    public static func unitPathNotUTF8(_ shown: String) -> Diagnostic {
        Diagnostic(
            .unitPathNotUTF8, "the path '\(shown)' is not valid UTF-8: a systemd unit cannot name it", at: nil,
            notes: [Note("nothing was written; rename the file (or its folder) to UTF-8, or call 'routine today FILE --notify' from a crontab line")])
    }

    /// `owner`: the routine named in the unit, nil when no 'remind' wrote it.
    public static func unitOfAnotherRoutine(_ unit: String, folder: String, owner: String?) -> Diagnostic {
        let whose = owner.map { "is the reminder of another routine, '\($0)'" } ?? "was not written by 'routine remind'"
        return Diagnostic(
            .unitOfAnotherRoutine, "'\(unit)' in '\(folder)' \(whose)", at: nil,
            notes: [Note("nothing was written or removed; each routine's reminder has a unit of its own")])
    }

    public static func unitRefusedBySystemd(_ unit: String, reason: String) -> Diagnostic {
        Diagnostic(
            .unitRefusedBySystemd, "systemd-analyze refuses the unit '\(unit)': \(reason)", at: nil,
            notes: [Note("nothing was installed; 'routine remind FILE --at HH:MM' prints the units")])
    }
}
