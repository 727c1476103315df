import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// Buffered writing to a file descriptor; a failed write (a closed pipe) ends the process
/// quietly, as a filter in a pipeline should.
struct BufferedOutput {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// One JSON Lines record.
    mutating func write(_ json: JSONValue) {
        var line = ByteWriter()
        json.write(to: &line)
        line.byte(0x0A)
        line.withBytes { buffer.append(contentsOf: $0) }
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        writeAll(fd, buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes all of `bytes`; exits quietly when the reader has gone (a closed pipe).
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { writeAll(fd, $0) }
}

func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
    if writeFully(fd, bytes) != 0 { exit(fd == 1 ? 0 : 1) }
}

enum StandardError {
    static func write(_ text: String) { writeAll(2, Array(text.utf8)) }
}

enum StandardOutput {
    static func write(_ text: String) { writeAll(1, Array(text.utf8)) }
}

/// Ignore SIGPIPE so a closed pipe shows up as a failed write, handled above, rather than
/// killing the process in the middle of a line.
func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }
