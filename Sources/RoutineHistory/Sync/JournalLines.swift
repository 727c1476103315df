import RoutineKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

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

    /// Where to read `file` from, after what the history recorded of it (offset, lines, and the
    /// hash of what was read).
    static func start(of file: SyncJournal.FileState, recorded: (Int64, Int, Int64)?) -> Start {
        // A shorter file is read again from its start. A file replaced by another (a new inode:
        // Syncthing and git write each version anew) is read on from the same point when its
        // first bytes are those read: ``read(_:from:_:)`` checks their hash.
        guard let (offset, lines, prefix) = recorded, file.size >= offset else {
            return Start(offset: 0, line: 0)
        }
        return Start(offset: offset, line: lines, prefix: prefix)
    }

    /// Reads the whole lines of `file` after `wanted`, or from its start when the bytes before
    /// `wanted` are not those read then.
    ///
    /// Only the new bytes are kept: those before `wanted` are streamed through a small buffer
    /// for their hash, since a day's sync adds a line to a month's file of megabytes.
    static func read(_ file: SyncJournal.FileState, from wanted: Start, _ folder: String) -> JournalLines {
        var result = JournalLines(path: file.path, asked: wanted, start: wanted)
        let fd = SyncJournal.openForReading(folder + "/" + file.path)
        guard fd >= 0 else {
            result.failure = systemError()
            return result
        }
        defer { close(fd) }
        do throws(SyncJournal.Failure) {
            if wanted.offset > 0 {
                let tail = try SyncJournal.read(fd, from: wanted.offset)
                // The reading would end after the last whole line: the prefix to record ends there.
                let whole = tail.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                if let (before, after) = try hashes(fd, upTo: wanted.offset, and: wanted.offset + Int64(whole)), before == wanted.prefix {
                    result.parse(tail[...], device: device(of: file))
                    result.prefix = after
                    return result
                }
                result.again = true
                result.start = Start(offset: 0, line: 0)
            }
            let bytes = try SyncJournal.read(fd, from: 0)
            result.parse(bytes[...], device: device(of: file))
            result.prefix = hash(bytes[0..<result.consumed])
        } catch {
            result.failure = error.reason
        }
        return result
    }

    static func device(of file: SyncJournal.FileState) -> String {
        String(file.path.prefix { $0 != "/" })
    }

    /// Parses the whole lines of `bytes`, which start at ``start``.
    mutating func parse(_ bytes: ArraySlice<UInt8>, device: String) {
        // Only whole lines: a last line without its newline is still being written.
        while let end = bytes[(bytes.startIndex + consumed)...].firstIndex(of: 0x0A) {
            let text = bytes[(bytes.startIndex + consumed)..<end]
            consumed = end + 1 - bytes.startIndex
            linesRead += 1
            if text.isEmpty { continue }
            let number = start.line + linesRead
            do throws(ImportProblem) {
                let event = try SyncEvent.parse(text)
                guard event.device == device else {
                    throw ImportProblem("an event of device '\(event.device)' in the folder of another device")
                }
                lines.append((number, .success(event)))
            } catch {
                lines.append((number, .failure(error)))
            }
        }
    }

    /// The hashes of the file's first `a` and first `b` bytes (`a` ≤ `b`), in one pass through
    /// a buffer of 256 KB; nil when the file holds fewer than `b` bytes.
    static func hashes(_ fd: Int32, upTo a: Int64, and b: Int64) throws(SyncJournal.Failure) -> (Int64, Int64)? {
        var first = Hash(count: Int(a))
        var second = Hash(count: Int(b))
        var buffer = [UInt8](repeating: 0, count: 1 << 18)
        var at: Int64 = 0
        while at < b {
            let n = try SyncJournal.read(fd, into: &buffer[0..<Int(min(Int64(buffer.count), b - at))], at: at)
            guard n > 0 else { return nil }
            buffer.withUnsafeBytes { raw in
                // Whole words before `a` go to both hashes in one loop, whose two chains of
                // multiplications overlap; the rest to each alone.
                let both = at < a ? Int(min(Int64(n), a - at)) & ~7 : 0
                Hash.add(UnsafeRawBufferPointer(rebasing: raw[0..<both]), to: &first, and: &second)
                if at < a { first.add(UnsafeRawBufferPointer(rebasing: raw[both..<Int(min(Int64(n), a - at))])) }
                second.add(UnsafeRawBufferPointer(rebasing: raw[both..<n]))
            }
            at += Int64(n)
        }
        return (first.value, second.value)
    }

    /// A 64-bit hash of `bytes`, eight at a time: enough to tell the bytes a reader read from
    /// those a person or an engine put in their place, at a fraction of the reading's cost.
    static func hash(_ bytes: ArraySlice<UInt8>) -> Int64 {
        var h = Hash(count: bytes.count)
        bytes.withUnsafeBytes { h.add($0) }
        return h.value
    }

    /// ``hash(_:)`` fed piece by piece: every piece but the last a multiple of eight bytes.
    /// The hashes recorded in histories are of this form: it may not change.
    struct Hash {
        var h: UInt64
        var tail: UInt64 = 0

        init(count: Int) { h = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count) }

        mutating func add(_ raw: UnsafeRawBufferPointer) {
            var k = 0
            while k + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                h = (h ^ word) &* 0xFF51_AFD7_ED55_8CCD
                h ^= h >> 32
                k += 8
            }
            while k < raw.count {
                tail = tail << 8 | UInt64(raw[k])
                k += 1
            }
        }

        /// ``add(_:)`` of the same whole words to two hashes, at about the cost of one.
        static func add(_ raw: UnsafeRawBufferPointer, to a: inout Hash, and b: inout Hash) {
            var (x, y) = (a.h, b.h)
            var k = 0
            while k + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                x = (x ^ word) &* 0xFF51_AFD7_ED55_8CCD
                y = (y ^ word) &* 0xFF51_AFD7_ED55_8CCD
                x ^= x >> 32
                y ^= y >> 32
                k += 8
            }
            (a.h, b.h) = (x, y)
        }

        var value: Int64 {
            var h = (self.h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
            h ^= h >> 29
            return Int64(bitPattern: h)
        }
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
