import ArgumentParser
import RoutineKit

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate routine files and report every problem found.",
        discussion: "Prints nothing for a clean file. Exit 0 when no file has errors, 1 when one has, 66 when one cannot be read."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case rich, short, json
    }

    @Argument(help: "Routine files (.rt, .yaml, .yml); '-' reads standard input.", completion: .routineFiles)
    var files: [String]

    @Option(help: "rich (source and underline), short (one line each) or json (an array on stdout).")
    var format: Format = .rich

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @OptionGroup var input: InputOptions

    func run() throws {
        ignoreBrokenPipes()
        var unreadable = false
        var failed = false
        var json: [JSONValue] = []
        let renderer = DiagnosticRenderer(style: format == .short ? .short : .rich, colors: input.colorsOnStandardError)
        for path in files {
            let loaded: LoadedRoutine
            switch input.read(path) {
            case .success(let read): loaded = read
            case .failure(let diagnostic):
                unreadable = true
                if format == .json {
                    // JSON says everything, an unreadable file included, under that file's name.
                    let file = SourceFile(name: path, bytes: [])
                    json.append(diagnostic.json(in: file, table: LineTable(file)))
                } else {
                    report(diagnostic, colors: input.colorsOnStandardError)
                }
                continue
            }
            if loaded.hasErrors || (strict && !loaded.diagnostics.isEmpty) { failed = true }
            guard !loaded.diagnostics.isEmpty else { continue }
            if format == .json {
                let table = LineTable(loaded.file)
                json += loaded.diagnostics.map { $0.json(in: loaded.file, table: table) }
            } else {
                StandardError.write(renderer.render(loaded.diagnostics, in: loaded.file))
                if format == .rich { StandardError.write(Summary.line(loaded.diagnostics, file: loaded.file.name) + "\n") }
            }
        }
        if format == .json { StandardOutput.write(JSONValue.array(json).text + "\n") }
        if unreadable { throw Exit.unreadable }
        if failed { throw Exit.errors }
    }
}
