import RoutineKit
import RoutineTerminal

#if canImport(Glibc)
import Glibc
#endif

/// Reads one answer at a terminal with the line editor: the terminal in raw mode only while a
/// line is typed, keys decoded (a cursor key moves the cursor, it is never echoed as `^[[A`),
/// the line redrawn in place. Ctrl-C interrupts, Ctrl-D on an empty line ends the input,
/// Ctrl-Z suspends with the terminal restored and takes it back on `fg`. Every byte from the
/// terminal comes through ``nextKeys(timeout:)``: a paste is typed text there, so that nothing
/// pasted decides anything, while keys that arrive together are keys, in order. The keys of a
/// read after the one that answers are dropped: they were sent before the next prompt showed
/// (the Enter after a digit that picked an option). A terminal that is gone
/// (end of file or an error on it, or SIGHUP) interrupts the run.
final class TerminalLineReader {
    let fd: Int32
    private let raw: RawMode
    private var decoder = KeyDecoder()
    /// When the last paste (or several keys with text) was read: a read that follows it
    /// closely is the rest of it.
    private var lastPaste: ContinuousClock.Instant?
    /// Keys of a read not handled yet, for the next ``nextKeys(timeout:)`` (those after the
    /// `t` that starts a countdown are the countdown's).
    private var queued: [Key] = []
    /// How long the countdown ran, its pauses left out (at the countdown's speed), when it
    /// gave the last answer; nil when the answer was typed.
    private(set) var countdownSeconds: Double?

    init(fd: Int32) {
        self.fd = fd
        raw = RawMode(fd: fd, output: 1)
    }

