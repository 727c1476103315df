import Foundation
import Testing

/// The bash completion that `--generate-completion-script bash` writes, run by bash itself
/// the way bash-completion calls it: file arguments in a folder of files of every kind, and
/// `done` and `amend`'s HABIT from the routine file's habit IDs.
struct CompletionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let words: [String]
        let expected: [String]
        var testDescription: String { words.joined(separator: " ") }
    }

    static let fileCases: [Case] = [
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

    static let habitCases: [Case] = [
        Case(words: ["done", "m.rt", ""], expected: ["journal", "meditate", "plan", "run", "shower", "stretch", "walk", "water", "water2"]),
        Case(words: ["done", "m.rt", "wa"], expected: ["walk", "water", "water2"]),
        Case(words: ["done", "--skip", "m.rt", "st"], expected: ["stretch"]),
        Case(words: ["amend", "m.rt", "2026-11-23", "sh"], expected: ["shower"]),
        Case(words: ["done", "missing.rt", "w"], expected: []),
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

    @Test(arguments: fileCases)
    func bashCompletesFileArguments(_ c: Case) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["a.rt", "b.yaml", "c.yml", "d.txt", "e.dot", "f.sqlite", "g.jsonl"] {
            let contents = name == "a.rt" ? Data(Self.routine.utf8) : Data()
            #expect(FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: contents))
        }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        #expect(try complete(c.words, in: dir) == c.expected)
    }

    @Test(arguments: habitCases)
    func bashCompletesHabitIDs(_ c: Case) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            atPath: packageRoot.appendingPathComponent("routines/morning.rt").path, toPath: dir.appendingPathComponent("m.rt").path)
        #expect(try complete(c.words, in: dir) == c.expected)
    }

    /// What bash offers for the last of `words` typed after `routine`, sorted, in `dir`.
    private func complete(_ words: [String], in dir: URL) throws -> [String] {
        let script = try execute(["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        // The script lives elsewhere, so that it is not among the files offered.
        let scriptFolder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scriptFolder) }
        let scriptFile = scriptFolder.appendingPathComponent("routine.bash")
        try script.stdout.write(to: scriptFile, atomically: true, encoding: .utf8)
        let typed = (["routine"] + words).map { "'\($0)'" }.joined(separator: " ")
        // The script asks `routine` itself for IDs, by the name typed: the one under test.
        let bin = routineBinary.deletingLastPathComponent().path
        let driver = """
            PATH=\(shellQuoted(bin)):"$PATH"
            source \(shellQuoted(scriptFile.path))
            COMP_WORDS=(\(typed))
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            _routine routine "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}" | sort
            """
        let result = try shell("bash -c \(shellQuoted(driver))", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    private func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
