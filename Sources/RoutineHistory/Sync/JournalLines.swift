import RoutineKit
import Synchronization

/// The whole lines of one journal file after the point this history last read it to, each
/// parsed: made before a sync's transaction (on two threads for a join) or within it.
struct JournalLines: Sendable {
    /// Where the reading starts: a byte offset, and the lines before it, for warnings' numbers.
    struct Start: Equatable, Sendable {
        var offset: Int64
        var line: Int
    }

    /// The file, within the sync folder.
    var path: String
    var start: Start
    /// Why the file could not be read; nil when it was.
    var failure: String?
    /// Each whole line that is not empty: its number in the file, and its event or what is
    /// wrong with it.
    var lines: [(Int, Result<SyncEvent, ImportProblem>)] = []
    /// The bytes of the whole lines read, empty ones included, and how many there were.
    var consumed = 0
    var linesRead = 0

    /// Where to read `file` from, after what the history recorded of it (inode, offset, lines).
    static func start(of file: SyncJournal.FileState, recorded: (UInt64, Int64, Int)?) -> Start {
        // A replaced file (another inode) or a shorter one is read again from its start.
        guard let (inode, offset, lines) = recorded, inode == file.inode, file.size >= offset else { return Start(offset: 0, line: 0) }
        return Start(offset: offset, line: lines)
    }

    static func read(_ file: SyncJournal.FileState, from start: Start, _ folder: String) -> JournalLines {
        var result = JournalLines(path: file.path, start: start)
        let bytes: [UInt8]
        switch SyncJournal.read(folder + "/" + file.path, from: start.offset) {
        case .failure(let failure):
            result.failure = failure.reason
            return result
        case .success(let read): bytes = read
        }
        let device = String(file.path.prefix { $0 != "/" })
        // Only whole lines: a last line without its newline is still being written.
        while let end = bytes[result.consumed...].firstIndex(of: 0x0A) {
            let text = bytes[result.consumed..<end]
            result.consumed = end + 1
            result.linesRead += 1
            if text.isEmpty { continue }
            let number = start.line + result.linesRead
            do throws(ImportProblem) {
                let event = try SyncEvent.parse(text)
                guard event.device == device else {
                    throw ImportProblem("an event of device '\(event.device)' in the folder of another device")
                }
                result.lines.append((number, .success(event)))
            } catch {
                result.lines.append((number, .failure(error)))
            }
        }
        return result
    }
}

/// Hands out 0, 1, 2 and so on to the threads that ask, each number once.
final class NextIndex: Sendable {
    private let next = Mutex(0)

    func take(below count: Int) -> Int? {
        next.withLock { next in
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }
}
