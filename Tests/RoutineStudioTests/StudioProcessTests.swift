import Foundation
import Testing

@testable import RoutineStudio

#if canImport(Glibc)
import Glibc
#endif

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

    static func start(_ arguments: [String], environment: [String: String] = [:]) async throws -> Running {
        // A request sent before the studio listens must fail, not end the tests.
        signal(SIGPIPE, SIG_IGN)
        let port = try StudioServer.freePort()
        let process = StudioRunBinary.process(
            ["studio"] + arguments + ["--port", String(port)], environment: environment.merging(["ROUTINE_STUDIO_TOKEN": token]) { $1 })
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

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP, SIGKILL])
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

    /// A studio started with `--exit-when-idle` stays while a page holds the live channel, and
    /// ends by itself (as SIGTERM ends it) once none has for the idle time, here cut
    /// to a second by the variable only tests set.
    @Test func anIdleStudioEndsByItselfOnceNoPageIsOpen() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("r.rt").path
        try "routine \"R\"\nhabit a \"A\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let studio = try await Self.start(
            [path, "--no-history", "--exit-when-idle"], environment: ["ROUTINE_TEST_STUDIO_IDLE_SECONDS": "1"])
        defer { kill(studio.process.processIdentifier, SIGKILL) }
        var page: RawEventStream? = await RawEventStream.open(port: studio.port, headers: studio.headers)
        #expect(page?.status == 200)
        #expect(await page?.nextData() == #"{"version":1}"#)
        // Three times the idle time with the page open: the studio is still there.
        try await Task.sleep(for: .seconds(3))
        #expect(studio.process.isRunning, "the studio ended while a page was open")
        // The page closed without a word: the studio finds it gone, and ends.
        page = nil
        #expect(try await studio.ended(tries: 400))
        // Ended as SIGTERM ends it: gracefully (0), or at its deadline (128 + 15).
        #expect([0, 128 + SIGTERM].contains(studio.process.terminationStatus))
    }

    /// Without `--exit-when-idle` (a studio started at a terminal), no page is no reason to end.
    @Test func aStudioStartedByHandStaysWithNoPage() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("r.rt").path
        try "routine \"R\"\nhabit a \"A\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let studio = try await Self.start([path, "--no-history"], environment: ["ROUTINE_TEST_STUDIO_IDLE_SECONDS": "0.5"])
        defer { kill(studio.process.processIdentifier, SIGKILL) }
        try await Task.sleep(for: .seconds(2))
        #expect(studio.process.isRunning)
        kill(studio.process.processIdentifier, SIGHUP)
        #expect(try await studio.ended())
    }

    /// i3blocks' middle click (BLOCK_BUTTON=2) on `today --format i3blocks`: the command's output
    /// ends at once (i3blocks reads it to its end) while the studio it started runs on, holding
    /// none of the click's pipes (its standard streams are /dev/null, in a session of its own);
    /// with no page opened, the studio ends by itself.
    @Test func aBarsClickStartsAStudioApartThatEndsWhenIdle() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("r.rt").path
        try "routine \"R\"\nhabit a \"A\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        // The browser's stand-in: it says which process started it (the studio).
        let stub = bin.appendingPathComponent("xdg-open").path
        try "#!/bin/sh\necho $PPID > \"$0.tmp\" && mv \"$0.tmp\" \"$0.pid\"\n".write(toFile: stub, atomically: true, encoding: .utf8)
        chmod(stub, 0o755)
        let click = StudioRunBinary.process(
            ["today", path, "--format", "i3blocks", "--history", folder.appendingPathComponent("h.sqlite").path],
            environment: [
                "BLOCK_BUTTON": "2", "ROUTINE_TEST_STUDIO_IDLE_SECONDS": "3", "ROUTINE_STUDIO_TOKEN": Self.token,
                "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            ])
        let output = Pipe()
        let errors = Pipe()
        click.standardOutput = output
        click.standardError = errors
        click.standardInput = FileHandle.nullDevice
        try click.run()
        // Both read to their end, as i3blocks reads them: the studio holds neither.
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        click.waitUntilExit()
        #expect(click.terminationStatus == 0, "\(said)")
        #expect(printed.hasPrefix("0/1"), "\(printed)")
        var studio: Int32?
        for _ in 0..<400 where studio == nil {
            studio = (try? String(contentsOfFile: stub + ".pid", encoding: .utf8)).flatMap {
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if studio == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let pid = try #require(studio, "the studio did not open the browser")
        defer { kill(pid, SIGKILL) }
        // The click's command has ended and its output was read to the end; the studio runs on.
        #expect(!Self.isGone(pid), "the studio ended with the click's command")
        for fd in 0...2 {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) ?? "gone"
            #expect(target == "/dev/null" || Self.isGone(pid), "the studio's descriptor \(fd) is \(target)")
        }
        #expect(getsid(pid) == pid || Self.isGone(pid), "the studio is not in a session of its own")
        // No page was ever opened: it ends by itself.
        for _ in 0..<600 where !Self.isGone(pid) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(Self.isGone(pid), "the studio started by a click did not end with no page open")
    }
}
