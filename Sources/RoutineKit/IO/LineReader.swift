#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file, or standard input for `-`, one line at a time through a fixed buffer: memory
/// holds one line whatever the file's size. A line ends at LF; a CR before it is dropped, so
/// LF and CR LF files read alike. Lines are bytes, split on bytes, never on characters.
public final class LineReader {
    public let name: String
    /// The number of the line `next` returned last, counted from 1.
    public private(set) var lineNumber = 0
    private let fd: Int32
    private let owned: Bool
    /// The longest line read; a longer one is refused once this much of it is read.
    public var maximumLine = SourceFile.maximumSize
    /// Whether the last failure was a line longer than ``maximumLine``.
    public private(set) var lineTooLong = false
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    private var start = 0
    private var end = 0
    private var atEnd = false

    private init(fd: Int32, owned: Bool, name: String) {
        self.fd = fd
        self.owned = owned
        self.name = name
    }

    deinit { if owned { close(fd) } }

    /// Opens `path`; a folder is refused here rather than at the first read.
    public static func open(_ path: String) -> Result<LineReader, Diagnostic> {
        if path == "-" { return .success(LineReader(fd: 0, owned: false, name: InputReader.standardInputName)) }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.unreadable(path, reason: InputReader.describe(errno))) }
        var info = stat()
        if fstat(fd, &info) != 0 || info.st_mode & S_IFMT == S_IFDIR {
            let reason = info.st_mode & S_IFMT == S_IFDIR ? "it is a directory" : InputReader.describe(errno)
            close(fd)
            return .failure(.unreadable(path, reason: reason))
        }
        return .success(LineReader(fd: fd, owned: true, name: path))
    }

    /// Opens `path` only if it is a regular file, never waiting to open it: a named pipe
    /// (whose opening waits for a writer, and whose reading may never end), a socket or a
    /// device is refused with what it is, in the words `check` uses for them (E013).
    public static func openRegularFile(_ path: String) -> Result<LineReader, Diagnostic> {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        var info = stat()
        guard fd >= 0 else {
            let failure = errno
            // A socket cannot be opened at all (ENXIO): say what it is.
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, let kind = InputReader.kind(info) {
                return .failure(.notRegularInput(path, kind: kind))
            }
            return .failure(.unreadable(path, reason: InputReader.describe(failure)))
        }
        guard fstat(fd, &info) == 0 else {
            let failure = errno
            close(fd)
            return .failure(.unreadable(path, reason: InputReader.describe(failure)))
        }
        if let kind = InputReader.kind(info) {
            close(fd)
            if info.st_mode & S_IFMT == S_IFDIR { return .failure(.unreadable(path, reason: "it is a directory")) }
            return .failure(.notRegularInput(path, kind: kind))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(LineReader(fd: fd, owned: true, name: path))
    }

    /// The next line without its end, or nil after the last one. A line longer than
    /// ``SourceFile/maximumSize`` is refused.
    public func next() -> Result<[UInt8]?, Diagnostic> {
        var pending: [UInt8] = []
        while true {
            if start < end {
                let (from, count) = (start, end - start)
                let found: Int? = buffer.withUnsafeBytes { bytes in
                    memchr(bytes.baseAddress! + from, 0x0A, count).map { UnsafeRawPointer($0) - bytes.baseAddress! }
                }
                pending.append(contentsOf: buffer[start..<(found ?? end)])
                start = found.map { $0 + 1 } ?? end
                if found != nil { return .success(finish(pending)) }
                if pending.count > maximumLine {
                    lineTooLong = true
                    return .failure(.tooLarge(name, size: pending.count))
                }
            }
            if atEnd { return .success(pending.isEmpty ? nil : finish(pending)) }
            if let failure = fill() { return .failure(failure) }
        }
    }

    /// The next line that holds more than spaces, tabs and CRs, with what leads it dropped,
    /// or nil after the last one. Blank lines cost a byte's look each, nothing more.
    public func nextNonBlank() -> Result<[UInt8]?, Diagnostic> {
        while true {
            let (from, to) = (start, end)
            var newlines = 0
            let stop = buffer.withUnsafeBufferPointer { bytes in
                var k = from
                while k < to {
                    let b = bytes[k]
                    if b == 0x0A {
                        newlines += 1
                    } else if b != 0x20, b != 0x09, b != 0x0D {
                        break
                    }
                    k += 1
                }
                return k
            }
            lineNumber += newlines
            start = stop
            if start < end { return next() }
            if atEnd { return .success(nil) }
            if let failure = fill() { return .failure(failure) }
        }
    }

    /// Reads the next chunk into the buffer (empty at the end of the input).
    private func fill() -> Diagnostic? {
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = errno == EBADF && fd == 0 ? "standard input is closed" : InputReader.describe(errno)
                return .unreadable(name, reason: reason)
            }
            start = 0
            end = n
            atEnd = n == 0
            return nil
        }
    }

    private func finish(_ line: [UInt8]) -> [UInt8] {
        lineNumber += 1
        return line.last == 0x0D ? Array(line.dropLast()) : line
    }
}
