#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads inputs whole, turning every failure into a diagnostic instead of a crash.
public enum InputReader {
    /// The name standard input has in diagnostics.
    public static let standardInputName = "<stdin>"

    /// Reads `path`, or standard input for `-`.
    public static func read(_ path: String) -> Result<SourceFile, Diagnostic> {
        if path == "-" {
            return readAll(fd: 0, shownAs: standardInputName).map { SourceFile(name: standardInputName, bytes: $0) }
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.unreadable(path, reason: describe(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(path, reason: describe(errno))) }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .failure(.unreadable(path, reason: "it is a directory")) }
        if Int(info.st_size) > SourceFile.maximumSize { return .failure(.tooLarge(path, size: Int(info.st_size))) }
        return readAll(fd: fd, shownAs: path, sizeHint: Int(info.st_size)).map { SourceFile(name: path, bytes: $0) }
    }

    private static func readAll(fd: Int32, shownAs name: String, sizeHint: Int = 0) -> Result<[UInt8], Diagnostic> {
        var bytes = [UInt8]()
        bytes.reserveCapacity(sizeHint + 1)
        var chunk = [UInt8](repeating: 0, count: max(65_536, min(sizeHint + 1, 1 << 24)))
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return .success(bytes) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = errno == EBADF && fd == 0 ? "standard input is closed" : describe(errno)
                return .failure(.unreadable(name, reason: reason))
            }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > SourceFile.maximumSize { return .failure(.tooLarge(name, size: bytes.count)) }
        }
    }

    public static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file or directory"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a directory"
        case ENOTDIR: "a part of the path is not a directory"
        case ELOOP: "too many symbolic links"
        case ENAMETOOLONG: "the name is too long"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
