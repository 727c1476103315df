import Foundation

/// What a finished process said and how it ended.
public struct Execution: Sendable {
    public var stdout: String
    public var stderr: String
    public var status: Int32

    public init(stdout: String, stderr: String, status: Int32) {
        self.stdout = stdout
        self.stderr = stderr
        self.status = status
    }
}

/// Runs the built binaries as the suites that run them need: never with the real HOME, each
/// process's HOME and XDG folders in a test home of its own.
public enum BinaryRunner {
    /// `base` with HOME and every XDG folder in `home`.
    public static func environment(home: URL, base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var env = base
        env["HOME"] = home.path
        for name in ["DATA", "CONFIG", "STATE", "CACHE"] {
            env["XDG_\(name)_HOME"] = home.appendingPathComponent("xdg-\(name.lowercased())").path
        }
        return env
    }

    /// A folder of the temporary directory named `name`, made if missing: a test home.
    public static func home(_ name: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A process of `executable` with `environment`, its stdout and stderr piped; not started.
    public static func prepare(_ executable: URL, _ arguments: [String], environment: [String: String], in directory: URL? = nil)
        -> (Process, Pipe, Pipe)
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = environment
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        return (process, out, err)
    }

    /// Starts a prepared process, feeding it `stdin` (or nothing: standard input is then the
    /// null device), and collects it (``collect(_:_:_:)``).
    public static func run(_ process: Process, _ out: Pipe, _ err: Pipe, stdin: String?) throws -> Execution {
        // A child that exits before reading all its input must fail one test, not kill the
        // test process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
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

    /// Drains a started process's stdout and stderr pipes and waits for it. Both pipes are
    /// read at once, so a full stderr pipe cannot block the child.
    public static func collect(_ process: Process, _ out: Pipe, _ err: Pipe) -> Execution {
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

    /// A fresh temporary folder for one test.
    public static func temporaryFolder(_ prefix: String = "routine-tests-") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
