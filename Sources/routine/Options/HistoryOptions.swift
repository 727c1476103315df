import ArgumentParser
import RoutineHistory
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// `--history FILE`, shared by every command that reads or writes the run history.
struct HistoryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The history file (SQLite). Default: $ROUTINE_HISTORY, else $XDG_DATA_HOME/routine/history.sqlite, else ~/.local/share/routine/history.sqlite.",
            valueName: "file"),
        completion: .file(extensions: ["sqlite", "db"]))
    var history: String?

    func validate() throws {
        if history == "" { throw ValidationError("--history needs a file name; '' names none") }
    }
}

/// `--history FILE` read apart from ArgumentParser (``QuickCommandLine``), which never gives
/// an empty name.
struct NamedHistory: HistoryChoice {
    var history: String?
}

/// The history a command names (nil: the default), and how the command opens it.
protocol HistoryChoice {
    var history: String? { get }
}

extension HistoryOptions: HistoryChoice {}

extension HistoryChoice {
    /// The history file a command that inspects it names: it must exist (exit 66 otherwise).
    func existingPath() throws -> String {
        guard case .file(let path)? = HistoryLocation.resolve(flag: history, disabled: false) else {
            report(
                .unreadableHistory("", reason: "no history is named: HOME is not set and neither --history nor ROUTINE_HISTORY is given"),
                colors: Terminal.wantsColor(.auto, fd: 2))
            throw Exit.unreadable
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            report(.unreadableHistory(path, reason: InputReader.describe(errno)), colors: Terminal.wantsColor(.auto, fd: 2))
            throw Exit.unreadable
        }
        return path
    }

    /// The history for a command that only reads it: nil when there is none yet (or history is
    /// off). A file that is not a routine history is refused with exit 74. A member of a sync
    /// folder is synced first, through a writer of its own.
    func openForReading() throws -> HistoryStore? {
        guard let location = HistoryLocation.resolve(flag: history, disabled: false) else { return nil }
        guard case .file(let path) = location else { return nil }
        return try reading { try HistoryStore.open(path, create: false, readOnly: true, syncingThroughAWriter: true) }
    }

    /// Runs `body`, which reads the history; a failure is reported as a reader's diagnostic
    /// and ends the command: 74 for a refused or damaged file, 66 for one that cannot be read.
    func reading<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as HistoryError {
            report(error.readingDiagnostic, colors: Terminal.wantsColor(.auto, fd: 2))
            if case .unavailable = error { throw Exit.unreadable }
            throw Exit.historyRefused
        }
    }

    /// The history a command writes to, created when missing. A refused file stops the command
    /// (exit 74); one that cannot be written is handed to `unavailable` (nil: no place for one,
    /// as without HOME) and the result is nil.
    func openForWriting(disabled: Bool, unavailable: (HistoryError?) -> Void) throws -> HistoryStore? {
        guard let location = HistoryLocation.resolve(flag: history, disabled: disabled) else {
            unavailable(nil)
            return nil
        }
        guard case .file(let path) = location else { return nil }
        do {
            return try HistoryStore.open(path, create: true)
        } catch {
            if error.isRefusal {
                report(error.diagnostic, colors: Terminal.wantsColor(.auto, fd: 2))
                throw Exit.historyRefused
            }
            unavailable(error)
            return nil
        }
    }
}
