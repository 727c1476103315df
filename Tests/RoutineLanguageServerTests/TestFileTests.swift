import RoutineKit
import Testing

@testable import RoutineLanguageServer

/// Test files (`.rt.test`) in the language server: diagnostics and completion.
struct TestFileTests {
    static let routine = """
        routine "T"
        habit a "A" -> q
        question q "Q?"
          "yes" -> r
          "no" -> end
        question r "R?"
          "red" -> b
          "blue" -> b
        habit b "B" target 3 -> c
        habit c "C"

        """
    static let testURI = "file:///nowhere/t.rt.test"

    /// A server with the routine open (it exists nowhere on disk) and then the test file.
    func server(_ tests: String) -> TestServer {
        let t = TestServer(text: Self.routine, uri: "file:///nowhere/t.rt")
        open(t, tests)
        return t
    }

    func open(_ t: TestServer, _ text: String, version: Int = 1) {
        t.server.handle([
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": [
                "textDocument": ["uri": .string(Self.testURI), "languageId": "routine-test", "version": JSON(version), "text": .string(text)]
            ],
        ])
    }

    func diagnostics(_ t: TestServer) -> [JSON] {
        t.messages.last { $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"] == .string(Self.testURI) }?["params"]?[
            "diagnostics"]?.array ?? []
    }

    @Test(arguments: [
        Named(name: "a parse error", value: ("case x\n  expekt habit a done\n", "E401", 1)),
        Named(name: "an unknown node", value: ("case x\n  do d\n  expect habit z done\n", "E405", 2)),
        Named(name: "an unknown option", value: ("case x\n  do d\n  answer maybe\n", "E405", 2)),
        Named(name: "an option of another question", value: ("case x\n  do d\n  answer red\n", "E407", 2)),
        Named(name: "'do' at a question", value: ("case x\n  do d\n  do d\n", "E407", 2)),
    ])
    func diagnosticsOfTestFiles(_ c: Named<(String, String, Int)>) {
        let t = server(c.value.0)
        let found = diagnostics(t)
        #expect(found.map { $0["code"] } == [.string(c.value.1)])
        #expect(found.first?["range"]?["start"]?["line"] == JSON(c.value.2))
    }

    @Test func aCleanTestFileHasNoDiagnostics() {
        let t = server("case x\n  do d\n  expect question q\n  answer yes\n  answer red\n  do 3\n")
        #expect(t.messages.contains { $0["params"]?["uri"] == .string(Self.testURI) })
        #expect(diagnostics(t).isEmpty)
    }

    @Test func anEditToTheRoutineChecksItsTestFilesAgain() {
        let t = server("case x\n  do d\n  answer yes\n  answer red\n")
        #expect(diagnostics(t).isEmpty)
        let changed = Self.routine.replacingOccurrences(of: "\"red\"", with: "\"green\"")
        t.server.handle([
            "jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": ["textDocument": ["uri": "file:///nowhere/t.rt", "version": 2], "contentChanges": [["text": .string(changed)]]],
        ])
        #expect(diagnostics(t).map { $0["code"] } == ["E405"])
    }

    func labels(_ t: TestServer, line: Int, character: Int) -> [String] {
        let result = t.request(
            "textDocument/completion",
            ["textDocument": ["uri": .string(Self.testURI)], "position": ["line": JSON(line), "character": JSON(character)]])
        return result.array?.compactMap { $0["label"]?.string } ?? []
    }

    @Test(arguments: [
        Named(name: "keywords at a line's start", value: ("case x\n  ", ["case", "date", "weekday", "history", "answer", "do", "expect"])),
        Named(name: "habit IDs", value: ("case x\n  expect habit ", ["a", "b", "c"])),
        Named(name: "question IDs", value: ("case x\n  expect eventually question ", ["q", "r"])),
        Named(name: "numeric habits for value", value: ("case x\n  expect value ", ["b"])),
        Named(name: "results", value: ("case x\n  expect habit a ", ["done", "skipped", "not-scheduled"])),
        Named(name: "pass reasons", value: ("case x\n  expect habit a not-scheduled ", ["done-by-log", "done-by-run"])),
        Named(name: "actions", value: ("case x\n  do ", ["d", "s", "b", "q"])),
        Named(name: "the question asked first", value: ("case x\n  do d\n  answer yes\n  answer ", ["red", "blue", "yes", "no"])),
        Named(name: "nothing in a comment", value: ("case x\n  # expect habit ", [])),
    ])
    func completion(_ c: Named<(String, [String])>) {
        let t = server(c.value.0)
        let lines = c.value.0.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(labels(t, line: lines.count - 1, character: lines.last!.utf16.count) == c.value.1)
    }

    @Test func otherRequestsAboutATestFileHaveNoAnswer() {
        let t = server("case x\n  do d\n")
        #expect(t.request("textDocument/hover", ["textDocument": ["uri": .string(Self.testURI)], "position": ["line": 0, "character": 0]]) == .null)
    }
}
