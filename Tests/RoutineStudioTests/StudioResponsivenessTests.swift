import Foundation
import Testing

@testable import RoutineStudio

#if canImport(Glibc)
import Glibc
#endif

/// The studio answers whatever the routine's path holds and however large the routine is:
/// a named pipe or a device is named, not read; a drawing past its time limit is given up
/// while the other views answer; a signal ends the studio and its `dot`; runs left behind
/// do not keep the history open.
@Suite(.serialized)
struct StudioResponsivenessTests {
    /// A chain of `count` habits with a question every tenth node: a routine `dot` takes long over.
    static func large(_ count: Int) -> String {
        var text = "routine \"Large\"\n"
        for k in 0..<count {
            let next = k + 1 == count ? "end" : "n\(k + 1)"
            text += k % 10 == 9 ? "question n\(k) \"Q\(k)\"\n  \"yes\" -> \(next)\n  \"no\" -> \(next)\n" : "habit n\(k) \"Habit \(k)\" -> \(next)\n"
        }
        return text
    }

    static func diagnostics(_ state: [String: Any]) -> [String] {
        ((state["diagnostics"] as? [[String: Any]]) ?? []).map { "\($0["code"] ?? "") \($0["message"] ?? "")" }
    }

    /// Waits (boundedly) until the state satisfies `done`.
    static func state(of studio: StudioFixture, where done: ([String: Any]) -> Bool) async throws -> [String: Any] {
        var state = try await studio.state()
        for _ in 0..<200 where !done(state) {
            try await Task.sleep(for: .milliseconds(25))
            state = try await studio.state()
        }
        return state
    }

    @Test(arguments: ["pipe", "device"])
    func aPathThatIsNoRegularFileIsNamedAndARealFileIsReadAgain(kind: String) async throws {
        try await StudioFixture.with("routine \"R\"\nhabit a \"A\"\n") { studio in
            unlink(studio.path)
            if kind == "pipe" { #expect(mkfifo(studio.path, 0o600) == 0) } else { #expect(symlink("/dev/zero", studio.path) == 0) }
            let what = kind == "pipe" ? "a named pipe" : "a character device"
            let refused = try await Self.state(of: studio) { Self.diagnostics($0).contains { $0.contains("E013") } }
            #expect(
                Self.diagnostics(refused).first == "E013 '\(studio.path)' is \(what), not a regular file; the studio waits for a routine file there")
            // An edit is refused, and the pipe or device is left as it is.
            let edit = await studio.post("{\"version\": \(await studio.version()), \"op\": \"setTitle\", \"id\": \"a\", \"title\": \"B\"}")
            #expect(edit.status != 200)
            // A routine file saved in its place is read.
            let saved = studio.path + ".new"
            try "routine \"R\"\nhabit a \"Back\"\n".write(toFile: saved, atomically: false, encoding: .utf8)
            #expect(rename(saved, studio.path) == 0)
            let back = try await Self.state(of: studio) { ($0["source"] as? String)?.contains("Back") == true }
            #expect((back["source"] as? String)?.contains("Back") == true)
            #expect(!Self.diagnostics(back).contains { $0.contains("E013") })
        }
    }

    @Test func aDrawingPastItsLimitIsGivenUpAndTheRoutineStillShows() async throws {
        try await StudioFixture.with(Self.large(400), layoutLimit: .milliseconds(1)) { studio in
            let state = try await studio.state()
            #expect((state["layoutError"] as? String) == "'Large' is too large to draw within 1 s: it is shown without its drawing")
            #expect((state["name"] as? String) == "Large")
            // Not tried again at every look, and edits still work.
            let edit = await studio.post("{\"version\": \(await studio.version()), \"op\": \"setTitle\", \"id\": \"n0\", \"title\": \"First\"}")
            #expect(edit.status == 200)
            #expect(await studio.get("/api/today").status == 200)
        }
    }

    /// A routine of more cards than the studio draws is not given to Graphviz: it opens with its
    /// problems and, for the outline, where each card leads; edits still work.
    @Test func aRoutineTooLargeToDrawOpensWithItsOutline() async throws {
        let cards = StudioLayout.drawLimit * 10
        try await StudioFixture.with(Self.large(cards) + "habit lost \"Lost\"\n") { studio in
            let state = try await studio.state()
            #expect(
                (state["layoutError"] as? String)
                    == "'Large' has \(cards + 1) cards, more than the studio draws (\(StudioLayout.drawLimit)): the outline lists them")
            let edges = state["edges"] as? [[String: Any]] ?? []
            #expect(edges.count >= cards)
            #expect(edges.allSatisfy { ($0["points"] as? [Any])?.isEmpty == true })
            #expect(edges.contains { $0["from"] as? String == "n0" && $0["to"] as? String == "n1" })
            #expect(Self.diagnostics(state).contains { $0.hasPrefix("W001") && $0.contains("'lost'") })
            let edit = await studio.post("{\"version\": \(await studio.version()), \"op\": \"setTitle\", \"id\": \"n0\", \"title\": \"First\"}")
            #expect(edit.status == 200)
        }
    }

    @Test func todayAndRunsAnswerWhileALayoutRuns() async throws {
        // Drawn for seconds, or given up after 8 s.
        // Graphviz is asked to draw more cards than the studio would, to keep it busy for seconds.
        try await StudioFixture.with(Self.large(6000), history: true, layoutLimit: .seconds(8), drawLimit: 10_000) { studio in
            let drawn = SharedCounter()
            let drawing = Task {
                let answer = await studio.get("/api/routine")
                _ = drawn.next()
                return answer
            }
            // The drawing has begun before these; each answers without waiting for it.
            try await Task.sleep(for: .milliseconds(200))
            let today = await studio.get("/api/today")
            let run = await studio.send("POST", "/api/run/start", #"{"fresh": true}"#)
            #expect(drawn.value == 0, "the other views waited for the drawing")
            #expect(today.status == 200)
            #expect(run.status == 200, "\(run.body)")
            #expect(await drawing.value.status == 200)
        }
    }
}

