import RoutineKit

/// Why a history cannot be used.
public enum HistoryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file exists but is not a routine history: nothing is written to it.
    case notAHistory(path: String, reason: String)
    /// The file was written by a newer `routine`, whose schema this one does not know.
    case newerSchema(path: String)
    /// The history cannot be opened or written (a read-only folder, a full disk).
    case unavailable(path: String, reason: String)
    /// An import file has a line that is not a run as `history export` writes it.
    case badImport(line: Int, reason: String)

    public var description: String { diagnostic.message }

    /// The error as the diagnostic a command reports.
    public var diagnostic: Diagnostic {
        switch self {
        case .notAHistory(let path, let reason): .notAHistory(path, reason: reason)
        case .newerSchema(let path): .newerHistory(path)
        case .unavailable(let path, let reason): .runNotRecorded(path, reason: reason)
        case .badImport(let line, let reason): .invalidImport("import", line: line, reason: reason)
        }
    }

    /// Whether the file itself is refused (as opposed to a passing failure to write it).
    public var isRefusal: Bool {
        switch self {
        case .notAHistory, .newerSchema, .badImport: true
        case .unavailable: false
        }
    }
}
