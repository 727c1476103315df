// routine-studio: the studio's server, a program of its own so that the commands status bars
// and prompts start thousands of times a day do not load SwiftNIO and Hummingbird (their
// pages, and the conformance records every first type check walks). `routine studio` reads
// and checks the command line, then replaces itself with this program:
//
//   routine-studio FILE PORT open|stay HISTORY [idle] [host=NAME]... [pair]
//                                                          HISTORY empty: no history
//   routine-studio devices [revoke NAME]
//
// `idle`: the studio ends by itself once no page has been open for 10 minutes (StudioIdle).
// `host=NAME`: a reverse proxy reaches it as NAME (`--allow-host`); `pair`: it prints a
// pairing address for a phone, and its QR code on a terminal (docs/phone.md). `devices`:
// `routine studio devices`, the paired phones.
//
// The token comes, as it came to `routine studio`, from ROUTINE_STUDIO_TOKEN, never from a
// command line, which every local user can read.
import Dispatch
import RoutineHistory
import RoutineKit
import RoutineStudio
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Diagnostics on standard error, coloured only on a terminal (NO_COLOR and TERM=dumb say no).
func report(_ diagnostic: Diagnostic) {
    var colors = isatty(2) != 0
    if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { colors = false }
    if let term = getenv("TERM"), String(cString: term) == "dumb" { colors = false }
    let renderer = DiagnosticRenderer(style: .rich, colors: colors)
    writeAll(2, renderer.render([diagnostic], in: SourceFile(name: "routine", bytes: [])))
}

/// All of `text` to `fd`, through short writes and interruptions.
func writeAll(_ fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    var start = 0
    while start < bytes.count {
        let n = bytes[start...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0, errno == EINTR { continue }
        if n <= 0 { return }
        start += n
    }
}

/// Sync's warnings, as `routine` says them: a sync folder that cannot be read or written is
/// said, not hidden. The studio looks at the history every second or so, from any thread, so
/// a problem that lasts is said once.
enum SyncWarnings {
    private static let said = Mutex<Set<String>>([])

    static func sayOnce(_ diagnostic: Diagnostic) {
        guard said.withLock({ $0.insert(diagnostic.message).inserted }) else { return }
        report(diagnostic)
    }
}

/// After SIGINT, SIGTERM or SIGHUP (a terminal closed) the server shuts down gracefully;
/// whatever holds that up (a request under way), the studio ends within a second all the same,
/// with 128 plus the signal.
func endWithinASecond() -> [DispatchSourceSignal] {
    [SIGINT, SIGTERM, SIGHUP].map { number in
        // Handled by sources only: the default action would skip the graceful shutdown.
        signal(number, SIG_IGN)
        // A queue of its own, which gets a thread even while every shared one is busy.
        let queue = DispatchQueue(label: "routine-studio.end")
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler {
            queue.asyncAfter(deadline: .now() + .milliseconds(800)) { _exit(128 + number) }
        }
        source.resume()
        return source
    }
}

/// Runs `xdg-open ADDRESS` when it exists, without waiting for it: a browser it starts may
/// outlive the studio.
func open(_ address: String) {
    var pid: pid_t = 0
    var argv: [UnsafeMutablePointer<CChar>?] = [strdup("xdg-open"), strdup(address), nil]
    defer { argv.forEach { free($0) } }
    _ = posix_spawnp(&pid, "xdg-open", nil, nil, &argv, environ)
}

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "devices", arguments.count == 2 || (arguments.count == 4 && arguments[2] == "revoke") {
    let answer = DevicesCommand.run(path: DevicesCommand.defaultPath(), revoke: arguments.count == 4 ? arguments[3] : nil)
    writeAll(1, answer.output)
    if let error = answer.error { writeAll(2, "routine: error: \(error)\n") }
    exit(answer.status)
}
let extra = arguments.dropFirst(5)
let hosts = extra.filter { $0.hasPrefix("host=") }.map { String($0.dropFirst(5)) }
guard arguments.count >= 5, extra.allSatisfy({ ["idle", "pair"].contains($0) || $0.hasPrefix("host=") }), let port = Int(arguments[2]),
    (0...65535).contains(port), ["open", "stay"].contains(arguments[3]), !extra.contains("pair") || !hosts.isEmpty
else {
    writeAll(2, "routine-studio: this is the studio's server, which 'routine studio FILE' starts; see 'routine studio --help'\n")
    exit(64)
}
HistoryStore.syncWarning = SyncWarnings.sayOnce
let path = arguments[1]
let openBrowser = arguments[3] == "open"
let history = arguments[4].isEmpty ? nil : arguments[4]
// Ended as SIGTERM ends it, deadline included.
let idle: (limit: Duration, then: @Sendable () -> Void)? =
    extra.contains("idle")
    ? (StudioServer.idleLimit(test: getenv("ROUTINE_TEST_STUDIO_IDLE_SECONDS").map { String(cString: $0) }), { _ = kill(getpid(), SIGTERM) })
    : nil

let token = getenv("ROUTINE_STUDIO_TOKEN").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
if let token, let refusal = StudioServer.tokenRefusal(token) {
    report(refusal)
    exit(1)
}
let server: StudioServer
do {
    server = try StudioServer(
        path: path, token: token, history: history, hosts: hosts, pair: extra.contains("pair"), devices: DevicesCommand.defaultPath(),
        pairLifetime: StudioServer.pairLifetime(test: getenv("ROUTINE_TEST_STUDIO_PAIR_SECONDS").map { String(cString: $0) }))
} catch {
    report(error)
    exit(66)
}
let deadlines = endWithinASecond()
// Waited for on the main thread, which the server's tasks never need.
let done = DispatchSemaphore(value: 0)
nonisolated(unsafe) var failure: Error?
Task.detached {
    do {
        try await server.run(port: port, idle: idle) { address, port in
            writeAll(1, address + "\n")
            if let pairing = server.pairingAddress() {
                writeAll(1, "pair: \(pairing.address)\n")
                if isatty(1) != 0, let code = pairing.terminalCode { writeAll(1, code) }
            }
            // Not the token: a command line is there for every local user to read.
            if openBrowser { open(server.oneTimeAddress(port: port)) }
        }
    } catch { failure = error }
    done.signal()
}
done.wait()
deadlines.forEach { $0.cancel() }
if let failure {
    writeAll(2, "error: the studio stopped: \(failure)\n")
    exit(1)
}
