import ArgumentParser
import RoutineKit
import RoutineTerminal

#if canImport(Glibc)
import Glibc
#endif

/// Where answers come from: a file, or standard input (a terminal or a pipe). Lines end at
/// LF, CRLF or a lone CR, as in `.rt` files; a line longer than ``maximumLine`` is refused
/// whole, so an answer file of one endless line costs a bounded buffer.
struct AnswerSource {
    /// Far beyond any answer (a number, or an option's text), small enough to hold at once.
    static let maximumLine = 4096

    private let fd: Int32
    let isTerminal: Bool
    /// Whether the answers come from a regular file, which cannot be waiting for the output
    /// (a named pipe on the command line may be).
    let isFile: Bool
    private let buffer = ReadBuffer()
    /// The line editor, for a person at a terminal that can take it (not TERM=dumb).
    private let editor: TerminalLineReader?

    /// Owns the bytes read but not yet returned, and the descriptor of a file opened here.
    private final class ReadBuffer {
        var bytes = [UInt8](repeating: 0, count: 65_536)
        var start = 0
        var end = 0
        var atEnd = false
        /// A CR ended the last line; an LF right after it belongs to it.
        var afterCR = false
        var owned: Int32 = -1
        deinit { if owned >= 0 { close(owned) } }
    }

    /// `path` nil or `-` is standard input. An input that cannot be read is E001 (exit 66).
    init(path: String?) throws {
        let shown = path == nil || path == "-" ? InputReader.standardInputName : path!
        if let path, path != "-" {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw Self.unreadable(shown, InputReader.describe(errno)) }
            buffer.owned = fd
        } else {
            fd = 0
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw Self.unreadable(shown, errno == EBADF ? "standard input is closed" : InputReader.describe(errno))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw Self.unreadable(shown, "it is a directory") }
        isTerminal = Terminal.isTerminal(fd)
        isFile = (info.st_mode & S_IFMT) == S_IFREG
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        let editable = isTerminal && Terminal.isTerminal(1) && term != "dumb" && !term.isEmpty && RawMode.isAvailable(fd: fd)
        editor = editable ? TerminalLineReader(fd: fd) : nil
    }

    private static func unreadable(_ name: String, _ reason: String) -> Error {
        StandardError.write("routine: error[E001]: cannot read '\(Sanitizer.visible(name))': \(reason)\n")
        return Exit.unreadable
    }

    /// How long the countdown ran (pauses left out) when it gave the last answer; nil when the
    /// answer was typed.
    var countdownSeconds: Double? { editor?.countdownSeconds }

    /// The next answer; `kind` says what is asked, for the keys a terminal offers.
    /// `ready` shows the prompt (flushes what is waiting to be written).
    mutating func next(kind: PromptKind = .line, colors: Bool = false, ready: () -> Void = {}) -> RunLine {
        if Interrupts.happened { return .interrupted }
        if let editor { return editor.readLine(limit: Self.maximumLine, kind: kind, colors: colors, ready: ready) }
        ready()
        var tooLong = false
        while true {
            let b = buffer
            if b.afterCR, b.start < b.end {
                if b.bytes[b.start] == 0x0A { b.start += 1 }
                b.afterCR = false
            }
            var i = b.start
            while i < b.end, b.bytes[i] != 0x0A, b.bytes[i] != 0x0D { i += 1 }
            if i < b.end {
                let line = b.bytes[b.start..<i]
                b.afterCR = b.bytes[i] == 0x0D
                b.start = i + 1
                if tooLong || line.count > Self.maximumLine { return .tooLong(Self.maximumLine) }
                return .line(String(decoding: line, as: UTF8.self))
            }
            if b.atEnd {
                guard b.start < b.end else { return tooLong ? .tooLong(Self.maximumLine) : .endOfInput }
                let line = b.bytes[b.start..<b.end]
                b.start = b.end
                if tooLong || line.count > Self.maximumLine { return .tooLong(Self.maximumLine) }
                return .line(String(decoding: line, as: UTF8.self))
            }
            // Keep the unfinished line; past the limit, keep nothing of it but the fact.
            if b.end - b.start > Self.maximumLine {
                tooLong = true
                b.start = 0
                b.end = 0
            } else if b.start > 0 {
                b.bytes.withUnsafeMutableBufferPointer { p in
                    _ = memmove(p.baseAddress!, p.baseAddress! + b.start, b.end - b.start)
                }
                b.end -= b.start
                b.start = 0
            }
            let n = b.bytes.withUnsafeMutableBufferPointer { p in read(fd, p.baseAddress! + b.end, p.count - b.end) }
            if Interrupts.happened { return .interrupted }
            if n > 0 {
                b.end += n
            } else if n == 0 || errno != EINTR {
                b.atEnd = true
            }
        }
    }
}

/// Ctrl-C, SIGTERM and SIGHUP: the handler only notes the signal; the read it interrupts
/// returns, and the run ends cleanly with its summary and its end recorded. No SA_RESTART, so
/// a blocked read does return.
enum Interrupts {
    nonisolated(unsafe) static var flag: sig_atomic_t = 0
    /// SIGWINCH arrived since the line editor last looked.
    nonisolated(unsafe) static var resized: sig_atomic_t = 0

    static var happened: Bool { flag != 0 }

    /// The terminal is gone (end of file or an error on it): as SIGHUP, which may or may not
    /// follow, unless another signal came first.
    static func noteHangUp() {
        if flag == 0 { flag = SIGHUP }
    }

    /// The exit code for the signal that arrived: 128 + its number (130 for Ctrl-C).
    static var exitCode: ExitCode { Exit.signalled(by: flag == 0 ? SIGINT : flag) }

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
        // A resize interrupts the read too, so that the line editor redraws at the new width.
        var resize = sigaction()
        resize.__sigaction_handler.sa_handler = { _ in Interrupts.resized = 1 }
        sigemptyset(&resize.sa_mask)
        resize.sa_flags = 0
        sigaction(SIGWINCH, &resize, nil)
        RawMode.handleStops(continued: { Interrupts.resized = 1 })
        // A parent may start us with these signals blocked (some process launchers do); then
        // Ctrl-C or a SIGTERM would wait forever instead of ending the run.
        sigprocmask(SIG_UNBLOCK, &handled, nil)
    }
}
