import Foundation
import Testing

/// bash completes `done` and `amend`'s HABIT from the routine file's habit IDs.
struct HabitCompletionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let words: [String]
        let expected: [String]
        var testDescription: String { words.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(words: ["done", "m.rt", ""], expected: ["journal", "meditate", "plan", "run", "shower", "stretch", "walk", "water", "water2"]),
        Case(words: ["done", "m.rt", "wa"], expected: ["walk", "water", "water2"]),
        Case(words: ["done", "--skip", "m.rt", "st"], expected: ["stretch"]),
        Case(words: ["amend", "m.rt", "2026-11-23", "sh"], expected: ["shower"]),
        Case(words: ["done", "missing.rt", "w"], expected: []),
    ]

    @Test(arguments: cases)
    func bashCompletesHabitIDs(_ c: Case) throws {
        let dir = try temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: packageRoot.appendingPathComponent("routines/morning.rt").path, toPath: dir.appendingPathComponent("m.rt").path)
        let script = try execute(["--generate-completion-script", "bash"])
        let scriptFile = try temporaryDirectory().appendingPathComponent("routine.bash")
        try script.stdout.write(to: scriptFile, atomically: true, encoding: .utf8)
        let words = (["routine"] + c.words).map { "'\($0)'" }.joined(separator: " ")
        let driver = """
            PATH='\(routineBinary.deletingLastPathComponent().path)':$PATH
            source '\(scriptFile.path)'
            COMP_WORDS=(\(words))
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            _routine routine "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}" | sort
            """
        let result = try shell("bash -c '\(driver.replacingOccurrences(of: "'", with: "'\\''"))'", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == c.expected)
    }
}
