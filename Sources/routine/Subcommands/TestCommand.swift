import ArgumentParser
import RoutineKit

struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run the cases of routine test files (NAME.rt.test) and report what no case covers.",
        discussion: """
            Without files, finds every *.rt.test under the current folder; a folder argument is searched the same \
            way. Each case runs with the run engine on its own day, in a history of its own (never yours). \
            Exit 0 when every case passes, 1 when one fails (or, with --coverage --strict, something is not \
            covered), 65 when a test file does not parse or names what its routine lacks, 66 when one cannot be read. \
            --record writes a case from a scripted run: routine test --record morning.rt.test --answers answers.txt.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case rich, short, json, junit
    }

    @Argument(
        help: "Test files or folders; default: the current folder. With --record: the routine, when the test file's name does not say it.",
        completion: .file())
    var files: [String] = []

    @Option(help: "rich, short (one line per diagnostic), json (one object per case) or junit (JUnit XML).")
    var format: Format = .rich

    @Flag(help: "List every answer and habit that no passing case reaches, and the share covered.")
    var coverage = false

    @Flag(help: "With --coverage: anything not covered fails.")
    var strict = false

    @Option(help: "Write a case from a scripted run to this test file (added to it when it exists).", completion: .file(extensions: ["test"]))
    var record: String?

    @Option(help: "With --record: the answers, one per line.", completion: .file())
    var answers: String?

    @Option(help: "With --record: the run's date (YYYY-MM-DD); default: today.")
    var date: String?

    @Option(help: "With --record: the case's name; default: 'recorded DATE'.")
    var name: String?

    @OptionGroup var input: InputOptions

    func validate() throws {
        if strict, !coverage { throw ValidationError("--strict goes with --coverage") }
        if record == nil, answers != nil || date != nil || name != nil {
            throw ValidationError("--answers, --date and --name go with --record FILE")
        }
        if record != nil {
            if answers == nil { throw ValidationError("--record needs the answers of the run to record: --answers FILE") }
            if coverage { throw ValidationError("--record and --coverage do not go together") }
            if files.count > 1 { throw ValidationError("--record takes at most one routine file") }
        }
        if let date, CalendarDate(date) == nil {
            throw ValidationError("'\(date)' is not a date: use YYYY-MM-DD, such as 2026-11-23")
        }
    }

    func run() throws {
        ignoreBrokenPipes()
        if let record {
            return try TestRecording(testFile: record, routine: files.first, answers: answers!, date: date, name: name, input: input).write()
        }
        var session = TestSession(format: format, coverage: coverage, strict: strict, input: input)
        let paths = files.isEmpty ? ["."] : files
        try session.run(paths)
    }
}
