import ArgumentParser
import RoutineKit

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a routine between the .rt language and YAML, losslessly.",
        discussion: "Comments cannot be carried into YAML; converting a .rt file that has some says so on stderr."
    )

    enum Target: String, ExpressibleByArgument, CaseIterable { case yaml, rt }

    @Argument(help: "The routine file (.rt, .yaml, .yml); '-' reads standard input.", completion: .routineFiles)
    var file: String

    @Option(help: "The form to write: yaml or rt.")
    var to: Target

    @Option(
        name: .shortAndLong, parsing: .unconditional, help: "Write to this file (atomically) instead of standard output.",
        completion: .file(extensions: ["rt", "yaml", "yml"]))
    var output: String?

    @OptionGroup var input: InputOptions

    func run() throws {
        ignoreBrokenPipes()
        let loaded = try input.loadValid(file)
        let text: String
        switch to {
        case .yaml:
            text = YAMLWriter.write(loaded.routine)
            if !loaded.comments.isEmpty {
                let count = loaded.comments.count
                StandardError.write(
                    visible:
                        "routine: note: \(count) comment\(count == 1 ? "" : "s") in '\(loaded.file.name)' cannot be carried into YAML and \(count == 1 ? "was" : "were") left out\n"
                )
            }
        case .rt:
            let layout = loaded.format == .rt ? SourceLayout(file: loaded.file, comments: loaded.comments) : nil
            text = RoutinePrinter.print(loaded.routine, layout: layout)
        }
        guard let output else {
            StandardOutput.write(text)
            return
        }
        if case .failure(let diagnostic) = AtomicFile.write(Array(text.utf8), to: output) {
            report(diagnostic, colors: input.colorsOnStandardError)
            throw Exit.outputFailed
        }
    }
}
