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
        discussion: Exit.help + " Shell completions: routine --generate-completion-script bash|zsh|fish.",
        version: "0.1.0",
        // As the manual (docs/) groups them: the commands on a routine file, those between runs, sync.
        subcommands: [
            CheckCommand.self, RunCommand.self, LogCommand.self, StatsCommand.self, OffCommand.self, HistoryCommand.self, AmendCommand.self,
            GraphCommand.self, PathsCommand.self, ConvertCommand.self, FormatCommand.self, TestCommand.self, LSPCommand.self, StudioCommand.self,
        ],
        groupedSubcommands: [
            CommandGroup(name: "Between runs", subcommands: [DoneCommand.self, TodayCommand.self, RemindCommand.self]),
            CommandGroup(name: "Sync", subcommands: [SyncCommand.self]),
        ]
    )
}

extension RoutineCommand {
    /// Runs the command line; a first word that is close to a subcommand's name (`chek`) is
    /// answered with that name rather than with "unexpected arguments".
    static func main() {
        HistoryStore.syncWarning = { report($0, colors: Terminal.wantsColor(.auto, fd: 2)) }
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch QuickCommandLine.read(arguments) {
        case .version?:
            StandardOutput.write((configuration.version) + "\n")
            return
        // As ArgumentParser's own main runs a command it has read.
        case .check(let command)?:
            do { try command.run() } catch { exit(withError: error) }
            return
        case .today(let today)?:
            do { try today.run() } catch { exit(withError: error) }
            return
        case nil: break
        }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        if let first = arguments.first, !first.hasPrefix("-"), !names.contains(first) {
            var message = "Error: '\(first)' is not a routine command"
            if let close = closestMatch(to: first, among: names) { message += "; did you mean '\(close)'?" }
            StandardError.write(message + "\nUsage: \(usageString(for: Self.self))\n  See 'routine --help' for the commands.\n")
            Glibc.exit(Exit.usage.rawValue)
        }
        main(arguments)
    }
}
