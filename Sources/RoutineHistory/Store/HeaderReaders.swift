import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Descriptors for reading history files' headers, kept open for the life of the process.
///
/// Closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's
/// included. A process that keeps a history open (the studio, between a run's answers) and
/// opens it again meanwhile would lose the lock that tells other processes it is there; the
/// last of them to close would then fold the WAL into the file and remove it under the
/// studio's feet. So a header is read through one descriptor per file, never closed.
final class HeaderReaders: Sendable {
    static let shared = HeaderReaders()
    private struct Kept {
        var device, inode: UInt64
        var fd: Int32
    }

    private let descriptors = Mutex<[String: Kept]>([:])

    /// A descriptor open on the file now at `path`; -1 (with errno) when it cannot be opened.
    func descriptor(_ path: String) -> Int32 {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return descriptors.withLock { known in
            if let kept = known[path], kept.device == UInt64(info.st_dev), kept.inode == UInt64(info.st_ino) { return kept.fd }
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return -1 }
            // One of a file no longer at `path` stays open too: SQLite may still hold that file.
            known[path] = Kept(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), fd: fd)
            return fd
        }
    }
}
