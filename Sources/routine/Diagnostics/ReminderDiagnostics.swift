import RoutineKit

/// The reminders' codes: `routine remind` refuses units that would name another file, replace
/// another routine's reminder, or that systemd would not load.
extension DiagnosticCode {
    public static let unitPathNotUTF8 = DiagnosticCode("E040", "a reminder for a path that is not valid UTF-8, which a systemd unit cannot name")
    public static let unitOfAnotherRoutine = DiagnosticCode(
        "E041", "a reminder unit of the same name that another routine installed (or that 'remind' did not write)")
    public static let unitRefusedBySystemd = DiagnosticCode("E042", "a reminder unit that 'systemd-analyze verify' refuses, so none is installed")

    /// The reminders' codes.
    public static let reminderCodes: [DiagnosticCode] = [
        .unitPathNotUTF8, .unitOfAnotherRoutine, .unitRefusedBySystemd,
    ]
}

/// The reminders' catalogue: `routine remind`'s refusals, and a notification that cannot be sent.
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

    public static func missingNotifier() -> Diagnostic {
        Diagnostic(
            .missingProgram, "cannot send a reminder: 'notify-send' is not on PATH", at: nil,
            notes: [Note("install libnotify (Debian: apt-get install libnotify-bin)")])
    }
}