/// The built studio as a process: its descriptors, its children, its end.
@Suite(.serialized)
struct StudioProcessTests {
    static let token = "0123456789abcdef0123456789abcdef"

    struct Running {
        let process: Process
        let port: Int
        var http: RawHTTP { RawHTTP(port: port) }
        var headers: [(String, String)] {
            [("Host", "127.0.0.1:\(port)"), ("Authorization", "Bearer \(StudioProcessTests.token)"), ("Origin", "http://127.0.0.1:\(port)")]
        }

        /// Whether it ended within `tries` × 50 ms.
        func ended(tries: Int = 100) async throws -> Bool {
            for _ in 0..<tries where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
            return !process.isRunning
        }
    }

    static func start(_ arguments: [String]) async throws -> Running {
        // A request sent before the studio listens must fail, not end the tests.
        signal(SIGPIPE, SIG_IGN)
        let port = try StudioServer.freePort()
        let process = StudioRunBinary.process(["studio"] + arguments + ["--port", String(port)], environment: ["ROUTINE_STUDIO_TOKEN": token])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let running = Running(process: process, port: port)
        for _ in 0..<200 {
            if await running.http.request("GET", "/api/today", headers: running.headers).status == 200 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return running
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("studio-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func descriptors(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// The children of `pid` named `name`, from /proc.
    static func children(of pid: Int32, named name: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { child in
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid && stat.contains("(\(name))")
        }
    }

    /// Whether `pid` has used the processor for more than a tenth of a second.
    static func isBusy(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
        let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
        return fields.count > 12 && (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) > 10
    }

    static func isGone(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return stat.contains(") Z ")
    }

    @Test func runsLeftUnfinishedDoNotKeepTheHistoryOpen() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("r.rt").path
        try "routine \"R\"\nhabit a \"A\" -> b\nhabit b \"B\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let studio = try await Self.start([path, "--history", folder.appendingPathComponent("h.sqlite").path])
        defer { kill(studio.process.processIdentifier, SIGKILL) }
        #expect(await studio.http.request("POST", "/api/run/start", headers: studio.headers, body: #"{"fresh": true}"#).status == 200)
        let before = Self.descriptors(studio.process.processIdentifier)
        for _ in 0..<300 {
            _ = await studio.http.request("POST", "/api/run/start", headers: studio.headers, body: #"{"fresh": true}"#)
        }
        let after = Self.descriptors(studio.process.processIdentifier)
        #expect(before > 0 && after - before < 2 * BrowserRuns.keptRuns + 8, "\(before) descriptors before 300 runs, \(after) after")
    }

    @Test func aDeviceAsTheRoutineIsNotReadAgainAndAgain() async throws {
        let studio = try await Self.start(["/dev/zero", "--no-history"])
        defer { kill(studio.process.processIdentifier, SIGKILL) }
        let state = await studio.http.request("GET", "/api/routine", headers: studio.headers)
        #expect(state.body.contains("E013"))
        func read() -> Int {
            let io = (try? String(contentsOfFile: "/proc/\(studio.process.processIdentifier)/io", encoding: .utf8)) ?? ""
            return io.split(separator: "\n").first { $0.hasPrefix("rchar:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
                ?? -1
        }
        let before = read()
        try await Task.sleep(for: .milliseconds(500))
        // Ten polls at least: re-reading the device at each would be megabytes.
        #expect(read() - before < 1 << 20)
        kill(studio.process.processIdentifier, SIGTERM)
        #expect(try await studio.ended())
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGKILL])
    func anyEndOfTheStudioEndsItsDotInTheMiddleOfALayout(signal: Int32) async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("r.rt").path
        try StudioResponsivenessTests.large(6000).write(toFile: path, atomically: true, encoding: .utf8)
        let studio = try await Self.start([path, "--no-history"])
        defer { kill(studio.process.processIdentifier, SIGKILL) }
        let drawing = Task { await studio.http.request("GET", "/api/routine", headers: studio.headers) }
        var dot: [Int32] = []
        for _ in 0..<400 where dot.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
            dot = Self.children(of: studio.process.processIdentifier, named: "dot")
        }
        #expect(!dot.isEmpty)
        // Once `dot` works on the layout (it has used the processor), which takes it seconds.
        for _ in 0..<600 where !dot.contains(where: Self.isBusy) { try await Task.sleep(for: .milliseconds(50)) }
        kill(studio.process.processIdentifier, signal)
        #expect(try await studio.ended())
        _ = await drawing.result
        for child in dot { #expect(Self.isGone(child)) }
    }
}
