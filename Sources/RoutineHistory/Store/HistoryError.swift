import RoutineKit

/// Why a history cannot be used.
public enum HistoryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file exists but is not a routine history: nothing is written to it.
    case notAHistory(path: String, reason: String)
    /// The file was written by a newer `routine`, whose schema this one does not know.
    case newerSchema(path: String)
    /// The history cannot be opened or written (a read-only folder, a full disk).
    case unavailable(path: String, reason: String)
    /// The file is a history whose pages SQLite finds malformed: nothing is written to it.
    case damaged(path: String, reason: String)
    /// An import file has a line that is not a run as `history export` writes it.
    case badImport(line: Int, reason: String)

    public var description: String { diagnostic.message }

    /// The error as the diagnostic a run reports (a damaged or unwritable history is a
    /// warning: the run goes on unrecorded).
    public var diagnostic: Diagnostic {
        switch self {
        case .notAHistory(let path, let reason): .notAHistory(path, reason: reason)
        case .newerSchema(let path): .newerHistory(path)
        case .unavailable(let path, let reason): .runNotRecorded(path, reason: reason)
        case .damaged(let path, let reason): .runNotRecordedInDamagedHistory(path, reason: reason)
        case .badImport(let line, let reason): .invalidImport("import", line: line, reason: reason)
        }
    }

    /// The error as the diagnostic a command that reads the history reports.
    public var readingDiagnostic: Diagnostic {
        switch self {
        case .unavailable(let path, let reason): .unreadableHistory(path, reason: reason)
        case .damaged(let path, let reason): .damagedHistory(path, reason: reason)
        default: diagnostic
        }
    }

    /// The same error about the file shown as `path` (a working copy's error names the original).
    func renamed(to path: String) -> HistoryError {
        switch self {
        case .notAHistory(_, let reason): .notAHistory(path: path, reason: reason)
        case .newerSchema: .newerSchema(path: path)
        case .unavailable(_, let reason): .unavailable(path: path, reason: reason)
        case .damaged(_, let reason): .damaged(path: path, reason: reason)
        case .badImport: self
        }
    }

    /// Whether the file itself is refused (as opposed to a passing failure to write it).
    public var isRefusal: Bool {
        switch self {
        case .notAHistory, .newerSchema, .badImport: true
        case .unavailable, .damaged: false
        }
    }
}
