/// Refusals of a log outside a run (`routine done`, `routine amend`, the studio's Today view).
extension Diagnostic {
    static func unknownHabit(_ id: String, suggestion: String?) -> Diagnostic {
        Diagnostic(
            .unknownHabit, "the routine has no node '\(id)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""), at: nil,
            notes: [Note("nothing was recorded; 'routine check FILE' lists the routine, and the shells complete habit IDs")])
    }

    static func logOfQuestion(_ id: String) -> Diagnostic {
        Diagnostic(
            .logOfQuestion, "'\(id)' is a question: only habits are logged outside a run", at: nil,
            notes: [Note("nothing was recorded; a question is answered in 'routine run'")])
    }

    static func alreadyDone(_ id: String, title: String, date: CalendarDate, by: Completion, skipped: Bool) -> Diagnostic {
        let what = skipped ? "skipped" : "done"
        return Diagnostic(
            .alreadyDone, "'\(id)' (\(title)) is already \(what) on \(date.weekdayName) \(date): at \(by.text)", at: nil,
            notes: [Note("nothing was recorded; --undo takes back the last log, --force records it again")])
    }

    static func notScheduledThatDay(_ id: String, title: String, date: CalendarDate, days: Weekdays) -> Diagnostic {
        Diagnostic(
            .notScheduledThatDay,
            "'\(id)' (\(title)) is not scheduled on \(date.weekdayName)s, only on \(days.prose)", at: nil,
            notes: [Note("nothing was recorded; --force records it anyway")])
    }

    static func quotaMet(_ id: String, title: String, quota: Int, done: Int) -> Diagnostic {
        Diagnostic(
            .quotaMet, "'\(id)' (\(title)) has met this week's quota: done on \(done) days, \(quota) per week", at: nil,
            notes: [Note("nothing was recorded; --force records it anyway")])
    }

    static func valueNeeded(_ id: String, target: TargetValue) -> Diagnostic {
        let goal = NumberText.format(target.amount) + (target.unit.map { " " + $0 } ?? "")
        return Diagnostic(
            .logValue, "'\(id)' is a numeric habit: give its value (target \(goal))", at: nil,
            notes: [Note("for example: routine done FILE \(id) \(NumberText.format(target.amount))")])
    }

    static func valueNotExpected(_ id: String) -> Diagnostic {
        Diagnostic(.logValue, "'\(id)' has no target, so it takes no value", at: nil, notes: [Note("nothing was recorded")])
    }

    static func nothingToUndo(_ id: String, date: CalendarDate) -> Diagnostic {
        Diagnostic(
            .nothingToUndo, "no log of '\(id)' on \(date) to undo", at: nil,
            notes: [Note("--undo takes back logs only; a run's steps stay as they were recorded")])
    }

    public static func missingNotifier() -> Diagnostic {
        Diagnostic(
            .missingProgram, "cannot send a reminder: 'notify-send' is not on PATH", at: nil,
            notes: [Note("install libnotify (Debian: apt-get install libnotify-bin)")])
    }

    public static func nothingToAmend(_ routine: String) -> Diagnostic {
        Diagnostic(.nothingToUndo, "no amendment of '\(routine)' to undo", at: nil)
    }

