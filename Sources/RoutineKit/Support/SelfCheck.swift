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
