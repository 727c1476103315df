#if canImport(Glibc)
import Glibc
#endif

/// What lets a writer skip `PRAGMA quick_check`: a stamp beside the history, `NAME-checked`,
/// naming the files exactly as a sound check or this program's own clean close left them.
///
/// The stamp holds the device, inode, size, modification and status-change times (in ns) of
/// the file and of its WAL, and a checksum of the file's first page (SQLite's header, with its
/// change counter and page count) and of its last page. Any other program's write, a copy, a
/// file cut short, or a modification time set back (which sets the status-change time to now)
/// changes it, and the next writer checks the whole file again. What it cannot see is a change
/// that leaves every one of these alone: a disk that alters bytes under the file system.
enum CheckedStamp {
    /// The stamp's file for the history at `path`.
    static func path(of history: String) -> String { history + "-checked" }

    /// Whether the stamp beside `history` names the files as they are now.
    static func matches(_ history: String) -> Bool {
        guard let now = identity(history) else { return false }
        let fd = open(path(of: history), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        // A stamp someone else could write vouches for nothing.
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid(), info.st_mode & 0o022 == 0 else {
            return false
        }
        var bytes = [UInt8](repeating: 0, count: now.count + 1)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return n == now.count && bytes[..<n].elementsEqual(now)
    }

    /// Writes the stamp for the files as they are now, atomically, mode 0600. It is not synced:
    /// a stamp lost or torn by a power cut only costs the next writer a full check.
    static func record(_ history: String) {
        guard let now = identity(history) else { return }
        let target = path(of: history)
        var template = Array((target + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return }
        let temporary = String(cString: template)
        let written = now.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if close(fd) != 0 || written != now.count || rename(temporary, target) != 0 { unlink(temporary) }
    }

    /// The stamp's text for the files at `history` now; nil when the file cannot be read.
    static func identity(_ history: String) -> [UInt8]? {
        var info = stat()
        guard stat(history, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var text = "routine checked 1\n" + describe(info)
        var wal = stat()
        text += stat(history + "-wal", &wal) == 0 ? "wal " + describe(wal) : "wal none\n"
        // Through the process's one descriptor of the file: closing another would drop
        // SQLite's locks on it.
        let fd = HeaderReaders.shared.descriptor(history)
        guard fd >= 0, let pages = checksum(fd, size: Int(info.st_size)) else { return nil }
        text += "pages \(pages)\n"
        return Array(text.utf8)
    }

    private static func describe(_ info: stat) -> String {
        "\(info.st_dev) \(info.st_ino) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)\n"
    }

    /// FNV-1a over the first page and the last page of a file of `size` bytes.
    private static func checksum(_ fd: Int32, size: Int) -> UInt64? {
        var header = [UInt8](repeating: 0, count: 18)
        guard size >= 100, (header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 18, 0) }) == 18 else { return size == 0 ? 0 : nil }
        let declared = Int(header[16]) << 8 | Int(header[17])
        let pageSize = declared == 1 ? 65_536 : max(declared, 512)
        let last = max(0, (size - 1) / pageSize * pageSize)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var page = [UInt8](repeating: 0, count: pageSize)
        for offset in last == 0 ? [0] : [0, last] {
            let n = page.withUnsafeMutableBytes { pread(fd, $0.baseAddress, pageSize, off_t(offset)) }
            guard n >= 0 else { return nil }
            for byte in page[..<n] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return hash
    }
}
