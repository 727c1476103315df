import CZlib
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// Loop Habit Tracker's "Export as CSV": a zip archive (`Loop Habits CSV YYYY-MM-DD.zip`) of
/// `Habits.csv`, `Checkmarks.csv`, `Scores.csv` and a folder per habit, its entries deflated
/// as Java's `ZipOutputStream` writes them. It is unpacked into a private temporary folder,
/// read there by ``LoopCSVSource`` as the unzipped folder is, and removed.
///
/// Only what an export holds is unpacked: files and folders two levels deep at most, with
/// plain relative names, stored or deflated, their sizes and checksums as the archive says,
/// at most ``limit`` bytes in all. Anything else refuses the archive, before the import
/// writes a thing.
public struct LoopCSVArchive {
    /// The archive, as the person named it.
    public let path: String
    /// The temporary folder it was unpacked into: the export's folder.
    public let folder: String

    /// The most an archive may unpack to: years of Loop's days are a few megabytes.
    static let limit = 512 << 20
    static let entryLimit = 100_000

    /// Whether `path` begins as a zip archive does.
    public static func isArchive(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 4)
        return read(fd, &head, 4) == 4 && head == [0x50, 0x4B, 0x03, 0x04]
    }

    /// Unpacks `path`; throws ``TrackerReadError`` naming the archive.
    public init(path: String) throws(TrackerReadError) {
        self.path = path
        func refuse(_ reason: String) -> TrackerReadError { TrackerReadError(file: path, line: 0, reason: reason) }
        func failure() -> TrackerReadError { refuse(String(cString: strerror(errno)).lowercased()) }
        // Not blocking on a FIFO: what is not a regular file is refused before it is read.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw failure() }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure() }
        guard info.st_mode & S_IFMT == S_IFREG else { throw refuse("it is not a regular file") }
        guard info.st_size <= Self.limit else { throw refuse("it is larger than \(Self.limit >> 20) MB: not a Loop export") }
        guard let bytes = Self.readAll(fd, count: Int(info.st_size)) else { throw failure() }
        let entries = try Self.entries(bytes, refuse)
        var template = Array(((getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/routine-loop-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw refuse("no temporary folder to unpack it into: \(String(cString: strerror(errno)).lowercased())")
        }
        folder = String(cString: made)
        do {
            for entry in entries { try Self.unpack(entry, from: bytes, into: folder, refuse) }
        } catch {
            remove()
            throw error
        }
    }

    /// Removes the unpacked folder.
    public func remove() {
        Self.removeTree(folder)
    }

    /// A problem found in the unpacked folder, said of the archive: `export.zip/003 Water/Checkmarks.csv`.
    public func naming(_ error: TrackerReadError) -> TrackerReadError {
        var renamed = error
        if error.file == folder {
            renamed.file = path
        } else if error.file.hasPrefix(folder + "/") {
            renamed.file = path + "/" + error.file.dropFirst(folder.count + 1)
        }
        return renamed
    }

    struct Entry {
        var name: String
        var method: UInt16
        var crc: UInt32
        var compressed, size, local: Int
    }

    static func readAll(_ fd: Int32, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return n == 0 ? Array(bytes[0..<done]) : nil }
            done += n
        }
        return bytes
    }

    static func u16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
    static func u32(_ b: [UInt8], _ at: Int) -> Int { u16(b, at) | u16(b, at + 2) << 16 }

    /// The central directory's entries, each checked.
    static func entries(_ b: [UInt8], _ refuse: (String) -> TrackerReadError) throws(TrackerReadError) -> [Entry] {
        // The end record: 22 bytes, then a comment of at most 65,535 bytes.
        var end = -1
        var k = b.count - 22
        while k >= max(0, b.count - 22 - 65_535) {
            if b[k] == 0x50, b[k + 1] == 0x4B, b[k + 2] == 0x05, b[k + 3] == 0x06 {
                end = k
                break
            }
            k -= 1
        }
        guard end >= 0 else { throw refuse("it is not a whole zip archive (no central directory): download or copy it again") }
        let count = u16(b, end + 10)
        let start = u32(b, end + 16)
        guard u16(b, end + 4) == 0, u16(b, end + 6) == 0, count != 0xFFFF, start != 0xFFFF_FFFF else {
            throw refuse("it is a split or zip64 archive, which a Loop export never is")
        }
        guard count <= entryLimit else { throw refuse("it holds \(count) files: not a Loop export") }
        var entries: [Entry] = []
        var names = Set<String>()
        var total = 0
        var at = start
        for _ in 0..<count {
            guard at + 46 <= end, u32(b, at) == 0x0201_4B50 else { throw refuse("its central directory is damaged") }
            let (flags, method) = (u16(b, at + 8), UInt16(u16(b, at + 10)))
            let (nameLength, extra, comment) = (u16(b, at + 28), u16(b, at + 30), u16(b, at + 32))
            guard at + 46 + nameLength <= end else { throw refuse("its central directory is damaged") }
            let name = String(decoding: b[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            let entry = Entry(
                name: name, method: method, crc: UInt32(u32(b, at + 16)), compressed: u32(b, at + 20), size: u32(b, at + 24),
                local: u32(b, at + 42))
            at += 46 + nameLength + extra + comment
            guard flags & 1 == 0 else { throw refuse("'\(Sanitizer.visible(name))' is encrypted") }
            guard method == 0 || method == 8 else {
                throw refuse("'\(Sanitizer.visible(name))' is compressed by method \(method); only stored and deflated files are read")
            }
            guard isPlain(name) else { throw refuse("it holds '\(Sanitizer.visible(name))', which is not a file of a Loop export") }
            guard names.insert(name).inserted else { throw refuse("it holds '\(Sanitizer.visible(name))' twice") }
            total += entry.size
            guard total <= limit else { throw refuse("it unpacks to more than \(limit >> 20) MB: not a Loop export") }
            entries.append(entry)
        }
        return entries
    }

    /// A relative name of at most two levels (`Habits.csv`, `001 Water/Checkmarks.csv`, a
    /// folder's `001 Water/`), none of whose parts leads elsewhere.
    static func isPlain(_ name: String) -> Bool {
        let parts = (name.hasSuffix("/") ? String(name.dropLast()) : name).split(separator: "/", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.count <= 2
            && parts.allSatisfy { part in
                !part.isEmpty && part != "." && part != ".." && !part.utf8.contains(where: { $0 < 0x20 || $0 == 0x5C || $0 == 0x7F })
            }
    }

    static func unpack(_ entry: Entry, from b: [UInt8], into folder: String, _ refuse: (String) -> TrackerReadError) throws(TrackerReadError) {
        func damaged() -> TrackerReadError { refuse("'\(Sanitizer.visible(entry.name))' is damaged in the archive") }
        let parts = entry.name.split(separator: "/")
        if parts.count == 2 || entry.name.hasSuffix("/") {
            let made = folder + "/" + parts[0]
            guard mkdir(made, 0o700) == 0 || errno == EEXIST else {
                throw refuse("cannot unpack it: \(String(cString: strerror(errno)).lowercased())")
            }
        }
        if entry.name.hasSuffix("/") { return }
        let at = entry.local
        guard at + 30 <= b.count, u32(b, at) == 0x0403_4B50 else { throw damaged() }
        let data = at + 30 + u16(b, at + 26) + u16(b, at + 28)
        guard data + entry.compressed <= b.count else { throw damaged() }
        var out = [UInt8](repeating: 0, count: entry.size)
        if entry.method == 0 {
            guard entry.compressed == entry.size else { throw damaged() }
            out.replaceSubrange(0..<entry.size, with: b[data..<(data + entry.size)])
        } else {
            guard inflate(b, data..<(data + entry.compressed), into: &out) else { throw damaged() }
        }
        let sum = out.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        guard UInt32(sum) == entry.crc else { throw damaged() }
        let file = folder + "/" + entry.name
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw refuse("cannot unpack it: \(String(cString: strerror(errno)).lowercased())") }
        defer { close(fd) }
        var done = 0
        while done < out.count {
            let n = out.withUnsafeBytes { write(fd, $0.baseAddress! + done, out.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw refuse("cannot unpack it: \(String(cString: strerror(errno)).lowercased())") }
            done += n
        }
    }

    /// Raw deflate (no zlib header) of exactly `out.count` bytes: one byte of room more, so
    /// that data past the stated size shows.
    static func inflate(_ b: [UInt8], _ range: Range<Int>, into out: inout [UInt8]) -> Bool {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return false }
        defer { inflateEnd(&stream) }
        let count = out.count
        var room = [UInt8](repeating: 0, count: count + 1)
        let status = b.withUnsafeBufferPointer { input in
            room.withUnsafeMutableBufferPointer { output in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + range.lowerBound)
                stream.avail_in = uInt(range.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(count + 1)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, stream.total_out == count else { return false }
        out = Array(room[0..<count])
        return true
    }

    /// Removes `path` and what it holds (two levels, as unpacked).
    static func removeTree(_ path: String) {
        if let dir = opendir(path) {
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != ".", name != ".." { names.append(name) }
            }
            closedir(dir)
            for name in names {
                let child = path + "/" + name
                var info = stat()
                if lstat(child, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { removeTree(child) } else { unlink(child) }
            }
        }
        rmdir(path)
    }
}