    /// `ready` shows the prompt: called once the terminal is raw, so that no key typed after
    /// the prompt appears is echoed by the terminal itself.
    func readLine(limit: Int, kind: PromptKind = .line, colors: Bool = false, ready: () -> Void = {}) -> RunLine {
        countdownSeconds = nil
        queued = []
        guard raw.enable() else {
            let gone = errno == EIO || errno == ENXIO
            ready()
            return gone ? hangUp() : .endOfInput
        }
        defer { raw.restore() }
        ready()
        var editor = LineEditor()
        var shown = 0
        var menu: Menu?
        // The countdown's time so far at this prompt: Escape keeps it, `t` goes on from it.
        var counted = 0.0
        if case .menu(let options, let prompt, let highlighted, let printed) = kind {
            let candidate = Menu(options: options, prompt: prompt, highlighted: highlighted, colors: colors)
            // A terminal too small to hold the menu gets the options as printed, and a line.
            if candidate.rows(columns: Terminal.columns(fd: 1)) + 2 <= Terminal.rows(fd: 1) {
                menu = candidate
                // Over the options printed above; under a message, below it.
                screen(printed ? candidate.render(columns: Terminal.columns(fd: 1)) : candidate.drawn())
            }
        }
        /// Redraws the menu from wherever the cursor is on the input line.
        func redraw(_ menu: Menu, marked: Bool = true) {
            let columns = max(1, Terminal.columns(fd: 1))
            let below = (LineEditor.width(menu.prompt) + shown) / columns
            screen(menu.render(columns: columns, below: below, marked: marked))
            let (output, column) = editor.render(from: 0)
            screen(output)
            shown = column
        }
        /// The line is taken: a menu left behind is plain text, its highlight gone, and the
        /// line shows what was answered (`echo`, or a single key's text).
        func answer(_ text: String, echo: String? = nil) -> RunLine {
            if let menu { redraw(menu, marked: false) }
            if let said = echo ?? (editor.text.isEmpty ? text : nil) {
                screen((shown > 0 ? "\u{1B}[\(shown)D" : "") + "\u{1B}[K" + said)
            }
            screen("\n")
            return Interrupts.happened ? .interrupted : .line(text)
        }
        while true {
            if Interrupts.happened { return .interrupted }
            if Interrupts.resized != 0 {
                Interrupts.resized = 0
                // The terminal has reflowed the menu's rows to the new width: it is drawn again
                // from its first row, over itself.
                if let current = menu, current.rows(columns: Terminal.columns(fd: 1)) + 2 <= Terminal.rows(fd: 1) {
                    redraw(current)
                } else {
                    // Too short for the menu now: its rows stay as they are, the answer is typed
                    // (as on a terminal too short from the start); a copy would scroll away.
                    menu = nil
                    let (output, column) = editor.render(from: shown)
                    screen(output)
                    shown = column
                }
            }
            guard let keys = nextKeys(timeout: -1) else { return hangUp() }
            for (index, key) in keys.enumerated() {
                if Interrupts.happened { return .interrupted }
                // Keys that answer at once, on an empty line.
                if editor.text.isEmpty {
                    if case .text(let typed) = key, typed.count == 1, let c = typed.first, kind.singleKeys.contains(c) {
                        guard c == "t", case .timed(let seconds) = kind else { return answer(String(c)) }
                        queued = Array(keys[(index + 1)...])
                        if let line = countdown(seconds, counted: &counted) { return line }
                        // The countdown took the rest of the read.
                        break
                    }
                    if var current = menu {
                        var moves = true
                        switch key {
                        case .up: current.move(by: -1)
                        case .down: current.move(by: 1)
                        case .text("j") where current.lettersMove: current.move(by: 1)
                        case .text("k") where current.lettersMove: current.move(by: -1)
                        case .enter:
                            screen("\n")
                            return Interrupts.happened ? .interrupted : .line(String(current.highlighted + 1))
                        case .text(let typed) where current.options.count <= 9 && typed.count == 1 && typed.first!.isASCII && typed.first!.isNumber:
                            return answer(typed)
                        default:
                            moves = false
                        }
                        if moves {
                            if current.highlighted != menu!.highlighted {
                                menu = current
                                redraw(current)
                            }
                            continue
                        }
                    }
                }
                guard let key = fitting(key, into: limit - editor.text.utf8.count) else {
                    screen("\u{7}")
                    continue
                }
                switch editor.apply(key) {
                case .edited:
                    let (output, column) = editor.render(from: shown)
                    screen(output)
                    shown = column
                case .submit(let text):
                    if case .amount(let target) = kind, text.allSatisfy(\.isWhitespace) {
                        // Enter alone records the target: the line says so.
                        return answer(text, echo: target)
                    }
                    return answer(text)
                case .interrupt:
                    screen("\n")
                    Interrupts.flag = SIGINT
                    return .interrupted
                case .endOfInput:
                    screen("\n")
                    return .endOfInput
                case .suspend:
                    raw.restore()
                    kill(getpid(), SIGTSTP)
                    // Back after `fg`: raw again, and the line as it was, under what the shell
                    // wrote meanwhile (a menu drawn afresh there).
                    raw.enable()
                    Interrupts.resized = 0
                    let (output, column) = editor.render(from: 0)
                    screen("\r\n" + (menu?.drawn() ?? "  > ") + output)
                    shown = column
                case .refused where key == .invalid:
                    // Said after the line, not echoed; the next redraw clears it.
                    screen("\u{7}\u{1B}[s  (not UTF-8 text: refused)\u{1B}[u")
                case .refused:
                    screen("\u{7}")
                case .nothing:
                    break
                }
            }
        }
    }

    /// `key`, its text cut to the `room` bytes left on the line (the bell rings for the
    /// rest, after it is typed); nil when not one character fits.
    private func fitting(_ key: Key, into room: Int) -> Key? {
        let text: String
        switch key {
        case .text(let typed), .paste(let typed): text = typed
        default: return key
        }
        guard text.utf8.count > room else { return key }
        var used = 0
        let fit = text.prefix {
            used += $0.utf8.count
            return used <= room
        }
        guard !fit.isEmpty else { return nil }
        screen("\u{7}")
        return .paste(String(fit))
    }

    /// The terminal is gone: the run is interrupted as by SIGHUP, which may follow.
    func hangUp() -> RunLine {
        Interrupts.noteHangUp()
        return .interrupted
    }

    /// Writes to the terminal; a terminal that is gone takes nothing and interrupts the run
    /// (the run is then recorded as interrupted, never left half-written by an exit here).
    func screen(_ text: String) {
        let code = writeFully(1, Array(text.utf8))
        if code != 0 { Interrupts.noteHangUp() }
    }

