#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads inputs whole, turning every failure into a diagnostic instead of a crash.
public enum InputReader {
    /// The name standard input has in diagnostics.
    public static let standardInputName = "<stdin>"

    /// Reads `path`, or standard input for `-`, never waiting to open it. A pipe with a
    /// writer (`<(command)`, `/dev/stdin`) is read to its end; a named pipe with none, which
    /// opening as a file would wait on forever, and a socket are refused with what they are;
    /// a device is read up to the size bound.
    /// `bytes`, when given, are the path as the command line gave it: a name that is not
    /// UTF-8 is opened by its own bytes, which `path` (decoded) no longer holds.
    public static func read(_ path: String, bytes: [CChar]? = nil) -> Result<SourceFile, Diagnostic> {
        if path == "-" {
            return readAll(fd: 0, shownAs: standardInputName).map { SourceFile(name: standardInputName, bytes: $0) }
        }
        let fd = bytes.map { open($0, nonBlocking) } ?? open(path, nonBlocking)
        return read(fd, path, refused: { $0 == S_IFSOCK }, waits: false)
    }

    /// Reads `path` only if it is a regular file, never waiting to open it: a named pipe or a
    /// device in its place (which would block, or never end) is refused with what it is, in
    /// the words of a studio that waits for a routine file there.
    public static func readRegularFile(_ path: String) -> Result<SourceFile, Diagnostic> {
        read(open(path, nonBlocking), path, refused: { $0 != S_IFREG }, waits: true)
    }

    /// Opening a pipe for reading waits for a writer, unless it does not block.
    private static let nonBlocking = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC

    private static func read(_ fd: Int32, _ path: String, refused: (mode_t) -> Bool, waits: Bool) -> Result<SourceFile, Diagnostic> {
        func refuse(_ kind: String) -> Result<SourceFile, Diagnostic> {
            .failure(waits ? .notRegularFile(path, kind: kind) : .notRegularInput(path, kind: kind))
        }
        guard fd >= 0 else {
            let failure = errno
            // A socket cannot be opened at all (ENXIO): say what it is, as for any other.
            var info = stat()
            if stat(path, &info) == 0, refused(info.st_mode & S_IFMT), let kind = kind(info) { return refuse(kind) }
            return .failure(.unreadable(path, reason: describe(failure)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(path, reason: describe(errno))) }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .failure(.unreadable(path, reason: "it is a directory")) }
        if refused(info.st_mode & S_IFMT), let kind = kind(info) { return refuse(kind) }
        // A device still read (a terminal, /dev/zero) is read as blocking reads it.
        if (info.st_mode & S_IFMT) != S_IFREG { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
        if Int(info.st_size) > SourceFile.maximumSize { return .failure(.tooLarge(path, size: Int(info.st_size))) }
        let read = readAll(fd: fd, shownAs: path, sizeHint: Int(info.st_size))
        // A pipe opened without waiting and read to an end at once had no writer.
        if (info.st_mode & S_IFMT) == S_IFIFO, case .success(let bytes) = read, bytes.isEmpty, let kind = kind(info) { return refuse(kind) }
        return read.map { SourceFile(name: path, bytes: $0) }
    }

    /// What a file that is not a regular file is ("a named pipe"); nil for a regular file.
    static func kind(_ info: stat) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFIFO: "a named pipe"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a directory"
        default: "a special file"
        }
    }

    private static func readAll(fd: Int32, shownAs name: String, sizeHint: Int = 0) -> Result<[UInt8], Diagnostic> {
        // A regular file is read straight into the array: no zeroed buffer, no second copy,
        // half the pages touched. Standard input, or a file that grew, goes on in chunks.
        var failure: Int32?
        var atEnd = false
        var bytes = [UInt8](unsafeUninitializedCapacity: max(sizeHint + 1, 65_536)) { buffer, count in
            while count < buffer.count {
                let n = Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
                if n > 0 {
                    count += n
                } else if n == 0 {
                    atEnd = true
                    return
                } else if errno != EINTR {
                    failure = errno
                    return
                }
            }
        }
        var chunk = [UInt8](repeating: 0, count: atEnd || failure != nil ? 0 : 65_536)
        while failure == nil, !atEnd {
            if bytes.count > SourceFile.maximumSize { return .failure(.tooLarge(name, size: bytes.count)) }
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                bytes.append(contentsOf: chunk[0..<n])
            } else if n == 0 {
                atEnd = true
            } else if errno != EINTR {
                failure = errno
            }
        }
        if let failure {
            let reason = failure == EBADF && fd == 0 ? "standard input is closed" : describe(failure)
            return .failure(.unreadable(name, reason: reason))
        }
        if bytes.count > SourceFile.maximumSize { return .failure(.tooLarge(name, size: bytes.count)) }
        return .success(bytes)
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
