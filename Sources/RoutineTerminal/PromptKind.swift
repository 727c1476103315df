/// What the run is asking, so that the terminal can offer the right keys.
public enum PromptKind: Sendable, Equatable {
    /// A habit: single keys act at once (Enter or d, s, b, q, ?).
    case habit
    /// A timed habit: as a habit, and `t` starts a countdown of `seconds`.
    case timed(seconds: Int)
    /// A numeric habit: a value is typed; Enter alone takes the target, `target` as shown
    /// (such as "30 reps"), which is then written on the line.
    case amount(target: String)
    /// A question: its options as a menu, `prompt` being the input line under them, the
    /// option at `highlighted` marked first (the answer given before, when back at it).
    /// `printed`: the options stand printed above the input line (not so under a message).
    case menu(options: [String], prompt: String, highlighted: Int, printed: Bool)
    /// A yes-or-no question: y or n answers at once, Enter alone is yes.
    case yesNo
    /// The end of the run: Enter finishes, b goes back, q too finishes.
    case end
    /// Anything else: a line of text.
    case line

    /// The keys that answer at once, without Enter, on an empty line.
    public var singleKeys: Set<Character> {
        switch self {
        case .habit: ["d", "s", "b", "q", "?"]
        case .timed: ["d", "s", "b", "q", "?", "t"]
        case .end: ["b", "q"]
        case .yesNo: ["y", "n", "Y", "N"]
        case .menu, .amount, .line: []
        }
    }
}

/// The options of a question drawn as a menu in place: the highlighted one marked (and in
/// reverse video where colour is allowed), the input line below.
public struct Menu: Sendable {
    public let options: [String]
    public let prompt: String
    public var highlighted = 0
    public let colors: Bool

    public init(options: [String], prompt: String, highlighted: Int = 0, colors: Bool) {
        self.options = options
        self.prompt = prompt
        self.colors = colors
        self.highlighted = min(max(0, highlighted), max(0, options.count - 1))
    }

    /// Whether j and k move the highlight: only when no option could be meant by them.
    public var lettersMove: Bool {
        !options.contains { $0.lowercased().hasPrefix("j") || $0.lowercased().hasPrefix("k") }
    }

    public mutating func move(by step: Int) {
        highlighted = min(options.count - 1, max(0, highlighted + step))
    }

    /// The screen rows the options take at `columns`: a long option wraps.
    public func rows(columns: Int) -> Int {
        options.enumerated().reduce(0) { total, item in
            let width = 4 + String(item.offset + 1).count + 2 + LineEditor.width(item.element)
            return total + max(1, (width + max(1, columns) - 1) / max(1, columns))
        }
    }

    /// Redraws the options above the input line and the input line itself, from the input
    /// line (or from `below` rows under its start, where a long typed line has wrapped to):
    /// everything from the options' first row down is cleared and drawn again, so that one
    /// copy stands at any width. The cursor ends after the prompt. `columns` is the terminal's
    /// width; `marked` false draws no highlight (the menu is left behind as text).
    public func render(columns: Int = 80, below: Int = 0, marked: Bool = true) -> String {
        let up = rows(columns: columns) + below
        return (up > 0 ? "\u{1B}[\(up)A" : "") + drawn(marked: marked)
    }

    /// The menu drawn from the start of the cursor's row down, over whatever was there.
    public func drawn(marked: Bool = true) -> String {
        var out = "\r\u{1B}[J"
        for (k, text) in options.enumerated() {
            if k == highlighted && marked {
                out += colors ? "  \u{1B}[7m> \(k + 1). \(text)\u{1B}[0m" : "  > \(k + 1). \(text)"
            } else {
                out += "    \(k + 1). \(text)"
            }
            out += "\n"
        }
        return out + prompt
    }
}
