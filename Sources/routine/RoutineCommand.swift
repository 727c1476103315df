import ArgumentParser
import RoutineKit

@main
struct RoutineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routine",
        abstract: "Check, run and draw daily routines written as files.",
        discussion: """
            Exit codes: 0 fine (warnings allowed), 1 the routine has errors, 3 scripted answers ran out, \
            64 usage error, 66 an input cannot be read, 130 interrupted.
            """,
        subcommands: [CheckCommand.self, RunCommand.self, GraphCommand.self, PathsCommand.self, ConvertCommand.self, FormatCommand.self]
    )
}

/// The exit codes every subcommand shares, as documented in the README.
enum Exit {
    static let errors = ExitCode(1)
    static let answersRanOut = ExitCode(3)
    static let unreadable = ExitCode(66)
    static let interrupted = ExitCode(130)
}
