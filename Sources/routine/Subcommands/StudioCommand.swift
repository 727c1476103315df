import ArgumentParser
import Dispatch
import RoutineHistory
import RoutineKit
import RoutineStudio

#if canImport(Glibc)
import Glibc
#endif

struct StudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Edit a routine in the browser: a visual builder over the file, which stays the only truth.",
        discussion: """
            Prints the address (http://127.0.0.1:PORT/?token=TOKEN) as the first line and serves until Ctrl-C or \
            SIGTERM. Only this machine, with the token, can use it; ROUTINE_STUDIO_TOKEN sets the token (at least \
            32 characters of 0-9 and a-f). --open gives the browser a one-time address instead, which holds no \
            token. A file that does not exist yet is created by the first edit. See docs/studio.md.
            """
    )

    @Argument(help: ArgumentHelp("The routine file (.rt, or YAML).", valueName: "file"), completion: .file(extensions: ["rt", "yaml", "yml"]))
    var file: String

    @Option(help: "The port to listen on (default: a free one).")
    var port: Int = 0

    @Flag(help: "Open the studio in the browser with xdg-open, when it is installed, by an address that works once.")
    var open = false

    @Flag(
        name: .customLong("no-history"),
        help:
            "Record nothing: Today shows the day without history and refuses logs and corrections, a run in the Run tab is kept nowhere, and Your days shows no history (the builder records nothing anyway)."
    )
    var noHistory = false

    @OptionGroup var history: HistoryOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
    }

    func run() throws {
        let token = getenv("ROUTINE_STUDIO_TOKEN").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        if let token, let refusal = StudioServer.tokenRefusal(token) {
            report(refusal, colors: Terminal.wantsColor(.auto, fd: 2))
            throw Exit.errors
        }
        let server: StudioServer
        var historyPath: String?
        if case .file(let path)? = HistoryLocation.resolve(flag: history.history, disabled: noHistory) { historyPath = path }
        do { server = try StudioServer(path: file, token: token, history: historyPath) } catch {
            report(error, colors: Terminal.wantsColor(.auto, fd: 2))
            throw Exit.unreadable
        }
        let open = self.open
        let deadlines = Self.endWithinASecond()
        defer { deadlines.forEach { $0.cancel() } }
        // Waited for here rather than by making the command an AsyncParsableCommand: that needs
        // an async root, whose runtime opens a descriptor before main, at the lowest free number,
        // so that every subcommand would take a closed standard input or output for open.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: Error?
        Task.detached {
            do {
                try await server.run(port: port) { address, port in
                    StandardOutput.write(address + "\n")
                    // Not the token: a command line is there for every local user to read.
                    if open { Self.open(server.oneTimeAddress(port: port)) }
                }
            } catch { failure = error }
            done.signal()
        }
        done.wait()
        if let failure {
            StandardError.write("error: the studio stopped: \(failure)\n")
            throw Exit.errors
        }
    }

    /// After SIGINT or SIGTERM the server shuts down gracefully; whatever holds that up (a
    /// request under way), the studio ends within a second all the same.
    static func endWithinASecond() -> [DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            // Handled by sources only: the default action would skip the graceful shutdown.
            signal(number, SIG_IGN)
            // A queue of its own, which gets a thread even while every shared one is busy.
            let queue = DispatchQueue(label: "routine-studio.end")
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                queue.asyncAfter(deadline: .now() + .milliseconds(800)) { _exit(Exit.signalled(by: number).rawValue) }
            }
            source.resume()
            return source
        }
    }

    /// Runs `xdg-open ADDRESS` when it exists, without waiting for it.
    static func open(_ address: String) {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("xdg-open"), strdup(address), nil]
        defer { argv.forEach { free($0) } }
        // Not waited for: a browser it starts may outlive the studio.
        _ = posix_spawnp(&pid, "xdg-open", nil, nil, &argv, environ)
    }
}
