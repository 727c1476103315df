import RoutineKit
import Synchronization

/// The whole lines of one journal file after the point this history last read it to, each
/// parsed: made before a sync's transaction (on two threads for a join) or within it.
///
/// Lines, not offsets: the bytes before that point must be those read then (their hash, see
/// ``Start/prefix``). A file changed before it (a line removed or edited by hand, a stale copy
/// put back, a junk line taken out) is read again from its start; its events are applied once
/// by their ids wherever they stand.
struct JournalLines: Sendable {
    /// Where the reading starts: a byte offset, and the lines before it, for warnings' numbers.
    struct Start: Equatable, Sendable {
        var offset: Int64
        var line: Int
        /// The hash (``JournalLines/hash(_:)``) of the bytes before `offset` when they were read.
        var prefix: Int64 = 0
    }

    /// The file, within the sync folder.
    var path: String
    /// Where the reading was asked to start, and where it started (the file's start when
    /// what was before that point changed).
    var asked: Start
    var start: Start
    /// Why the file could not be read; nil when it was.
    var failure: String?
    /// Each whole line that is not empty: its number in the file, and its event or what is
    /// wrong with it.
    var lines: [(Int, Result<SyncEvent, ImportProblem>)] = []
    /// The bytes of the whole lines read, empty ones included, and how many there were.
    var consumed = 0
    var linesRead = 0
    /// Whether the file was read from its start although the history had read part of it:
    /// what it recorded of the file (its problems) no longer holds.
    var again = false
    /// The hash of every whole line read, from the file's start: what the next reading checks.
    var prefix: Int64 = 0

    /// Where the reading ends, in bytes from the file's start.
    var end: Int64 { start.offset + Int64(consumed) }

    /// Where to read `file` from, after what the history recorded of it (inode, offset, lines,
    /// and the hash of what was read).
    static func start(of file: SyncJournal.FileState, recorded: (UInt64, Int64, Int, Int64)?) -> Start {
        // A replaced file (another inode) or a shorter one is read again from its start.
        guard let (inode, offset, lines, prefix) = recorded, inode == file.inode, file.size >= offset else {
            return Start(offset: 0, line: 0)
        }
        return Start(offset: offset, line: lines, prefix: prefix)
    }

    static func read(_ file: SyncJournal.FileState, from wanted: Start, _ folder: String) -> JournalLines {
        var result = JournalLines(path: file.path, asked: wanted, start: wanted)
        let whole: [UInt8]
        switch SyncJournal.read(folder + "/" + file.path, from: 0) {
        case .failure(let failure):
            result.failure = failure.reason
            return result
        case .success(let read): whole = read
        }
        var start = wanted
        if start.offset > 0, Int64(whole.count) < start.offset || hash(whole[0..<Int(start.offset)]) != start.prefix {
            start = Start(offset: 0, line: 0)
            result.again = true
        }
        result.start = start
        let bytes = whole[Int(start.offset)...]
        let device = String(file.path.prefix { $0 != "/" })
        // Only whole lines: a last line without its newline is still being written.
        while let end = bytes[(bytes.startIndex + result.consumed)...].firstIndex(of: 0x0A) {
            let text = bytes[(bytes.startIndex + result.consumed)..<end]
            result.consumed = end + 1 - bytes.startIndex
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
        result.prefix = hash(whole[0..<(Int(start.offset) + result.consumed)])
        return result
    }

    /// A 64-bit hash of `bytes`, eight at a time: enough to tell the bytes a reader read from
    /// those a person or an engine put in their place, at a fraction of the reading's cost.
    static func hash(_ bytes: ArraySlice<UInt8>) -> Int64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        bytes.withUnsafeBytes { raw in
            var k = 0
            while k + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                h = (h ^ word) &* 0xFF51_AFD7_ED55_8CCD
                h ^= h >> 32
                k += 8
            }
            var tail: UInt64 = 0
            while k < raw.count {
                tail = tail << 8 | UInt64(raw[k])
                k += 1
            }
            h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
            h ^= h >> 29
        }
        return Int64(bitPattern: h)
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
