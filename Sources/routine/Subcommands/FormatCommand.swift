import ArgumentParser
import RoutineKit

struct FormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fmt",
        abstract: "Print .rt files in their canonical layout, keeping every comment.",
        discussion: """
            Without flags, prints the formatted file. --write rewrites files in place, atomically (a temporary \
            file in the same folder, then a rename); --check lists the files that would change and exits 1. \
            A file with errors is never rewritten.
            """
    )

    @Argument(help: ".rt files; '-' reads standard input.", completion: .file(extensions: ["rt"]))
    var files: [String]

    @Flag(help: "Exit 1 and list the files whose layout is not canonical; change nothing.")
    var check = false

    @Flag(help: "Rewrite the files in place.")
    var write = false

    @OptionGroup var input: RTInputOptions

    func validate() throws {
        if check && write { throw ValidationError("--check and --write cannot be used together") }
        if write && files.contains("-") { throw ValidationError("--write cannot rewrite standard input") }
    }

    func run() throws {
        ignoreBrokenPipes()
        var failed = false
        var unreadable = false
        var unwritten = false
        var changed: [String] = []
        for path in files {
            let loaded: LoadedRoutine
            // Taken before the read, so that any edit saved after it makes the rewrite refuse.
            let identity = write ? FileIdentity.of(path) : nil
            // Refused before the read: reading a FIFO would wait for a writer that may never come.
            if write, let reason = AtomicFile.refusalToRewrite(path) {
                report(.unwritable(path, reason: reason), colors: input.colorsOnStandardError)
                unwritten = true
                continue
            }
            do {
                loaded = try input.loadValid(path)
            } catch let exit as ExitCode {
                if exit == Exit.unreadable { unreadable = true } else { failed = true }
                continue
            }
            guard loaded.format == .rt else {
                StandardError.write(
                    visible: "routine: error: '\(path)' is YAML; fmt formats .rt files (convert it with 'routine convert \(path) --to rt')\n")
                failed = true
                continue
            }
            let formatted = RoutinePrinter.print(loaded.routine, layout: SourceLayout(file: loaded.file, comments: loaded.comments))
            // A formatter must never change what a routine means: check before anything is written.
            let reparsed = RoutineLoader.load(SourceFile(name: path, text: formatted), format: .rt)
            guard !reparsed.hasErrors, reparsed.routine.isEquivalent(to: loaded.routine),
                reparsed.comments.count == loaded.comments.count
            else {
                StandardError.write(visible: "routine: internal error: formatting '\(path)' would change its meaning; the file was left alone\n")
                failed = true
                continue
            }
            let isChanged = Array(formatted.utf8) != loaded.file.bytes
            if check {
                if isChanged { changed.append(path) }
            } else if write {
                guard isChanged else { continue }
                if case .failure(let diagnostic) = AtomicFile.write(Array(formatted.utf8), to: path, purpose: .rewrite(expecting: identity)) {
                    report(diagnostic, colors: input.colorsOnStandardError)
                    unwritten = true
                }
            } else {
                StandardOutput.write(formatted)
            }
        }
        for path in changed { StandardOutput.write(Sanitizer.visible(path) + "\n") }
        if unreadable { throw Exit.unreadable }
        if unwritten { throw Exit.outputFailed }
        if failed || !changed.isEmpty { throw Exit.errors }
    }
}
