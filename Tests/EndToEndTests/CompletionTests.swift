import Foundation
import Testing

/// The bash completion that `--generate-completion-script bash` writes, run by bash itself
/// the way bash-completion calls it, in a folder of files of every kind.
struct CompletionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let words: [String]
        let expected: [String]
        var testDescription: String { words.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(words: ["check", ""], expected: ["a.rt", "b.yaml", "c.yml", "sub"]),
        Case(words: ["run", ""], expected: ["a.rt", "b.yaml", "c.yml", "sub"]),
        Case(words: ["run", "a.rt", "--answers", ""], expected: ["a.rt", "b.yaml", "c.yml", "d.txt", "e.dot", "f.sqlite", "g.jsonl", "sub"]),
        Case(words: ["run", "a.rt", "--history", ""], expected: ["f.sqlite", "sub"]),
        Case(words: ["graph", ""], expected: ["a.rt", "b.yaml", "c.yml", "sub"]),
        Case(words: ["graph", "a.rt", "-o", ""], expected: ["e.dot", "sub"]),
        Case(words: ["paths", ""], expected: ["a.rt", "b.yaml", "c.yml", "sub"]),
        Case(words: ["convert", ""], expected: ["a.rt", "b.yaml", "c.yml", "sub"]),
        Case(words: ["fmt", ""], expected: ["a.rt", "sub"]),
        Case(words: ["log", ""], expected: ["a.rt", "b.yaml", "c.yml", "sub"]),
        Case(words: ["history", "import", ""], expected: ["g.jsonl", "sub"]),
        Case(words: ["stats", "a.rt", "--habit", ""], expected: ["rest", "run", "tea"]),
        Case(words: ["stats", "a.rt", "--habit", "r"], expected: ["rest", "run"]),
        Case(words: ["stats", "a.rt", "--explain", "t"], expected: ["tea"]),
        Case(words: ["stats", "a.rt", "--question", ""], expected: ["mood"]),
    ]

    /// The routine `a.rt` holds, for the completion of IDs.
    static let routine = """
        routine "A"
        habit tea "Tea" -> mood
        question mood "How?"
          "Good" -> run
          "Tired" -> rest
        habit run "Run"
        habit rest "Rest"

        """

    @Test(arguments: cases)
    func bashCompletesFileArguments(_ c: Case) throws {
        let dir = try temporaryDirectory()
        for name in ["a.rt", "b.yaml", "c.yml", "d.txt", "e.dot", "f.sqlite", "g.jsonl"] {
            let contents = name == "a.rt" ? Data(Self.routine.utf8) : Data()
            #expect(FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: contents))
        }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let script = try execute(["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        // The script lives elsewhere, so that it is not among the files offered.
        let scriptFile = try temporaryDirectory().appendingPathComponent("routine.bash")
        try script.stdout.write(to: scriptFile, atomically: true, encoding: .utf8)
        let words = (["routine"] + c.words).map { "'\($0)'" }.joined(separator: " ")
        // The script asks `routine` itself for IDs, by the name typed: the one under test.
        let bin = routineBinary.deletingLastPathComponent().path
        let driver = """
            PATH=\(shellQuoted(bin)):"$PATH"
            source \(shellQuoted(scriptFile.path))
            COMP_WORDS=(\(words))
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            _routine routine "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}" | sort
            """
        let result = try shell("bash -c \(shellQuoted(driver))", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == c.expected)
        try? FileManager.default.removeItem(at: dir)
        try? FileManager.default.removeItem(at: scriptFile.deletingLastPathComponent())
    }

    private func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
