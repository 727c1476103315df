import Foundation
import TestSupport
import Testing

/// The package root, for the example routines.
let packageRoot = BuiltBinary.packageRoot

/// The `routine` executable built beside the test bundle.
let routineBinary = BuiltBinary.routine

/// What a finished process said, for every file of the suite.
typealias Execution = TestSupport.Execution

/// Runs the built binary with `arguments`, feeding `stdin` (or nothing: standard input is
/// then an empty pipe, as in CI), in `directory`, with extra environment variables.
func execute(
    _ arguments: [String], stdin: String? = "", environment: [String: String] = [:], in directory: URL = packageRoot
) throws -> Execution {
    let (process, out, err) = prepare(
        routineBinary, arguments, environment: ["NO_COLOR": nil, "TERM": "xterm"].merging(environment) { $1 }, in: directory)
    return try BinaryRunner.run(process, out, err, stdin: stdin)
}

/// A home folder for the processes the tests start, so that nothing reaches the real one.
let testHome = BinaryRunner.home("routine-test-home-\(getpid())")

/// A history file of its own for one command, in the test home.
func freshHistoryPath() -> String {
    testHome.appendingPathComponent("history-\(UUID().uuidString).sqlite").path
}

/// The environment of a process under test: the real one, but with HOME and every XDG
/// folder in the test home, and a history file of its own (ROUTINE_HISTORY), so that every
/// run is recorded somewhere temporary.
func testEnvironment() -> [String: String] {
    var env = BinaryRunner.environment(home: testHome)
    env["ROUTINE_HISTORY"] = freshHistoryPath()
    return env
}

/// See ``BinaryRunner/collect(_:_:_:)``.
func collect(_ process: Process, _ out: Pipe, _ err: Pipe) -> Execution { BinaryRunner.collect(process, out, err) }

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
    var env = testEnvironment()
    for (k, v) in environment { env[k] = v }
    return BinaryRunner.prepare(executable, arguments, environment: env, in: directory)
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
func temporaryDirectory() throws -> URL { try BinaryRunner.temporaryFolder() }

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
