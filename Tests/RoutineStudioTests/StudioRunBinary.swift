import Foundation
import RoutineHistory
import TestSupport
import Testing

@testable import RoutineStudio

/// The built `routine` beside the test bundle, run with a temporary HOME and XDG folders, for
/// the tests where the terminal and the studio share one history.
enum StudioRunBinary {
    static let url = BuiltBinary.routine

    static let home = BinaryRunner.home("studio-run-home-\(getpid())")

    /// The test home's environment, without a history of its own: each test names one.
    static var environment: [String: String] {
        var environment = BinaryRunner.environment(home: home)
        environment["ROUTINE_HISTORY"] = nil
        environment["NO_COLOR"] = "1"
        return environment
    }

    /// A process of `routine ARGUMENTS`, its output where the caller sets it; not started.
    static func process(_ arguments: [String], environment extra: [String: String] = [:]) -> Process {
        let process = BinaryRunner.prepare(url, arguments, environment: environment.merging(extra) { $1 }).0
        (process.standardOutput, process.standardError) = (nil, nil)
        return process
    }

    /// Runs `routine ARGUMENTS` with `input` on standard input, to its end.
    static func run(_ arguments: [String], input: String = "") throws -> Execution {
        let (process, out, err) = BinaryRunner.prepare(url, arguments, environment: environment)
        return try BinaryRunner.run(process, out, err, stdin: input)
    }
}

/// kill -9 of a studio in the middle of a browser run's answers leaves a consistent history,
/// which `routine history check` passes and `routine run --resume` takes up.
@Suite(.serialized)
struct StudioRunKillTests {
    @Test func killedMidAnswerTheHistoryStaysConsistent() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("studio-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("r.rt").path
        signal(SIGPIPE, SIG_IGN)
        // A long chain of habits and questions, so that every kill lands mid-run; "d" answers
        // both (done, and the option named "d").
        var text = "routine \"Long\"\n"
        for k in 0..<300 {
            text +=
                k % 3 == 2
                ? "question q\(k) \"Q\(k)\"\n  \"d\" -> h\(k + 1)\n  \"e\" -> h\(k + 1)\n"
                : "habit h\(k) \"H\(k)\" -> \(k % 3 == 1 ? "q" : "h")\(k + 1)\n"
        }
        text += "habit h300 \"Last\"\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let history = folder.appendingPathComponent("history.sqlite").path
        let token = "0123456789abcdef0123456789abcdef"
        for round in 0..<4 {
            let port = try StudioServer.freePort()
            let server = StudioRunBinary.process(
                ["studio", path, "--port", String(port), "--history", history], environment: ["ROUTINE_STUDIO_TOKEN": token])
            server.standardOutput = Pipe()
            server.standardError = FileHandle.nullDevice
            try server.run()
            let http = RawHTTP(port: port)
            let headers = [("Host", "127.0.0.1:\(port)"), ("Authorization", "Bearer \(token)"), ("Origin", "http://127.0.0.1:\(port)")]
            var started: RawHTTP.Answer?
            for _ in 0..<100 {
                started = await http.request("POST", "/api/run/start", headers: headers, body: round == 0 ? "{}" : #"{"resume": true}"#)
                if started?.status == 200 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let body = try #require(JSONSerialization.jsonObject(with: Data((started?.body ?? "").utf8)) as? [String: Any])
            let run = try #require(body["run"] as? Int)
            let holder = try #require(body["holder"] as? String)
            // Answers go on while the server is killed after a few of them, at a moment that varies.
            let answers = Task {
                for _ in 0..<1000 {
                    let answer = await http.request(
                        "POST", "/api/run/answer", headers: headers, body: #"{"run": \#(run), "holder": "\#(holder)", "answer": "d"}"#)
                    if answer.status != 200 { break }
                }
            }
            try await Task.sleep(for: .milliseconds(30 + 17 * round))
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
            _ = await answers.result
            let check = try StudioRunBinary.run(["history", "check", "--history", history])
            #expect(check.status == 0, "round \(round): \(check.stdout) \(check.stderr)")
        }
        let store = try #require(try HistoryStore.open(history, create: false))
        #expect(try store.runCount() == 1)
        let resumed = try StudioRunBinary.run(["run", path, "--resume", "--history", history], input: String(repeating: "d\n", count: 350))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.isEmpty, "\(resumed.stderr)")
        let run = try #require(try store.runs(RunFilter()).first)
        #expect(run.result == .completed)
        #expect(run.steps.map(\.decision.step) == Array(1...run.steps.count))
        #expect(run.steps.last?.decision.node == "h300")
    }
}

/// `routine studio` is `routine-studio` once it starts: what the server's history says about
/// sync (a journal it cannot write) still reaches standard error, as from `routine`.
@Suite(.serialized)
struct StudioServerProgramTests {
    @Test func aJournalThatCannotBeWrittenIsSaidOnStandardError() async throws {
        signal(SIGPIPE, SIG_IGN)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("studio-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("r.rt").path
        try "routine \"R\"\nhabit water \"Water\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let history = folder.appendingPathComponent("h.sqlite").path
        let shared = folder.appendingPathComponent("shared").path
        let joined = try StudioRunBinary.run(["sync", "init", shared, "--device", "laptop", "--history", history])
        let id = try #require(joined.stdout.split(separator: "(").dropFirst().first?.prefix(32), "\(joined)")
        // The device's journal folder made a file: no journal can be written there.
        let own = shared + "/" + id
        try FileManager.default.removeItem(atPath: own)
        try Data().write(to: URL(fileURLWithPath: own))
        let logged = try StudioRunBinary.run(["done", path, "water", "--date", "2026-11-23", "--history", history])
        #expect(logged.stderr.contains("E703"), "\(logged.stderr)")

        let port = try StudioServer.freePort()
        let token = "0123456789abcdef0123456789abcdef"
        let server = StudioRunBinary.process(
            ["studio", path, "--port", String(port), "--history", history], environment: ["ROUTINE_STUDIO_TOKEN": token])
        // A file, not a pipe that nobody reads until the end: a server that said too much
        // would block on it.
        let errorsPath = folder.appendingPathComponent("stderr").path
        FileManager.default.createFile(atPath: errorsPath, contents: nil)
        server.standardOutput = FileHandle.nullDevice
        server.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorsPath))
        try server.run()
        let http = RawHTTP(port: port)
        let headers = [("Host", "127.0.0.1:\(port)"), ("Authorization", "Bearer \(token)")]
        var today: RawHTTP.Answer?
        for _ in 0..<100 {
            today = await http.request("GET", "/api/today", headers: headers)
            if today?.status == 200 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(today?.status == 200)
        // The server looks at the history about every second: the problem lasts, and is said once.
        try await Task.sleep(for: .seconds(3))
        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
        let said = try String(contentsOfFile: errorsPath, encoding: .utf8)
        #expect(said.contains("E703") && said.contains("cannot write to the sync folder"), "\(said)")
        #expect(said.components(separatedBy: "E703").count - 1 == 1, "\(said)")
    }
}
