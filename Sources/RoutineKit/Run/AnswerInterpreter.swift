/// What one line typed (or scripted) at a node means.
public enum RunInput: Hashable, Sendable {
    case decision(RunDecision)
    case back, quit, help
    /// Not an answer here; the message says why, and the same node is asked again.
    case invalid(String)
}

/// The run's vocabulary, the same for a person at a terminal, a script and a test file: `done`
/// (or an empty line; a numeric habit's target), `skip`, `back`, `quit`, `?`, an option's
/// number or text, a habit's value.
/// It never guesses: an answer that could mean two things, or nothing, is refused.
public enum AnswerInterpreter {
    public static func interpret(_ line: String, at node: RoutineNode) -> RunInput {
        interpret(line, at: AskedNode(node))
    }

    public static func interpret(_ line: String, at node: AskedNode) -> RunInput {
        let text = line.trimmingWhitespace()
        let word = text.lowercased()
        if node.isQuestion { return interpretAnswer(text, word: word, options: node.options) }
        if let command = command(word) { return command }
        switch word {
        case "s", "skip": return .decision(.skip)
        case "", "d", "done":
            // Done as planned: a numeric habit's target, as Enter alone at a terminal.
            return .decision(.done(value: node.target?.amount))
        default:
            guard let target = node.target else {
                return .invalid("'\(text)' is not an answer here: Enter or d: done · s: skip · b: back · q: quit")
            }
            guard let value = NumberText.parse(Substring(text)), RecordedValues.amountProblem(value) == nil else {
                return .invalid("'\(text)' is not an amount: enter a number such as 8 or 2.5 (target \(describe(target)))")
            }
            return .decision(.done(value: value))
        }
    }

    public static func describe(_ target: TargetValue) -> String {
        target.boundText + (target.unit.map { " " + $0 } ?? "")
    }

    private static func command(_ word: String) -> RunInput? {
        switch word {
        case "b", "back": .back
        case "q", "quit": .quit
        case "?", "h", "help": .help
        default: nil
        }
    }

    /// What an answer line names among a question's options: one option (by its number, its
    /// text or a unique start of it), several, or none.
    public enum OptionMatch: Equatable, Sendable {
        case option(Int)
        /// The options it could mean: a few of them, named in ``named``, and how many in all.
        case ambiguous(named: [Int], count: Int)
        case none
    }

    /// The option `line` names, read as a run reads an answer (a number is always a position).
    public static func option(_ line: String, in options: OptionIndex) -> OptionMatch {
        let text = line.trimmingWhitespace()
        guard !text.isEmpty else { return .none }
        if text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let n = Int(text), n >= 1, n <= options.count else { return .none }
            return .option(n - 1)
        }
        let word = text.lowercased()
        if let exact = options.exact(word) { return .option(exact) }
        let matches = options.prefixed(word)
        switch matches.count {
        case 0: return .none
        case 1: return .option(matches.named[0])
        default: return .ambiguous(named: matches.named, count: matches.count)
        }
    }

    private static func interpretAnswer(_ text: String, word: String, options: OptionIndex) -> RunInput {
        let range = "1 to \(options.count)"
        if text.isEmpty { return .invalid("choose an option: a number from \(range), or an option's text") }
        // A number is always a position, whatever the options read (`check` warns when an
        // option written as a number is not at that position); an option's own text wins over
        // commands, so an option called "b" can be chosen.
        if text.allSatisfy({ $0.isASCII && $0.isNumber }) || options.exact(word) != nil {
            guard case .option(let k) = option(text, in: options) else { return .invalid("there is no option \(text): choose \(range)") }
            return .decision(.option(k))
        }
        if let command = command(word) { return command }
        if word == "s" || word == "skip" { return .invalid("a question cannot be skipped: choose \(range)") }
        switch option(text, in: options) {
        case .option(let k): return .decision(.option(k))
        case .none: return .invalid("'\(text)' is not an option: choose \(range), or type an option's text")
        case .ambiguous(let named, let count):
            let names = named.map { "'\(options.texts[$0])'" }.joined(separator: " or ")
            let more = count > 4 ? " (and \(count - 4) more)" : ""
            return .invalid("'\(text)' could be \(names)\(more): type more of it, or its number")
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
