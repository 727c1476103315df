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
        // JSON is streamed, one object at a time, and each file is let go once it is
        // reported: memory stays that of the largest file, however many are checked.
        var out = BufferedOutput(fd: 1)
        var firstObject = true
        func emit(_ object: JSONValue) {
            out.write(firstObject ? "[" : ",")
            firstObject = false
            out.writeBare(object)
        }
        let renderer = DiagnosticRenderer(style: format == .short ? .short : .rich, colors: input.colorsOnStandardError)
        for path in files {
            let loaded: LoadedRoutine
            switch input.read(path) {
            case .success(let read): loaded = read
            case .failure(let diagnostic):
                unreadable = true
                OutputFailure.resultSoFar = Exit.unreadable.rawValue
                if format == .json {
                    // JSON says everything, an unreadable file included, under that file's name.
                    let file = SourceFile(name: path, bytes: [])
                    var table = LineTable(file)
                    emit(diagnostic.json(in: file, table: &table))
                } else {
                    report(diagnostic, colors: input.colorsOnStandardError)
                }
                continue
            }
            if loaded.hasErrors || (strict && !loaded.diagnostics.isEmpty) {
                failed = true
                if !unreadable { OutputFailure.resultSoFar = Exit.errors.rawValue }
            }
            guard !loaded.diagnostics.isEmpty else { continue }
            if format == .json {
                var table = LineTable(loaded.file)
                for diagnostic in loaded.diagnostics { emit(diagnostic.json(in: loaded.file, table: &table)) }
            } else {
                StandardError.write(renderer.render(loaded.diagnostics, in: loaded.file))
                if format == .rich { StandardError.write(Summary.line(loaded.diagnostics, file: loaded.file.name) + "\n") }
            }
        }
        if format == .json {
            out.write(firstObject ? "[]\n" : "]\n")
            out.flush()
        }
        if unreadable { throw Exit.unreadable }
        if failed { throw Exit.errors }
    }
}
