import Foundation
import TestSupport
import Testing

/// The package root, for the example routines.
let packageRoot = BuiltBinary.packageRoot

/// The `routine` executable built beside the test bundle.
let routineBinary = BuiltBinary.routine

struct Execution {
    var stdout: String
    var stderr: String
    var status: Int32
}

/// Runs the built binary with `arguments`, feeding `stdin` (or nothing: standard input is
/// then an empty pipe, as in CI), in `directory`, with extra environment variables.
func execute(
    _ arguments: [String], stdin: String? = "", environment: [String: String] = [:], in directory: URL = packageRoot
) throws -> Execution {
    ignoreBrokenPipes
    let (process, out, err) = prepare(
        routineBinary, arguments, environment: ["NO_COLOR": nil, "TERM": "xterm"].merging(environment) { $1 }, in: directory)
    if let stdin {
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
    } else {
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }
    return collect(process, out, err)
}

/// A child that exits before reading all its input must fail one test, not kill the test
/// process with SIGPIPE.
let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

/// A home folder for the processes the tests start, so that nothing reaches the real one.
let testHome: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("routine-test-home-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// A history file of its own for one command, in the test home.
func freshHistoryPath() -> String {
    testHome.appendingPathComponent("history-\(UUID().uuidString).sqlite").path
}

/// The environment of a process under test: the real one, but with HOME and every XDG
/// folder in the test home, and a history file of its own (ROUTINE_HISTORY), so that every
/// run is recorded somewhere temporary.
func testEnvironment() -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["HOME"] = testHome.path
    env["XDG_DATA_HOME"] = testHome.appendingPathComponent("xdg-data").path
    env["XDG_CONFIG_HOME"] = testHome.appendingPathComponent("xdg-config").path
    env["XDG_STATE_HOME"] = testHome.appendingPathComponent("xdg-state").path
    env["XDG_CACHE_HOME"] = testHome.appendingPathComponent("xdg-cache").path
    env["ROUTINE_HISTORY"] = freshHistoryPath()
    return env
}

/// Drains a started process's stdout and stderr pipes and waits for it. Both pipes are read
/// at once, so a full stderr pipe cannot block the child.
func collect(_ process: Process, _ out: Pipe, _ err: Pipe) -> Execution {
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Execution(
        stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
        status: process.terminationStatus)
}

/// Runs `script` with `sh -c`, the binary's path in `$ROUTINE`, standard input empty.
func shell(_ script: String, environment: [String: String] = [:], in directory: URL = packageRoot) throws -> Execution {
    let (process, out, err) = try startShell(script, environment: environment, in: directory)
    return collect(process, out, err)
}

/// Starts `script` as ``shell(_:environment:in:)`` does, without waiting for it.
func startShell(_ script: String, environment: [String: String] = [:], in directory: URL = packageRoot) throws -> (Process, Pipe, Pipe) {
    let (process, out, err) = prepare(
        URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: ["ROUTINE": routineBinary.path].merging(environment) { $1 }, in: directory)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return (process, out, err)
}

/// A process of `executable` in the test environment with `environment` on top (a nil
/// value removes a variable), its stdout and stderr piped; not started.
func prepare(_ executable: URL, _ arguments: [String], environment: [String: String?], in directory: URL) -> (Process, Pipe, Pipe) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var env = testEnvironment()
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let (out, err) = (Pipe(), Pipe())
    process.standardOutput = out
    process.standardError = err
    return (process, out, err)
}

/// Runs `body` with a folder on a freshly mounted tmpfs of `size` (root only), unmounted after.
func onSmallDisk(size: String = "256k", _ body: (URL) throws -> Void) throws {
    let dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("routine-full-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let mounted = try shell("mount -t tmpfs -o size=\(size) tmpfs '\(dir.path)'")
    try #require(mounted.status == 0, "cannot mount a tmpfs here: \(mounted.stderr)")
    defer { _ = try? shell("umount '\(dir.path)'; rmdir '\(dir.path)'") }
    try body(dir)
}

/// A fresh temporary folder for one test.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("routine-tests-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A command line that must fail with a documented exit code and say so on stderr.
struct ExpectedFailure: CustomTestStringConvertible, Sendable {
    let name: String
    let arguments: [String]
    let status: Int32
    let stderr: String
    var testDescription: String { name }

    func check() throws {
        let result = try execute(arguments)
        #expect(result.status == status)
        #expect(result.stderr.contains(stderr))
    }
}
