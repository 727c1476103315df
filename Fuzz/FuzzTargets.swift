// libFuzzer entry point for RoutineKit, compiled into the library's own module by
// scripts/fuzz.sh (so it reaches internal API without a second build of the package).
// ROUTINE_FUZZ_TARGET chooses the target:
//   dsl        parse and validate .rt input, then render every diagnostic
//   yaml       load and validate YAML input, then render every diagnostic
//   roundtrip  a valid .rt input printed and parsed again must mean the same, and so must
//              its YAML form; the printer must be idempotent
// Any failed check traps, which libFuzzer reports as a crash with the input saved.

#if canImport(Glibc)
import Glibc
#endif

private enum FuzzTarget {
    case dsl, yaml, roundTrip

    static let chosen: FuzzTarget = {
        switch getenv("ROUTINE_FUZZ_TARGET").map({ String(cString: $0) }) {
        case "yaml": .yaml
        case "roundtrip": .roundTrip
        default: .dsl
        }
    }()
}

private func exercise(_ loaded: LoadedRoutine) {
    for style in DiagnosticRenderer.Style.allCases {
        _ = DiagnosticRenderer(style: style, colors: true).render(loaded.diagnostics, in: loaded.file)
    }
    let table = LineTable(loaded.file)
    for diagnostic in loaded.diagnostics.prefix(50) { _ = diagnostic.json(in: loaded.file, table: table).text }
    guard !loaded.hasErrors else { return }
    // A valid routine must also draw, count and run without trouble.
    _ = DOTWriter.writeBytes(GraphView(loaded.routine, showProblems: false))
    _ = MermaidWriter.write(GraphView(loaded.routine, showProblems: false))
    let explorer = PathExplorer(loaded.routine)
    _ = try? explorer.summarize()
    var listed = 0
    try? explorer.forEachPath { _ in
        listed += 1
        return listed < 100
    }
    var run = RoutineRun(routine: loaded.routine, date: CalendarDate(year: 2026, month: 11, day: 23))
    var steps = 0
    while let node = run.current, steps < 10_000 {
        run.decide(loaded.routine.nodes[node].isQuestion ? .option(steps % loaded.routine.nodes[node].options.count) : .skip)
        if steps % 7 == 3 { run.back() }
        steps += 1
    }
}

private func roundTrip(_ loaded: LoadedRoutine) {
    guard !loaded.hasErrors, loaded.format == .rt else { return }
    let layout = SourceLayout(file: loaded.file, comments: loaded.comments)
    let formatted = RoutinePrinter.print(loaded.routine, layout: layout)
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

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let file = SourceFile(name: "fuzz", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    switch FuzzTarget.chosen {
    case .dsl: exercise(RoutineLoader.load(file, format: .rt))
    case .yaml: exercise(RoutineLoader.load(file, format: .yaml))
    case .roundTrip: roundTrip(RoutineLoader.load(file, format: .rt))
    }
    return 0
}
