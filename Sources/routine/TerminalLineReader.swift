import RoutineKit
import RoutineTerminal

#if canImport(Glibc)
import Glibc
#endif

/// Reads one answer at a terminal with the line editor: the terminal in raw mode only while a
/// line is typed, keys decoded (a cursor key moves the cursor, it is never echoed as `^[[A`),
/// the line redrawn in place. Ctrl-C interrupts, Ctrl-D on an empty line ends the input,
/// Ctrl-Z suspends with the terminal restored and takes it back on `fg`.
final class TerminalLineReader {
    private let fd: Int32
    private let raw: RawMode
    private var decoder = KeyDecoder()
    /// How long the countdown ran, its pauses left out, when it gave the last answer.
    private(set) var countdownSeconds: Double?

    init(fd: Int32) {
        self.fd = fd
        raw = RawMode(fd: fd)
    }

    /// `ready` shows the prompt: called once the terminal is raw, so that no key typed after
    /// the prompt appears is echoed by the terminal itself.
    func readLine(limit: Int, kind: PromptKind = .line, colors: Bool = false, ready: () -> Void = {}) -> RunLine {
        countdownSeconds = nil
        guard raw.enable() else {
            ready()
            return .endOfInput
        }
        defer { raw.restore() }
        ready()
        var editor = LineEditor()
        var shown = 0
        var menu: Menu?
        if case .menu(let options, let prompt) = kind {
            let candidate = Menu(options: options, prompt: prompt, colors: colors)
            // A terminal too small to hold the menu gets the options as printed, and a line.
            if candidate.rows(columns: Terminal.columns(fd: 1)) + 2 <= Terminal.rows(fd: 1) {
                menu = candidate
                writeAll(1, Array(candidate.render(columns: Terminal.columns(fd: 1)).utf8))
            }
        }
        func answer(_ text: String) -> RunLine {
            writeAll(1, Array((text + "\n").utf8))
            return .line(text)
        }
        while true {
            if Interrupts.happened { return .interrupted }
            if Interrupts.resized != 0 {
                Interrupts.resized = 0
                // A menu's old lines may have reflowed: it is drawn afresh below them, at the new
                // width; a plain line is redrawn where it is.
                var fresh = ""
                if let menu {
                    let columns = Terminal.columns(fd: 1)
                    fresh = "\n" + String(repeating: "\n", count: menu.rows(columns: columns)) + menu.render(columns: columns)
                    shown = 0
                }
                let (output, column) = editor.render(from: shown)
                writeAll(1, Array((fresh + output).utf8))
                shown = column
            }
            for key in readKeys() {
                // Keys that answer at once, on an empty line.
                if editor.text.isEmpty {
                    if case .text(let typed) = key, typed.count == 1, let c = typed.first, kind.singleKeys.contains(c) {
                        guard c == "t", case .timed(let seconds) = kind else { return answer(String(c)) }
                        if let line = countdown(seconds) { return line }
                        continue
                    }
                    if var current = menu {
                        var moves = true
                        switch key {
                        case .up: current.move(by: -1)
                        case .down: current.move(by: 1)
                        case .text(let typed) where current.lettersMove && typed.allSatisfy({ $0 == "j" || $0 == "k" }):
                            // Keys typed quickly arrive together: each moves once.
                            for c in typed { current.move(by: c == "j" ? 1 : -1) }
                        case .enter:
                            writeAll(1, Array("\n".utf8))
                            return .line(String(current.highlighted + 1))
                        case .text(let typed) where current.options.count <= 9 && typed.count == 1 && typed.first!.isASCII && typed.first!.isNumber:
                            return answer(typed)
                        default:
                            moves = false
                        }
                        if moves {
                            if current.highlighted != menu!.highlighted {
                                menu = current
                                writeAll(1, Array(current.render(columns: Terminal.columns(fd: 1)).utf8))
                            }
                            continue
                        }
                    }
                }
                switch editor.apply(key) {
                case .edited:
                    if editor.text.utf8.count > limit {
                        _ = editor.apply(.backspace)
                        writeAll(1, Array("\u{7}".utf8))
                        continue
                    }
                    let (output, column) = editor.render(from: shown)
                    writeAll(1, Array(output.utf8))
                    shown = column
                case .submit(let text):
                    writeAll(1, Array("\n".utf8))
                    return .line(text)
                case .interrupt:
                    writeAll(1, Array("\n".utf8))
                    Interrupts.flag = SIGINT
                    return .interrupted
                case .endOfInput:
                    writeAll(1, Array("\n".utf8))
                    return .endOfInput
                case .suspend:
                    raw.restore()
                    kill(getpid(), SIGTSTP)
                    // Back after `fg`: raw again, and the line as it was.
                    raw.enable()
                    let (output, column) = editor.render(from: 0)
                    writeAll(1, Array(("\r\n  > " + output).utf8))
                    shown = column
                case .refused where key == .invalid:
                    // Said after the line, not echoed; the next redraw clears it.
                    writeAll(1, Array("\u{7}\u{1B}[s  (not UTF-8 text: refused)\u{1B}[u".utf8))
                case .refused:
                    writeAll(1, Array("\u{7}".utf8))
                case .nothing:
                    break
                }
            }
        }
    }

    /// A countdown of `seconds`, drawn in place as mm:ss: Space pauses and resumes, Enter
    /// marks the habit done early, Ctrl-C interrupts; at zero the bell rings and Enter marks it
    /// done. Returns the answer, or nil when the person went back to the prompt (Escape).
    private func countdown(_ seconds: Int) -> RunLine? {
        let speed = TimerClock.speed
        var left = Double(seconds)
        var paused = false
        var last = ContinuousClock.now
        var rang = false
        // The time on the countdown's clock while it was not paused, the overtime included.
        var ran = 0.0
        func draw() {
            let whole = max(0, Int(left.rounded(.up)))
            let time = format2(whole / 60) + ":" + format2(whole % 60)
            let state = left <= 0 ? "time is up · Enter: done" : paused ? "paused · Space: go on · Enter: done" : "Space: pause · Enter: done early"
            writeAll(1, Array("\r\u{1B}[K  ⏱ \(time)  \(state)".utf8))
        }
        draw()
        while true {
            if Interrupts.happened { return .interrupted }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 200)
            let now = ContinuousClock.now
            if !paused { ran += (now - last) / .seconds(1) * speed }
            if !paused, left > 0 {
                left -= (now - last) / .seconds(1) * speed
                if left <= 0, !rang {
                    rang = true
                    left = 0
                    writeAll(1, Array("\u{7}".utf8))
                }
            }
            last = now
            if ready > 0 {
                for key in readKeys() {
                    switch key {
                    case .enter:
                        writeAll(1, Array("\n".utf8))
                        countdownSeconds = ran
                        return .line("d")
                    case .text(" "):
                        paused.toggle()
                    case .control("c"):
                        writeAll(1, Array("\n".utf8))
                        Interrupts.flag = SIGINT
                        return .interrupted
                    case .escape:
                        writeAll(1, Array("\r\u{1B}[K  done? (t: timer) > ".utf8))
                        return nil
                    default:
                        break
                    }
                }
            }
            draw()
        }
    }

    private func format2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// The keys of the next read; a lone Escape is told from a sequence by a 50 ms pause.
    private func readKeys() -> [Key] {
        if decoder.isWaiting {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 50) == 0 { return decoder.flush() }
        }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &bytes, bytes.count)
        guard n > 0 else {
            if n == 0 { return [.control("d")] }
            return []
        }
        return decoder.feed(bytes[..<n])
    }
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
