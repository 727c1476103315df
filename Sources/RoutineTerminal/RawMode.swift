#if canImport(Glibc)
import Glibc
#endif

/// The terminal in raw mode (no line buffering, no echo, no signal keys) while a line is
/// edited, and restored on every way out: ``restore()`` is safe to call from a signal
/// handler's aftermath and more than once.
public final class RawMode: @unchecked Sendable {
    private let fd: Int32
    private var saved = termios()
    public private(set) var isOn = false

    public init(fd: Int32) { self.fd = fd }

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
        Self.active = (fd, raw, saved)
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
    nonisolated(unsafe) private static var active: (fd: Int32, raw: termios, saved: termios)?

    private static func stopped() {
        if var state = active { tcsetattr(state.fd, TCSANOW, &state.saved) }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigaction(SIGTSTP, &action, nil)
        raise(SIGTSTP)
        // Continued.
        if var state = active { tcsetattr(state.fd, TCSANOW, &state.raw) }
        if let onContinue { handleStops(continued: onContinue) }
        onContinue?()
    }

    public func restore() {
        guard isOn else { return }
        Self.active = nil
        var settings = saved
        tcsetattr(fd, TCSADRAIN, &settings)
        isOn = false
    }

    deinit { restore() }
}
