import ArgumentParser
import RoutineHistory
import RoutineKit

/// `--history FILE`, shared by every command that reads or writes the run history.
struct HistoryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The history file (SQLite). Default: $ROUTINE_HISTORY, else $XDG_DATA_HOME/routine/history.sqlite, else ~/.local/share/routine/history.sqlite.",
            valueName: "file"),
        completion: .file(extensions: ["sqlite", "db"]))
    var history: String?

    /// The history for a command that only reads it: nil when there is none yet (or history is
    /// off). A file that is not a routine history is refused with exit 74.
    func openForReading() throws -> HistoryStore? {
        guard let location = HistoryLocation.resolve(flag: history, disabled: false) else { return nil }
        guard case .file(let path) = location else { return nil }
        do {
            return try HistoryStore.open(path, create: false, readOnly: true)
        } catch {
            report(error.isRefusal ? error.diagnostic : .unreadableHistory(path, reason: reason(error)), colors: Terminal.wantsColor(.auto, fd: 2))
            throw error.isRefusal ? Exit.historyRefused : Exit.unreadable
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

    private func reason(_ error: HistoryError) -> String {
        if case .unavailable(_, let reason) = error { return reason }
        return error.description
    }
}
