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

    init(fd: Int32) {
        self.fd = fd
        raw = RawMode(fd: fd)
    }

    /// `ready` shows the prompt: called once the terminal is raw, so that no key typed after
    /// the prompt appears is echoed by the terminal itself.
    func readLine(limit: Int, kind: PromptKind = .line, colors: Bool = false, ready: () -> Void = {}) -> RunLine {
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
            menu = Menu(options: options, prompt: prompt, colors: colors)
            writeAll(1, Array(menu!.render().utf8))
        }
        func answer(_ text: String) -> RunLine {
            writeAll(1, Array((text + "\n").utf8))
            return .line(text)
        }
        while true {
            if Interrupts.happened { return .interrupted }
            for key in readKeys() {
                // Keys that answer at once, on an empty line.
                if editor.text.isEmpty {
                    if case .text(let typed) = key, typed.count == 1, let c = typed.first, kind.singleKeys.contains(c) {
                        return answer(String(c))
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
                                writeAll(1, Array(current.render().utf8))
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
                case .refused:
                    writeAll(1, Array("\u{7}".utf8))
                case .nothing:
                    break
                }
            }
        }
    }

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