    /// The keys of the next read, waiting up to `timeout` ms (-1: until a key or a signal
    /// comes); [] when nothing came. A lone Escape is told from a sequence by a 50 ms pause.
    /// nil when the terminal is gone: end of file, or an error other than a signal's.
    func nextKeys(timeout: Int32) -> [Key]? {
        if !queued.isEmpty {
            defer { queued = [] }
            return queued
        }
        let waiting = decoder.isWaiting
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, waiting ? (timeout < 0 ? 50 : min(50, timeout)) : timeout)
        if ready == 0 { return waiting ? decoder.flush() : [] }
        if ready < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &bytes, bytes.count)
        if n < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
        // In raw mode Ctrl-D is a byte: no bytes at all is a terminal that hung up.
        if n == 0 { return nil }
        let now = ContinuousClock.now
        let continuing = lastPaste.map { now - $0 < .milliseconds(50) } ?? false
        let keys = decoder.read(bytes[..<n], continuingPaste: continuing)
        // Several keys with text may be the start of a paste cut short by the read: what follows
        // closely is typed text too (a Ctrl-Z among the bytes suspends nothing).
        let typing = keys.count > 1 && keys.contains { if case .text = $0 { true } else { false } }
        lastPaste = decoder.lastReadWasPaste || typing ? now : nil
        return keys
    }

    /// A countdown of `seconds`, drawn in place as mm:ss: Space pauses and resumes, Enter
    /// marks the habit done early, Escape goes back to the prompt, Ctrl-C interrupts; at zero
    /// the bell rings and Enter marks it done. Returns the answer, or nil when the person went
    /// back to the prompt. `counted` is the time it ran before at this prompt: it goes on from
    /// there, and keeps the time for a next start. The time it ran in all, pauses excluded, is
    /// kept in ``countdownSeconds``.
    private func countdown(_ seconds: Int, counted: inout Double) -> RunLine? {
        let speed = TimerClock.speed
        var left = max(0, Double(seconds) - counted)
        var ran = counted
        var paused = false
        var last = ContinuousClock.now
        var rang = left <= 0
        var drawnWidth = 0
        func draw() {
            let whole = max(0, Int(left.rounded(.up)))
            let time = format2(whole / 60) + ":" + format2(whole % 60)
            let state =
                left <= 0
                ? "time is up · Enter: done · Esc: back"
                : paused ? "paused · Space: go on · Enter: done · Esc: back" : "Space: pause · Enter: done early · Esc: back"
            // One row whatever the width: a line that wrapped would not be redrawn in place.
            var room = Terminal.columns(fd: 1) - 1
            let line = "  ⏱ \(time)  \(state)".prefix {
                room -= LineEditor.width(CollectionOfOne($0))
                return room >= 0
            }
            drawnWidth = LineEditor.width(line)
            screen("\r\u{1B}[K" + line)
        }
        draw()
        while true {
            if Interrupts.happened { return .interrupted }
            guard let keys = nextKeys(timeout: 200) else { return hangUp() }
            if Interrupts.resized != 0 {
                Interrupts.resized = 0
                // A narrower terminal has wrapped the line: back to its first row, then cleared.
                let up = max(0, drawnWidth - 1) / max(1, Terminal.columns(fd: 1))
                screen((up > 0 ? "\u{1B}[\(up)A" : "") + "\r\u{1B}[J")
            }
            let now = ContinuousClock.now
            let step = (now - last) / .seconds(1) * speed
            // The time on the countdown's clock while it was not paused, the overtime included.
            if !paused { ran += step }
            if !paused, left > 0 {
                left -= step
                if left <= 0, !rang {
                    rang = true
                    left = 0
                    screen("\u{7}")
                }
            }
            last = now
            for key in keys {
                switch key {
                case .enter:
                    screen("\n")
                    countdownSeconds = ran
                    return Interrupts.happened ? .interrupted : .line("d")
                case .text(" "):
                    paused.toggle()
                case .control("c"):
                    screen("\n")
                    Interrupts.flag = SIGINT
                    return .interrupted
                case .escape:
                    counted = ran
                    screen("\r\u{1B}[K  done? (t: timer) > ")
                    return nil
                default:
                    break
                }
            }
            draw()
        }
    }

    private func format2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

/// How fast the countdown's clock runs. Tests speed it up with ROUTINE_TEST_CLOCK_SPEED (a
/// factor, such as 60: a minute a second); it is read only to make tests quick, and a real
/// run leaves it unset.
enum TimerClock {
    static let speed: Double = {
        guard let text = getenv("ROUTINE_TEST_CLOCK_SPEED").map({ String(cString: $0) }), let value = Double(text), value > 0 else { return 1 }
        return value
    }()
}
