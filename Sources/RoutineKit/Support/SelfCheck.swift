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

    /// What ``halves(_:split:)`` found.
    struct HalvesReport {
        /// The first event, or the error, that differs from one parse of the whole.
        var difference: String?
        /// Whether the halves joined, or the whole was read again.
        var joined = false
        var events = 0
        var endedInError = false
    }

    /// YAML read through the pipe (``YAMLEventPipe``), in two halves split at `split` when it
    /// is given, against one parse of the whole: every event and the error.
    static func halves(_ bytes: UnsafeBufferPointer<UInt8>, split: YAMLSplit?) -> HalvesReport {
        let direct = YAMLEventSource(bytes)
        var reader = YAMLEventReader(bytes, piped: true, split: split)
        var whole = YAMLEvent(kind: .streamStart, span: Span(at: 0))
        var halves = whole
        var report = HalvesReport()
        while true {
            let readWhole = direct.read(into: &whole)
            let readHalves = reader.read(into: &halves)
            guard readWhole == readHalves else {
                report.difference = "event \(report.events): read \(readWhole) whole, \(readHalves) through the pipe"
                return report
            }
            guard readWhole else {
                let (a, b) = (direct.syntaxError(), reader.syntaxError())
                if a != b { report.difference = "the errors differ: \(a.message) and \(b.message)" }
                report.endedInError = true
                report.joined = reader.parsedInHalves == true
                return report
            }
            let same =
                whole.kind == halves.kind && whole.span == halves.span && whole.hasAnchor == halves.hasAnchor
                && (whole.kind != .scalar || (whole.isPlain == halves.isPlain && whole.bytes.elementsEqual(halves.bytes)))
                && whole.tag.map { String(cString: $0) } == halves.tag.map { String(cString: $0) }
            guard same else {
                report.difference = "event \(report.events): \(whole.kind) at \(whole.span) whole, \(halves.kind) at \(halves.span) through the pipe"
                return report
            }
            report.events += 1
            if whole.kind == .streamEnd {
                // Past the end, both repeat it.
                _ = reader.read(into: &halves)
                if halves.kind != .streamEnd || halves.span != whole.span { report.difference = "past the end, \(halves.kind) at \(halves.span)" }
                report.joined = reader.parsedInHalves == true
                return report
            }
        }
    }

    /// YAML input read in two halves at its first, middle and last item lines gives the events
    /// of one parse of the whole.
    static func halves(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            let splits = YAMLSplit.candidates(in: buffer)
            guard !splits.isEmpty else { return }
            for split in Set([0, splits.count / 2, splits.count - 1].map { splits[$0] }) {
                let difference = halves(buffer, split: split).difference
                precondition(difference == nil, "split at \(split.offset): \(difference ?? "")")
            }
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
