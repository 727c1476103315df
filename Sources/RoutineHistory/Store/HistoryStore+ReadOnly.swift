#if canImport(Glibc)
import Glibc
#endif

/// Histories opened without write access: a file this user cannot write, read as immutable, and
/// a file that may be damaged, read on a read-only connection. Neither writes to the file.
extension HistoryStore {
    /// A history this user cannot write, opened read-only as an immutable file: SQLite would
    /// otherwise need to create the WAL index beside it, and refuse. Changes still waiting in
    /// its WAL file would be missed that way, so such a file is refused with the reason.
    static func openUnwritable(_ path: String) throws(HistoryError) -> HistoryStore? {
        try refuseUnappliedChanges(path)
        var configuration = Configuration()
        configuration.readonly = true
        let location = "file:" + uriEscaped(path) + "?immutable=1"
        let store: HistoryStore
        do {
            store = HistoryStore(path: path, queue: try DatabaseQueue(path: location, configuration: configuration), location: location)
        } catch {
            throw classify(error, path: path)
        }
        // Nothing is migrated or marked: the readers use what every schema since the first has.
        // A file with no runs table yet (an empty file, one being created) has nothing to read.
        let state = try store.checkOwnership()
        let hasRuns = (try? store.queue.read { try $0.tableExists("run") }) ?? false
        store.flags.hasLogColumns = (try? store.queue.read { db in try db.columns(in: "run").contains { $0.name == "kind" } }) ?? false
        store.flags.hasAnswerAmendments =
            store.flags.hasLogColumns
            && ((try? store.queue.read { db in try db.columns(in: "amendment").contains { $0.name == "optionIndex" } }) ?? false)
        return state.isMarked && hasRuns ? store : nil
    }

    /// A read-only connection to a history that may be damaged: it never writes to the file,
    /// and never checkpoints a WAL into it. A file this user cannot write is read as immutable.
    static func openForInspection(_ path: String) throws(HistoryError) -> DatabaseQueue {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .unavailable(path: path, reason: systemError()) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notAHistory(path: path, reason: "it is not a regular file") }
        try checkMagic(path, size: Int(info.st_size))
        var configuration = Configuration()
        configuration.readonly = true
        let writable = isWritable(path)
        if !writable { try refuseUnappliedChanges(path) }
        if writable, hasHotJournal(path) {
            throw .unavailable(
                path: path,
                reason:
                    "a transaction was left unfinished in '\(path)-journal'; any command that reads it ('routine log') rolls that back first, then check again"
            )
        }
        let location = writable ? plainPath(path) : "file:" + uriEscaped(path) + "?immutable=1"
        do {
            return try DatabaseQueue(path: location, configuration: configuration)
        } catch {
            throw classify(error, path: path)
        }
    }

    /// An immutable file is read as it is, without its WAL or rollback journal: refused when
    /// either still holds something. A WAL may hold committed changes not yet applied; a hot
    /// rollback journal (left by a writer killed mid-transaction) means the file holds half a
    /// transaction, which must never be read.
    private static func refuseUnappliedChanges(_ path: String) throws(HistoryError) {
        var info = stat()
        if stat(path + "-wal", &info) == 0, info.st_size > 0 {
            throw .unavailable(
                path: path, reason: "it is read-only here and has changes not yet applied in '\(path)-wal'; open it once with write access")
        }
        if hasHotJournal(path) {
            throw .unavailable(
                path: path,
                reason:
                    "it is read-only here and a transaction was left unfinished in '\(path)-journal'; open it once with write access to roll it back")
        }
    }

    /// Whether `path-journal` begins with a rollback journal's header, as SQLite's hot journal does.
    static func hasHotJournal(_ path: String) -> Bool {
        let fd = Glibc.open(path + "-journal", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 8)
        let n = header.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 8) }
        return n == 8 && header == [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]
    }

    /// `path` for a `file:` URI: the characters a URI gives a meaning escaped.
    static func uriEscaped(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte < 0x21 || byte >= 0x7F {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count < 2 ? "0" : "") + hex
            } else {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return out
    }
}
