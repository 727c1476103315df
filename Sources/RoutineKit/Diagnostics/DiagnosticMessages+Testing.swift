/// The catalogue, continued: test files (`.rt.test`) and what `routine test` finds.
extension Diagnostic {
    static func unknownTestLine(_ word: String, at span: Span) -> Diagnostic {
        var d = Diagnostic(
            .unknownTestLine, "unknown line '\(word)'", at: span,
            notes: [Note("a line starts with case, date, weekday, history, answer, do or expect; '#' starts a comment")])
        if let close = closestMatch(to: word, among: ScenarioParser.keywords) {
            d.fixIt = FixIt("did you mean '\(close)'?", replacing: span, with: close)
        }
        return d
    }

    static func misplacedTestLine(_ keyword: String, at span: Span, inCase: Bool) -> Diagnostic {
        inCase
            ? Diagnostic(.misplacedTestLine, "'routine' belongs at the top of the file, before the first case", at: span)
            : Diagnostic(
                .misplacedTestLine, "'\(keyword)' outside a case", at: span,
                notes: [Note("start a case first with 'case NAME'")])
    }

    static func setupAfterSteps(_ keyword: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .misplacedTestLine, "'\(keyword)' after the case's first step", at: span,
            notes: [Note("date, weekday and history come right after 'case', before any answer, do or expect")])
    }

    static func missingTestArgument(_ keyword: String, _ what: String, at span: Span) -> Diagnostic {
        Diagnostic(.invalidTestArgument, "'\(keyword)' needs \(what)", at: span)
    }

    static func invalidTestArgument(_ word: String, _ what: String, at span: Span) -> Diagnostic {
        Diagnostic(.invalidTestArgument, "unexpected '\(word)': expected \(what)", at: span)
    }

    static func extraTestWords(after keyword: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .invalidTestArgument, "unexpected words after '\(keyword)'", at: span,
            fixIt: FixIt("remove them", replacing: span, with: ""))
    }

    static func strictnessNotApplicable(_ strictness: String, _ kind: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .invalidTestArgument, "'expect \(strictness)' does not apply to '\(kind)'", at: span,
            notes: [Note("'expect \(kind)' is about the whole run, not the next event")])
    }

    static func duplicateTestLine(_ what: String, at span: Span, first: Span?) -> Diagnostic {
        Diagnostic(
            .duplicateTestLine, what == "day" ? "a case has one day: 'date' or 'weekday', once" : "\(what) given twice", at: span,
            secondary: first.map { [Label($0, "first given here")] } ?? [])
    }

    static func noTestCases(at span: Span) -> Diagnostic {
        Diagnostic(.noTestCases, "no case in this test file", at: span, notes: [Note("a case starts with 'case NAME'")])
    }

    static func unknownTestNode(_ id: String, kind: String, known: [String], at span: Span) -> Diagnostic {
        var d = Diagnostic(.unknownTestNode, "the routine has no \(kind) '\(id)'", at: span)
        if let close = closestMatch(to: id, among: known) { d.fixIt = FixIt("did you mean '\(close)'?", replacing: span, with: close) }
        return d
    }

    public static func testRoutineUnavailable(_ path: String, reason: String, at span: Span) -> Diagnostic {
        Diagnostic(.testRoutineUnavailable, "cannot test '\(path)': \(reason)", at: span)
    }

    /// A case's failure at the line that expected otherwise; the notes say what was expected,
    /// what happened, and the transcript up to there.
    static func testFailed(_ message: String, at span: Span, expected: String, actual: String, transcript: [TranscriptEvent]) -> Diagnostic {
        var notes = [Note("expected: \(expected)"), Note("actual: \(actual)")]
        let shown = transcript.suffix(ScenarioRunner.transcriptLimit)
        notes.append(
            Note(
                transcript.isEmpty
                    ? "transcript so far: nothing yet"
                    : "transcript so far:"
                        + (transcript.count > shown.count ? " (the last \(shown.count) of \(transcript.count) events)" : "")))
        notes += shown.map { Note("  " + $0.text) }
        return Diagnostic(.testFailed, message, at: span, notes: notes)
    }

    public static func uncoveredAnswer(_ option: String, of question: String, at span: Span) -> Diagnostic {
        Diagnostic(.uncovered, "no passing case answers '\(option)' to '\(question)'", at: span)
    }

    public static func uncoveredHabit(_ id: String, at span: Span) -> Diagnostic {
        Diagnostic(.uncovered, "no passing case reaches habit '\(id)'", at: span)
    }
}

extension Diagnostic {
    static func unknownTestOption(_ text: String, known: [String], at span: Span) -> Diagnostic {
        Diagnostic(
            .unknownTestNode, "no question of the routine has an option '\(text)'", at: span,
            notes: closestMatch(to: text.lowercased(), among: known).map { [Note("did you mean '\($0)'?")] } ?? [])
    }
}
