import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// The exit codes every subcommand shares: the one place they are written. The root command's
/// help is made from ``documented``, and a test checks the table in docs/limits.md against that help.
enum Exit {
    static let errors = ExitCode(1)
    static let answersRanOut = ExitCode(3)
    /// EX_USAGE, which swift-argument-parser also gives for the errors it finds.
    static let usage = ExitCode(64)
    /// EX_DATAERR: a test file does not parse or does not match its routine.
    static let testFileRefused = ExitCode(65)
    static let unreadable = ExitCode(66)
    /// EX_UNAVAILABLE: a program the output needs (Graphviz's dot, notify-send) is missing.
    static let programMissing = ExitCode(69)
    /// EX_IOERR: the history file is not a routine history, is of a newer version or is
    /// damaged, or an import cannot write it.
    static let historyRefused = ExitCode(74)
    /// An output (standard output or a file) could not be written.
    static let outputFailed = ExitCode(74)
    static let interrupted = signalled(by: SIGINT)

    /// 128 plus the signal's number, as a shell reports a process the signal ended.
    static func signalled(by signal: Int32) -> ExitCode { ExitCode(128 + signal) }

    /// Each code with what it means, in the order the help lists them.
    static let documented: [(code: ExitCode, meaning: String)] = [
        (.success, "fine (warnings allowed)"),
        (
            errors,
            "the routine has errors (or warnings, with --strict), a test case failed, 'done' or 'amend' refused, "
                + "'today --check' with something due not done, a 'history import' file has a bad line, or 'lsp' ended without 'shutdown'"
        ),
        (answersRanOut, "scripted answers ran out (run)"),
        (usage, "usage error (a date outside 1900 to 2199 among them)"),
        (testFileRefused, "a test file does not parse"),
        (unreadable, "an input cannot be read (a read-only history with changes not yet applied among them)"),
        (programMissing, "a program the output needs is missing (Graphviz's dot, notify-send)"),
        (
            outputFailed,
            "an output cannot be written (standard output, an output file, the history) or "
                + "the history file is not a routine history, is of a newer version, or is damaged"
        ),
        (
            interrupted,
            "interrupted (\(signalled(by: SIGTERM).rawValue) on SIGTERM, \(signalled(by: SIGHUP).rawValue) on SIGHUP or a closed terminal)"
        ),
    ]

    /// The paragraph of the root command's help that lists the exit codes.
    static var help: String {
        "Exit codes: " + documented.map { "\($0.code.rawValue) \($0.meaning)" }.joined(separator: "; ") + "."
    }
}
