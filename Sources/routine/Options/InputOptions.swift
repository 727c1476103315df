import ArgumentParser
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

extension SourceFormat: ExpressibleByArgument {}

extension CompletionKind {
    /// Routine files, as the shells complete them: `.rt`, `.yaml`, `.yml`.
    static var routineFiles: CompletionKind { .file(extensions: ["rt", "yaml", "yml"]) }
}
extension DOTWriter.Direction: ExpressibleByArgument {}

/// Options every subcommand that reads a routine shares.
struct InputOptions: ParsableArguments, RoutineInput {
    @Option(name: .customLong("input-format"), help: "The form of the input when its extension does not say (rt or yaml).")
    var inputFormat: SourceFormat?

    @Option(help: "When to colour diagnostics: auto, always or never.")
    var color: ColorChoice = .auto
}

/// The options of a subcommand that reads only `.rt` files (`fmt`): no input format to
/// choose, so none is offered.
struct RTInputOptions: ParsableArguments, RoutineInput {
    @Option(help: "When to colour diagnostics: auto, always or never.")
    var color: ColorChoice = .auto

    var inputFormat: SourceFormat? { nil }
}

/// ``InputOptions`` read apart from ArgumentParser (``QuickCommandLine``).
struct ChosenInput: RoutineInput {
    var inputFormat: SourceFormat?
    var color: ColorChoice
}

/// How a subcommand reads its routine: the form forced by an option, and the colours of its
/// diagnostics.
protocol RoutineInput {
    var inputFormat: SourceFormat? { get }
    var color: ColorChoice { get }
}

extension RoutineInput {
    /// Whether diagnostics on stderr get colour: only on a terminal, unless told otherwise.
    var colorsOnStandardError: Bool { Terminal.wantsColor(color, fd: 2) }

    /// Reads and validates `path`. Prints the diagnostics and exits when it has errors,
    /// so that a command only ever works on a valid routine.
    func loadValid(_ path: String, showWarnings: Bool = false) throws -> LoadedRoutine {
        let loaded = try load(path)
        if loaded.hasErrors || showWarnings, !loaded.diagnostics.isEmpty {
            let renderer = DiagnosticRenderer(style: .rich, colors: colorsOnStandardError)
            StandardError.write(renderer.render(loaded.diagnostics, in: loaded.file))
        }
        if loaded.hasErrors {
            StandardError.write(Summary.line(loaded.diagnostics, file: loaded.file.name) + "\n")
            throw Exit.errors
        }
        return loaded
    }

    /// Reads `path` and parses it; prints the diagnostic and exits 66 when it cannot be read.
    func load(_ path: String) throws -> LoadedRoutine {
        switch read(path) {
        case .success(let loaded): return loaded
        case .failure(let diagnostic):
            let renderer = DiagnosticRenderer(style: .rich, colors: colorsOnStandardError)
            StandardError.write(renderer.render([diagnostic], in: SourceFile(name: "routine", bytes: [])))
            throw Exit.unreadable
        }
    }

    /// Reads `path` and parses it, or says why it cannot be read (E001, E002).
    func read(_ path: String) -> Result<LoadedRoutine, Diagnostic> {
        let raw = RawArguments.bytes(of: path)
        return InputReader.read(path, bytes: raw).map { file in
            // A name that is not UTF-8 is shown with its bytes, as '\xFF'.
            let file = raw.map { SourceFile(name: Sanitizer.visible(bytes: $0.dropLast().map { UInt8(bitPattern: $0) }), bytes: file.bytes) } ?? file
            let loaded = RoutineLoader.load(file, format: path == "-" ? (inputFormat ?? .rt) : inputFormat)
            KeptUntilExit.keep(loaded)
            return loaded
        }
    }
}

enum Summary {
    /// "2 errors and 1 warning in 'bad.rt'" (notes counted after them).
    static func line(_ diagnostics: [Diagnostic], file: String) -> String {
        let errors = diagnostics.lazy.filter { $0.severity == .error }.reduce(0) { $0 + $1.count }
        let warnings = diagnostics.lazy.filter { $0.severity == .warning }.reduce(0) { $0 + $1.count }
        var parts: [String] = []
        if errors > 0 { parts.append(errors == 1 ? "1 error" : "\(errors) errors") }
        if warnings > 0 { parts.append(warnings == 1 ? "1 warning" : "\(warnings) warnings") }
        let notes = diagnostics.lazy.filter { $0.severity == .note }.reduce(0) { $0 + $1.count }
        if notes > 0 { parts.append(notes == 1 ? "1 note" : "\(notes) notes") }
        return parts.joined(separator: " and ") + " in '\(Sanitizer.visible(file))'"
    }
}

enum Terminal {
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) != 0 }

    /// NO_COLOR (non-empty) and TERM=dumb turn colour off in auto mode.
    static var environmentAllowsColor: Bool {
        if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return true
    }

    /// The width of the terminal on `fd`, else $COLUMNS, else 80.
    static func columns(fd: Int32) -> Int {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let text = getenv("COLUMNS"), let n = Int(String(cString: text)), n > 0 { return n }
        return 80
    }

    /// The height of the terminal on `fd`, else $LINES, else 24.
    static func rows(fd: Int32) -> Int {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        if let text = getenv("LINES"), let n = Int(String(cString: text)), n > 0 { return n }
        return 24
    }

    static func wantsColor(_ choice: ColorChoice, fd: Int32) -> Bool {
        switch choice {
        case .always: true
        case .never: false
        case .auto: isTerminal(fd) && environmentAllowsColor
        }
    }
}

/// Holds the last file loaded until the process exits. Freeing a graph of a million nodes,
/// piece by piece, just before exiting costs a tenth of a run; the system reclaims it all at
/// once. Only the last: `check` of forty large files lets each go once the next is read.
enum KeptUntilExit {
    nonisolated(unsafe) private static var kept: LoadedRoutine?

    static func keep(_ loaded: LoadedRoutine) { kept = loaded }
}

/// The command line as the kernel gave it, for file names that are not UTF-8: Swift decodes
/// each argument, replacing invalid bytes, so the decoded name would open another file.
enum RawArguments {
    /// The bytes (NUL-terminated) of the argument that decodes to `argument`, when it is not
    /// valid UTF-8; nil otherwise.
    static func bytes(of argument: String) -> [CChar]? {
        guard argument.unicodeScalars.contains("\u{FFFD}") else { return nil }
        for k in 0..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[k] else { continue }
            let raw = UnsafeBufferPointer(start: pointer, count: strlen(pointer))
            let decoded = String(decoding: UnsafeRawBufferPointer(raw).bindMemory(to: UInt8.self), as: UTF8.self)
            if decoded == argument, String(validatingCString: pointer) == nil { return Array(raw) + [0] }
        }
        return nil
    }
}
