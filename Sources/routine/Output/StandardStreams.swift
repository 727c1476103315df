import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// Buffered writing to a file descriptor; a failed write is handled as ``OutputFailure`` says.
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

    /// Bytes written as they are.
    mutating func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Text for people that may hold a routine's own characters, made safe for a terminal
    /// (its line breaks kept).
    mutating func write(visible text: String) { write(Sanitizer.visible(text, keepingNewlines: true)) }

    /// One JSON Lines record.
    mutating func write(_ json: JSONValue) {
        var line = ByteWriter()
        json.write(to: &line)
        line.byte(0x0A)
        line.withBytes { buffer.append(contentsOf: $0) }
        if buffer.count >= 1 << 16 { flush() }
    }

    /// A JSON value without a line end, for an array written piece by piece.
    mutating func writeBare(_ json: JSONValue) {
        var text = ByteWriter()
        json.write(to: &text)
        text.withBytes { buffer.append(contentsOf: $0) }
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        writeAll(fd, buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// What happens when standard output cannot be written. A closed pipe (`routine paths |
/// head`) ends the process quietly with the result the command has reached so far, which a
/// command sets once it knows it (`check` with errors: 1), so that a closed pipe never turns
/// a failure into success. Any other failure (a full disk, `/dev/full`, a closed descriptor)
/// is E007 and exit 74: output that was not written is never reported as written. Standard
/// error is best effort: the exit code never depends on whether a complaint could be shown.
enum OutputFailure {
    nonisolated(unsafe) static var resultSoFar: Int32 = 0
    /// Standard output is the terminal of a person's run: when it is gone (closed, hung up),
    /// the run is interrupted and recorded so, not ended here.
    nonisolated(unsafe) static var terminalRun = false

    static func handle(_ fd: Int32, _ code: Int32) {
        guard fd != 2 else { return }
        if terminalRun, fd == 1, code == EIO || code == ENXIO {
            Interrupts.noteHangUp()
            return
        }
        if code == EPIPE { exit(resultSoFar) }
        let reason = code == EBADF ? "it is closed" : InputReader.describe(code)
        let text = "routine: error[E007]: cannot write standard output: \(reason)\n"
        _ = writeFully(2, Array(text.utf8))
        exit(Exit.outputFailed.rawValue)
    }
}

/// Writes all of `bytes`, or handles the failure as ``OutputFailure`` says.
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { writeAll(fd, $0) }
}

func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
    let code = writeFully(fd, bytes)
    if code != 0 { OutputFailure.handle(fd, code) }
}

enum StandardError {
    static func write(_ text: String) { writeAll(2, Array(text.utf8)) }

    /// What an import or a record of several says of those it found already recorded (`state`:
    /// "there", "off"): nothing when none.
    static func already(_ count: Int, _ state: String) -> String {
        count > 0 ? "; \(count) \(count == 1 ? "was" : "were") already \(state)" : ""
    }

    /// A message that may hold a routine's own characters or a file name, made safe.
    static func write(visible text: String) { write(Sanitizer.visible(text, keepingNewlines: true)) }
}

enum StandardOutput {
    static func write(_ text: String) { writeAll(1, Array(text.utf8)) }

    /// Text that may hold a routine's own characters, made safe (its line breaks kept).
    static func write(visible text: String) { write(Sanitizer.visible(text, keepingNewlines: true)) }
}

/// Ignore SIGPIPE so a closed pipe shows up as a failed write, handled above, rather than
/// killing the process in the middle of a line.
func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }
