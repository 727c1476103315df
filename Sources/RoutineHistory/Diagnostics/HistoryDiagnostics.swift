import RoutineKit

/// The history's codes: its file refused or damaged, an import refused, a run or log that
/// cannot be recorded. Declared here, not in RoutineKit, which knows nothing of a history.
extension DiagnosticCode {
    // MARK: Opening, damage and imports
    public static let historyRefused = DiagnosticCode("E009", "a history file that is not a routine history, or is of a newer version")
    public static let invalidImport = DiagnosticCode(
        "E010",
        "a line of a history import that is not a run as 'history export' writes it, or holds a value no run could record (a negative amount, a target of 0, a NUL in a text, a time export never writes, a year outside 1900 to 2199)"
    )
    public static let historyDamaged = DiagnosticCode("E011", "a history file whose pages SQLite finds malformed (overwritten or cut short)")

    // MARK: Logs outside a run
    public static let noHistoryForLog = DiagnosticCode("E508", "a log or amendment with no history to record it in")
    public static let notRecorded = DiagnosticCode(
        "E509",
        "a correction of a run or step the history no longer holds, a run deleted before it ended, or a deleted run put back where another now is")

    // MARK: Warnings
    public static let runNotRecorded = DiagnosticCode("W009", "a run that cannot be recorded, because the history cannot be written")

    /// The history's codes, beside ``syncCodes``: with RoutineKit's ``languageCodes`` and the
    /// studio's and reminders' lists, every code there is.
    public static let historyCodes: [DiagnosticCode] = [
        .historyRefused, .invalidImport, .historyDamaged, .noHistoryForLog, .notRecorded, .runNotRecorded,
    ]
}

/// The history's catalogue: opening it, recording in it, and correcting what it holds (the
/// studio's Your days and `routine amend` word their refusals through it).
extension Diagnostic {
    public static func notAHistory(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(
            .historyRefused, "'\(path)' is not a routine history: \(reason)", at: nil,
            notes: [Note("nothing was written to it; name another file with --history FILE, or run with --no-history")])
    }

    public static func newerHistory(_ path: String) -> Diagnostic {
        Diagnostic(
            .historyRefused, "the history '\(path)' was written by a newer version of routine", at: nil,
            notes: [Note("nothing was written to it; use that version, or name another file with --history FILE")])
    }

    public static func unreadableHistory(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(.unreadableInput, "cannot read the history '\(path)': \(reason)", at: nil)
    }

    public static func damagedHistory(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(.historyDamaged, "the history '\(path)' is damaged: \(reason)", at: nil, notes: [Note(damagedHistoryAdvice)])
    }

    static let damagedHistoryAdvice =
        "nothing was written to it; 'routine history check' says what is wrong, and 'routine history recover OUT' copies every run that can still be read into a new history"

    public static func runNotRecorded(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(.runNotRecorded, "this run is not being recorded: cannot write the history '\(path)': \(reason)", at: nil)
    }

    public static func runNotRecordedInDamagedHistory(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(
            .runNotRecorded, "this run is not being recorded: the history '\(path)' is damaged: \(reason)", at: nil,
            notes: [Note(damagedHistoryAdvice)])
    }

    public static func noHistoryPlace() -> Diagnostic {
        Diagnostic(
            .runNotRecorded, "this run is not being recorded: HOME is not set, so there is no place for the history", at: nil,
            notes: [Note("name one with --history FILE or ROUTINE_HISTORY")])
    }

    public static func invalidImport(_ path: String, line: Int, reason: String) -> Diagnostic {
        Diagnostic(
            .invalidImport, "'\(path)' line \(line): \(reason)", at: nil,
            notes: [Note("nothing was imported; 'routine history export' writes the form that import reads")])
    }

    public static func noHistoryForLog() -> Diagnostic {
        Diagnostic(
            .noHistoryForLog, "nothing can be recorded: the history is off, or HOME is not set so there is no place for it", at: nil,
            notes: [Note("name one with --history FILE or ROUTINE_HISTORY")])
    }

    public static func nothingToAmend(_ routine: String) -> Diagnostic {
        Diagnostic(.nothingToUndo, "no amendment of '\(routine)' to undo", at: nil)
    }

    public static func newerAmendment(_ routine: String) -> Diagnostic {
        Diagnostic(
            .nothingToUndo, "a newer correction of '\(routine)' was made since: undo that one first", at: nil,
            notes: [Note("corrections are undone newest first, as 'routine amend --undo' does")])
    }

    public static func stepNotRecorded(run: Int64, step: Int?) -> Diagnostic {
        Diagnostic(
            .notRecorded, step.map { "no habit step \($0) in run \(run)" } ?? "no run \(run) in the history", at: nil,
            notes: [Note("it was deleted or changed meanwhile; the day is shown as it is now")])
    }

    public static func runStartTaken(date: String, time: String) -> Diagnostic {
        Diagnostic(
            .notRecorded, "the run of \(date) at \(time) cannot be put back: a run with the same start is in the history again", at: nil)
    }

    public static func runStillGoing(run: Int64) -> Diagnostic {
        Diagnostic(
            .notRecorded, "run \(run) has not ended: it is still going, or left to resume", at: nil,
            notes: [Note("finish or quit it first; its steps can be corrected meanwhile")])
    }

    public static func nothingToRestore(run: Int64) -> Diagnostic {
        Diagnostic(.notRecorded, "run \(run) was not deleted by this studio since it started, or is back already", at: nil)
    }
}
