import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// Where answers come from: a file, or standard input (a terminal or a pipe).
struct AnswerSource {
    private let file: UnsafeMutablePointer<FILE>?
    let isTerminal: Bool
    /// Whether the answers come from a regular file, which cannot be waiting for the output
    /// (a named pipe on the command line may be).
    let isFile: Bool
    /// `getline`'s buffer, kept from line to line.
    private let line = LineBuffer()

    /// Owns the buffer `getline` grows.
    private final class LineBuffer {
        var bytes: UnsafeMutablePointer<CChar>?
        var capacity = 0
        deinit { free(bytes) }
    }

    init(path: String?) throws {
        if let path {
            var info = stat()
            let found = stat(path, &info) == 0
            let isDirectory = found && (info.st_mode & S_IFMT) == S_IFDIR
            guard !isDirectory, let handle = fopen(path, "r") else {
                let reason = isDirectory ? "it is a directory" : String(cString: strerror(errno)).lowercased()
                StandardError.write("routine: error[E001]: cannot read '\(path)': \(reason)\n")
                throw Exit.unreadable
            }
            file = handle
            isTerminal = false
            isFile = found && (info.st_mode & S_IFMT) == S_IFREG
        } else {
            file = fdopen(0, "r")
            isTerminal = Terminal.isTerminal(0)
            isFile = false
        }
    }

    mutating func next() -> RunLine {
        if Interrupts.happened { return .interrupted }
        guard let file else { return .endOfInput }
        var n = getline(&line.bytes, &line.capacity, file)
        if Interrupts.happened { return .interrupted }
        guard n >= 0, let bytes = line.bytes else { return .endOfInput }
        // The line break, whichever it is, is not part of the answer.
        while n > 0, bytes[n - 1] == 0x0A || bytes[n - 1] == 0x0D { n -= 1 }
        return .line(bytes.withMemoryRebound(to: UInt8.self, capacity: n) {
            String(decoding: UnsafeBufferPointer(start: $0, count: n), as: UTF8.self)
        })
    }
}

/// Ctrl-C, SIGTERM and SIGHUP: the handler only notes the signal; the read it interrupts
/// returns, and the run ends cleanly with its summary and its end recorded. No SA_RESTART, so
/// a blocked read does return.
enum Interrupts {
    nonisolated(unsafe) static var flag: sig_atomic_t = 0

    static var happened: Bool { flag != 0 }

    /// The exit code for the signal that arrived: 128 + its number (130 for Ctrl-C).
    static var exitCode: Int32 { 128 + (flag == 0 ? SIGINT : flag) }

    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in Interrupts.flag = signal }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var handled = sigset_t()
        sigemptyset(&handled)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            sigaction(signal, &action, nil)
            sigaddset(&handled, signal)
        }
        // A parent may start us with these signals blocked (some process launchers do); then
        // Ctrl-C or a SIGTERM would wait forever instead of ending the run.
        sigprocmask(SIG_UNBLOCK, &handled, nil)
    }
}
