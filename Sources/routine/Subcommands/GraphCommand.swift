import ArgumentParser
import RoutineHistory
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw a routine as Graphviz DOT or a Mermaid flowchart.",
        discussion: """
            Examples: routine graph morning.rt | dot -Tsvg > morning.svg; routine graph morning.rt -o morning.svg. \
            An invalid routine is refused with its diagnostics (exit 1) unless --allow-invalid, which draws \
            its problems: missing targets as red dashed boxes, cycles in red, unreachable nodes in grey.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case dot, mermaid }

    @Argument(help: "The routine file (.rt, .yaml, .yml); '-' reads standard input.", completion: .routineFiles)
    var file: String

    @Option(help: "dot (default) or mermaid; by default taken from the -o extension.")
    var format: Format?

    @Option(
        name: .shortAndLong, parsing: .unconditional,
        help: "Write to this file: .dot, .gv or .mmd as text; .svg, .png or .pdf rendered by Graphviz's dot.",
        completion: .file(extensions: ["dot", "gv", "mmd", "svg", "png", "pdf"]))
    var output: String?

    @Option(help: "Layout direction: TB (top to bottom) or LR (left to right).")
    var rankdir: DOTWriter.Direction = .TB

    @Flag(help: "Draw an invalid routine with its problems marked instead of refusing it.")
    var allowInvalid = false

    @Flag(help: "Draw the history: habits filled by completion rate, answers labelled with how often they were chosen, nodes never reached faded.")
    var stats = false

    /// The window of --stats; default: the first recorded run up to today.
    @OptionGroup var range: DateRangeOptions

    @OptionGroup var history: HistoryOptions

    @OptionGroup var input: InputOptions

    private var rendered: String? {
        guard let output else { return nil }
        let ext = output.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return ["svg", "png", "pdf"].contains(ext) ? ext : nil
    }

    private var resolvedFormat: Format {
        if let format { return format }
        if let output, output.lowercased().hasSuffix(".mmd") { return .mermaid }
        return .dot
    }

    func validate() throws {
        if stats, allowInvalid { throw ValidationError("--stats draws the history of a valid routine; it cannot go with --allow-invalid") }
        if !stats, range.since != nil || range.until != nil { throw ValidationError("--since and --until choose the window of --stats") }
        guard let output else { return }
        let lower = output.lowercased()
        let known = [".dot", ".gv", ".mmd", ".svg", ".png", ".pdf"].contains { lower.hasSuffix($0) }
        if !known, format == nil {
            throw ValidationError("cannot tell the format of '\(output)': use .dot, .gv, .mmd, .svg, .png or .pdf, or --format")
        }
        if rendered != nil, format == .mermaid {
            throw ValidationError("'\(output)' is rendered by Graphviz, which draws DOT, not Mermaid")
        }
    }

    func run() throws {
        ignoreBrokenPipes()
        let loaded = allowInvalid ? try input.load(file) : try input.loadValid(file)
        if allowInvalid, !loaded.diagnostics.isEmpty {
            let renderer = DiagnosticRenderer(style: .short, colors: input.colorsOnStandardError)
            StandardError.write(renderer.render(loaded.diagnostics, in: loaded.file))
        }
        var view = GraphView(loaded.routine, showProblems: allowInvalid)
        if allowInvalid { view.markInvalidAttributes(loaded.diagnostics, in: loaded.file) }
        if stats { view.history = try history(of: loaded.routine) }
        // DOT is written from the writer's own buffer: a graph's text is the largest thing
        // the command holds, and a copy would cost another pass and a page fault per 4 KiB.
        // To standard output it goes in pieces as written, through one buffer written over.
        if resolvedFormat == .dot, output == nil {
            DOTWriter.write(view, direction: rankdir) { writeAll(1, $0) }
        } else if resolvedFormat == .dot {
            try DOTWriter.writeBytes(view, direction: rankdir).withBytes { try emit($0) }
        } else {
            try Array(MermaidWriter.write(view, direction: rankdir).utf8).withUnsafeBufferPointer { try emit($0) }
        }
    }

    /// The routine's recorded runs in the window, as the drawing shows them.
    private func history(of routine: Routine) throws -> GraphHistory {
        let (report, runs) = try history.statsReport(of: routine, in: range, file: file)
        return GraphHistory(report: report, runs: runs)
    }

    private func emit(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard let output else {
            writeAll(1, bytes)
            return
        }
        if let kind = rendered {
            try Graphviz.render(bytes, as: kind, to: output, colors: input.colorsOnStandardError)
            return
        }
        if case .failure(let diagnostic) = AtomicFile.write(bytes, to: output) {
            report(diagnostic, colors: input.colorsOnStandardError)
            throw Exit.outputFailed
        }
    }
}

func report(_ diagnostic: Diagnostic, colors: Bool) {
    let renderer = DiagnosticRenderer(style: .rich, colors: colors)
    StandardError.write(renderer.render([diagnostic], in: SourceFile(name: "routine", bytes: [])))
}
