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
}

/// The catalogue, continued: sync folders (docs/sync.md).
extension Diagnostic {
}
