import ArgumentParser
import RoutineHistory
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

@main
struct RoutineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routine",
        abstract: "Check, run and draw daily routines written as files.",
        discussion: """
            Exit codes: 0 fine (warnings allowed); 1 the routine has errors (or warnings, with --strict), \
            a test case failed, 'done' or 'amend' refused, 'today --check' with something due not done, \
            a 'history import' file has a bad line, or 'lsp' ended without 'shutdown'; 3 scripted answers ran \
            out (run); 64 usage error (a date outside 1900 to 2199 among them); 65 a test file does not parse; \
            66 an input cannot be read (a read-only history with changes not yet applied among them); \
            69 a program the output needs is missing (Graphviz's dot, notify-send); \
            74 an output cannot be written (standard output, an output file, the history) or \
            the history file is not a routine history, is of a newer version, or is damaged; 130 interrupted \
            (143 on SIGTERM, 129 on SIGHUP or a closed terminal). \
            Shell completions: routine --generate-completion-script bash|zsh|fish.
            """,
        version: "0.1.0",
        subcommands: [
            CheckCommand.self, RunCommand.self, GraphCommand.self, PathsCommand.self, ConvertCommand.self, FormatCommand.self,
            LogCommand.self, StatsCommand.self, OffCommand.self, HistoryCommand.self, LSPCommand.self, TestCommand.self,
            DoneCommand.self, TodayCommand.self, RemindCommand.self, AmendCommand.self, StudioCommand.self, SyncCommand.self,
        ]
    )
}

extension RoutineCommand {
    /// Runs the command line; a first word that is close to a subcommand's name (`chek`) is
    /// answered with that name rather than with "unexpected arguments".
    static func main() {
        HistoryStore.syncWarning = { report($0, colors: Terminal.wantsColor(.auto, fd: 2)) }
        let arguments = Array(CommandLine.arguments.dropFirst())
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        if let first = arguments.first, !first.hasPrefix("-"), !names.contains(first) {
            var message = "Error: '\(first)' is not a routine command"
            if let close = closestMatch(to: first, among: names) { message += "; did you mean '\(close)'?" }
            StandardError.write(message + "\nUsage: \(usageString(for: Self.self))\n  See 'routine --help' for the commands.\n")
            Glibc.exit(64)
        }
        main(arguments)
    }
}

/// The exit codes every subcommand shares, as documented in the README.
enum Exit {
    static let errors = ExitCode(1)
    static let answersRanOut = ExitCode(3)
    static let unreadable = ExitCode(66)
    /// EX_IOERR: the history file is not a routine history, is of a newer version or is
    /// damaged, or an import cannot write it.
    static let historyRefused = ExitCode(74)
    /// An output (standard output or a file) could not be written.
    static let outputFailed = ExitCode(74)
    static let interrupted = ExitCode(130)
}
