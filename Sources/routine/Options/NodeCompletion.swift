import ArgumentParser
import RoutineKit

extension CompletionKind {
    /// The habit IDs of the routine file named on the command line.
    static var habitIDs: CompletionKind { .custom { words, _, prefix in NodeCompletion.ids(questions: false, words: words, prefix: prefix) } }
    /// The question IDs of the routine file named on the command line.
    static var questionIDs: CompletionKind { .custom { words, _, prefix in NodeCompletion.ids(questions: true, words: words, prefix: prefix) } }
}

/// Completes a node ID from the routine file among the words typed so far: the first word
/// that names a routine file that can be read. Its IDs are offered as they are, even when the
/// routine has errors elsewhere, since a half-written routine is what one completes against.
enum NodeCompletion {
    static func ids(questions: Bool, words: [String], prefix: String) -> [String] {
        for word in words {
            let path = unquoted(word)
            guard path.hasSuffix(".rt") || path.hasSuffix(".yaml") || path.hasSuffix(".yml"),
                case .success(let file) = InputReader.read(path)
            else { continue }
            let routine = RoutineLoader.load(file).routine
            return (0..<routine.nodeCount).filter { routine.isQuestion($0) == questions }.map(routine.id(of:)).filter { $0.hasPrefix(prefix) }
        }
        return []
    }

    /// A shell word as the shell would read it, for the plain quoting a file name gets.
    static func unquoted(_ word: String) -> String {
        if word.count >= 2, let first = word.first, first == "'" || first == "\"", word.last == first { return String(word.dropFirst().dropLast()) }
        return word.replacing("\\ ", with: " ")
    }
}
