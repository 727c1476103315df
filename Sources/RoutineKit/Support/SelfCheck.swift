/// The checks the fuzz targets run on every input, kept in the library so that a test can
/// replay every input the fuzzers ever found (Tests/RoutineKitTests/Fixtures/fuzz/) through
/// exactly the same code. A failed check traps: that is what the fuzzer reports.
enum SelfCheck {
    /// Renders every diagnostic; for a valid routine, draws it, explores its ways and walks a
    /// run through it with skips, answers and backs.
    static func exercise(_ loaded: LoadedRoutine) {
        for style in DiagnosticRenderer.Style.allCases {
            _ = DiagnosticRenderer(style: style, colors: true).render(loaded.diagnostics, in: loaded.file)
        }
        var table = LineTable(loaded.file)
        for diagnostic in loaded.diagnostics.prefix(50) { _ = diagnostic.json(in: loaded.file, table: &table).text }
        guard !loaded.hasErrors else { return }
        _ = DOTWriter.writeBytes(GraphView(loaded.routine, showProblems: false))
        _ = MermaidWriter.write(GraphView(loaded.routine, showProblems: false))
        let explorer = PathExplorer(loaded.routine)
        _ = try? explorer.summarize()
        var listed = 0
        try? explorer.forEachPath { _ in
            listed += 1
            return listed < 100
        }
        let date = CalendarDate(year: 2026, month: 11, day: 23)
        var run = RoutineRun(routine: loaded.routine, date: date)
        var kept: [RunDecision] = []
        var steps = 0
        while let node = run.current, steps < 10_000 {
            let options = loaded.routine.optionCount(of: node)
            let decision: RunDecision = options > 0 ? .option(steps % options) : .skip
            run.decide(decision)
            kept.append(decision)
            if steps % 7 == 3 {
                run.back()
                kept.removeLast()
                // Going back undoes the journal; replaying the kept decisions must agree (checked
                // early in the run only, where a replay is cheap).
                guard steps < 700 else {
                    steps += 1
                    continue
                }
                var replay = RoutineRun(routine: loaded.routine, date: date)
                for decision in kept { replay.decide(decision) }
                precondition(replay.records == run.records && replay.current == run.current, "back differs from a replay")
            }
            steps += 1
        }
    }

    /// What a read through the pipe found.
    struct PipeReport {
        /// The first event, or the error, that differs from one parse on the calling thread.
        var difference: String?
        var events = 0
        var endedInError = false
    }

    /// YAML read through the pipe (``YAMLEventPipe``) against one parse on the calling thread:
    /// every event and the error.
    static func pipe(_ bytes: UnsafeBufferPointer<UInt8>) -> PipeReport {
        let direct = YAMLEventSource(bytes)
        var reader = YAMLEventReader(bytes, piped: true)
        var whole = YAMLEvent(kind: .streamStart, span: Span(at: 0))
        var piped = whole
        var report = PipeReport()
        while true {
            let readWhole = direct.read(into: &whole)
            let readPiped = reader.read(into: &piped)
            guard readWhole == readPiped else {
                report.difference = "event \(report.events): read \(readWhole) whole, \(readPiped) through the pipe"
                return report
            }
            guard readWhole else {
                let (a, b) = (direct.syntaxError(), reader.syntaxError())
                if a != b { report.difference = "the errors differ: \(a.message) and \(b.message)" }
                report.endedInError = true
                return report
            }
            let same =
                whole.kind == piped.kind && whole.span == piped.span && whole.hasAnchor == piped.hasAnchor
                && (whole.kind != .scalar || (whole.isPlain == piped.isPlain && whole.bytes.elementsEqual(piped.bytes)))
                && whole.tag.map { String(cString: $0) } == piped.tag.map { String(cString: $0) }
            guard same else {
                report.difference = "event \(report.events): \(whole.kind) at \(whole.span) whole, \(piped.kind) at \(piped.span) through the pipe"
                return report
            }
            report.events += 1
            if whole.kind == .streamEnd {
                // Past the end, both repeat it.
                _ = reader.read(into: &piped)
                if piped.kind != .streamEnd || piped.span != whole.span { report.difference = "past the end, \(piped.kind) at \(piped.span)" }
                return report
            }
        }
    }

    /// YAML input read through the pipe gives the events of a parse on the calling thread.
    static func pipe(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            let difference = pipe(buffer).difference
            precondition(difference == nil, "through the pipe: \(difference ?? "")")
        }
    }

    /// A valid `.rt` routine, formatted and parsed again, means the same, keeps every comment,
    /// formats to the same text again, and survives YAML and back.
    static func roundTrip(_ loaded: LoadedRoutine) {
        guard !loaded.hasErrors, loaded.format == .rt else { return }
        let formatted = RoutinePrinter.print(loaded.routine, layout: SourceLayout(file: loaded.file, comments: loaded.comments))
        let again = RoutineLoader.load(SourceFile(name: "formatted.rt", text: formatted), format: .rt)
        precondition(!again.hasErrors, "formatted output has errors:\n\(formatted)")
        precondition(again.routine.isEquivalent(to: loaded.routine), "formatting changed the routine:\n\(formatted)")
        precondition(again.comments.count == loaded.comments.count, "formatting lost a comment:\n\(formatted)")
        let twice = RoutinePrinter.print(again.routine, layout: SourceLayout(file: again.file, comments: again.comments))
        precondition(twice == formatted, "formatting is not idempotent:\n\(formatted)\n---\n\(twice)")
        let yaml = YAMLWriter.write(loaded.routine)
        let fromYAML = RoutineLoader.load(SourceFile(name: "converted.yaml", text: yaml), format: .yaml)
        precondition(!fromYAML.hasErrors, "converted YAML has errors:\n\(yaml)")
        precondition(fromYAML.routine.isEquivalent(to: loaded.routine), "YAML changed the routine:\n\(yaml)")
    }
}
