#if canImport(Glibc)
import Glibc
#endif

/// The terminal in raw mode (no line buffering, no echo, no signal keys) while a line is
/// edited, and restored on every way out: ``restore()`` is safe to call from a signal
/// handler's aftermath and more than once. With an `output`, bracketed paste is on while raw
/// (the terminal marks a paste's start and end) and off again on every way out and on a stop.
public final class RawMode: @unchecked Sendable {
    private let fd: Int32
    private let output: Int32
    private var saved = termios()
    public private(set) var isOn = false

    /// `output` is the terminal's output descriptor, for bracketed paste; -1: none.
    public init(fd: Int32, output: Int32 = -1) {
        self.fd = fd
        self.output = output
    }

    static let pasteOn = Array("\u{1B}[?2004h".utf8)
    static let pasteOff = Array("\u{1B}[?2004l".utf8)

    /// Best effort: a terminal that is gone takes nothing, and that is no failure here.
    private static func send(_ bytes: [UInt8], to fd: Int32) {
        guard fd >= 0 else { return }
        bytes.withUnsafeBytes { _ = write(fd, $0.baseAddress, $0.count) }
    }

    /// Whether `fd` is a terminal whose settings can be read (and so changed and restored).
    public static func isAvailable(fd: Int32) -> Bool {
        var settings = termios()
        return tcgetattr(fd, &settings) == 0
    }

    /// Raw input: bytes as typed, Ctrl-C and Ctrl-Z as bytes (the editor acts on them), no
    /// echo. Output processing stays, so "\n" still starts a new line.
    @discardableResult
    public func enable() -> Bool {
        guard !isOn, tcgetattr(fd, &saved) == 0 else { return isOn }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | ISTRIP | BRKINT)
        raw.c_cc.6 = 1  // VMIN: a read returns as soon as one byte is there
        raw.c_cc.5 = 0  // VTIME
        guard tcsetattr(fd, TCSADRAIN, &raw) == 0 else { return false }
        Self.active = (fd, output, raw, saved)
        Self.send(Self.pasteOn, to: output)
        isOn = true
        return true
    }

    /// A stop from outside (`kill -TSTP`; Ctrl-Z typed at the prompt is a key, since raw
    /// mode turns signal keys off): the terminal is restored while the process is stopped,
    /// and raw again when it continues. `continued` is called then, to redraw.
    public static func handleStops(continued: @escaping @convention(c) () -> Void) {
        onContinue = continued
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in RawMode.stopped() }
        sigemptyset(&action.sa_mask)
        // SA_NODEFER: the handler raises the signal again, to stop for real.
        action.sa_flags = Int32(SA_NODEFER)
        sigaction(SIGTSTP, &action, nil)
    }

    nonisolated(unsafe) private static var onContinue: (@convention(c) () -> Void)?
    nonisolated(unsafe) private static var active: (fd: Int32, output: Int32, raw: termios, saved: termios)?

    private static func stopped() {
        if var state = active {
            send(pasteOff, to: state.output)
            tcsetattr(state.fd, TCSANOW, &state.saved)
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigaction(SIGTSTP, &action, nil)
        raise(SIGTSTP)
        // Continued.
        if var state = active {
            tcsetattr(state.fd, TCSANOW, &state.raw)
            send(pasteOn, to: state.output)
        }
        if let onContinue { handleStops(continued: onContinue) }
        onContinue?()
    }

    public func restore() {
        guard isOn else { return }
        Self.active = nil
        Self.send(Self.pasteOff, to: output)
        var settings = saved
        tcsetattr(fd, TCSADRAIN, &settings)
        isOn = false
    }

    deinit { restore() }
}
