#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that a reader never sees half of one: the bytes go to a temporary file in
/// the same folder, which is flushed and then renamed over the target. If anything fails,
/// the original file is untouched.
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String) -> Result<Void, Diagnostic> {
        bytes.withUnsafeBufferPointer { write($0, to: path) }
    }

    public static func write(_ bytes: UnsafeBufferPointer<UInt8>, to path: String) -> Result<Void, Diagnostic> {
        // A rename would replace a read-only file without complaint (and root ignores the
        // bits anyway), but read-only means "do not change this": respect it.
        var existing = stat()
        if stat(path, &existing) == 0, existing.st_mode & 0o222 == 0 {
            return .failure(.unwritable(path, reason: "the file is read-only"))
        }
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let base = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array((folder + "." + base + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return .failure(.unwritable(path, reason: InputReader.describe(errno))) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure = writeFully(fd, bytes)
        // Keep the permissions of a file being replaced; new files get the usual 0644 less umask.
        var info = stat()
        if stat(path, &info) == 0 {
            fchmod(fd, info.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
        }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            return .failure(.unwritable(path, reason: InputReader.describe(failure)))
        }
        return .success(())
    }
}