    public static func noHistoryForLog() -> Diagnostic {
        Diagnostic(
            .noHistoryForLog, "nothing can be recorded: the history is off, or HOME is not set so there is no place for it", at: nil,
            notes: [Note("name one with --history FILE or ROUTINE_HISTORY")])
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

    public static func newerAmendment(_ routine: String) -> Diagnostic {
        Diagnostic(
            .nothingToUndo, "a newer correction of '\(routine)' was made since: undo that one first", at: nil,
            notes: [Note("corrections are undone newest first, as 'routine amend --undo' does")])
    }

    public static func runStillGoing(run: Int64) -> Diagnostic {
        Diagnostic(
            .notRecorded, "run \(run) has not ended: it is still going, or left to resume", at: nil,
            notes: [Note("finish or quit it first; its steps can be corrected meanwhile")])
    }

    static func notAnOption(_ id: String, answer: String, reason: String) -> Diagnostic {
        Diagnostic(
            .notAnOption, "'\(answer)' is not an answer to '\(id)'", at: nil,
            notes: [Note("nothing was recorded; " + reason)])
    }

    static func answerUnchanged(_ id: String, answer: String, date: CalendarDate) -> Diagnostic {
        Diagnostic(
            .answerUnchanged, "'\(id)' is already answered \(StringLiteral.encode(answer)) on \(date.weekdayName) \(date)", at: nil,
            notes: [Note("nothing was recorded; --undo takes back the newest amendment")])
    }

    static func questionNotAnswered(_ id: String, date: CalendarDate) -> Diagnostic {
        Diagnostic(
            .questionNotAnswered, "no run answered '\(id)' on \(date.weekdayName) \(date): there is no answer to change", at: nil,
            notes: [Note("nothing was recorded; a question is answered in 'routine run'")])
    }

    public static func nothingToRestore(run: Int64) -> Diagnostic {
        Diagnostic(.notRecorded, "run \(run) was not deleted by this studio since it started, or is back already", at: nil)
    }
}

/// The catalogue, continued: sync folders (docs/sync.md).
extension Diagnostic {
    /// A journal line that is skipped: the rest of the file is read.
    public static func syncBadLine(_ path: String, line: Int, reason: String) -> Diagnostic {
        var diagnostic = Diagnostic(.syncBadLine, "'\(path)' line \(line): \(reason); the line is skipped", at: nil)
        diagnostic.severity = .warning
        return diagnostic
    }

    /// The lines of one journal file that are skipped, said once for the file: how many, the
    /// first few, and what is wrong with the first.
    public static func syncBadLines(_ path: String, count: Int, lines: [Int], reason: String) -> Diagnostic {
        if count == 1, let line = lines.first { return syncBadLine(path, line: line, reason: reason) }
        let numbers = lines.map(String.init).joined(separator: ", ") + (count > lines.count ? ", …" : "")
        var diagnostic = Diagnostic(
            .syncBadLine, "'\(path)': \(count) lines are skipped (lines \(numbers)); line \(lines.first ?? 0): \(reason)", at: nil)
        diagnostic.severity = .warning
        return diagnostic
    }

    /// Two events with one id and different content: every device keeps the same one.
    public static func syncDuplicateID(_ id: String, _ path: String, line: Int, other: String) -> Diagnostic {
        var diagnostic = Diagnostic(
            .syncBadLine, "the event '\(id)' of '\(path)' line \(line) differs from the one of that id in '\(other)'", at: nil,
            notes: [Note("every device keeps the one whose line sorts first; the other is not applied")])
        diagnostic.severity = .warning
        return diagnostic
    }

    /// A command's record that is in the history, and not yet in the journal.
    public static func syncNotInJournal(_ folder: String, reason: String) -> Diagnostic {
        var diagnostic = Diagnostic(
            .syncUnavailable, "cannot write to the sync folder '\(folder)': \(reason)", at: nil,
            notes: [Note("the record is in the history and not yet in the journal; the next command that can write it does")])
        diagnostic.severity = .warning
        return diagnostic
    }

    public static func syncUnreadable(_ path: String, reason: String) -> Diagnostic {
        var diagnostic = Diagnostic(.syncUnreadable, "cannot read the journal '\(path)': \(reason)", at: nil)
        diagnostic.severity = .warning
        return diagnostic
    }

    public static func syncUnavailable(_ folder: String, reason: String) -> Diagnostic {
        var diagnostic = Diagnostic(
            .syncUnavailable, "cannot sync with '\(folder)': \(reason)", at: nil,
            notes: [Note("the history keeps what is not written yet; the next command writes it")])
        diagnostic.severity = .warning
        return diagnostic
    }

    public static func syncDeviceCopied(_ device: String, file: String, newID: String, rewritten: Int) -> Diagnostic {
        var diagnostic = Diagnostic(
            .syncDeviceCopied,
            "another device writes as this one ('\(device)', in '\(file)'): this history takes the new device id '\(newID)'", at: nil,
            notes: [
                Note(
                    "a history or home folder copied to another machine does this; the other's records are read as another device's, and "
                        + "this one's \(rewritten) record\(rewritten == 1 ? " is" : "s are") written again under the new id"),
                Note("nothing to do"),
            ])
        diagnostic.severity = .warning
        return diagnostic
    }

    public static func syncNotMember(_ path: String) -> Diagnostic {
        Diagnostic(
            .syncNotMember, "the history '\(path)' is not a member of a sync folder", at: nil,
            notes: [Note("'routine sync init FOLDER' makes it one")])
    }
}
