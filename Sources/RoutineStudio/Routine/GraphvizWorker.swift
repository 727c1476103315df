import CSpawn
import Dispatch
import FoundationEssentials
import RoutineKit
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A long-lived `dot -Tjson0` that lays out one graph after another. `dot` reads graphs from
/// its input until the input ends and writes each layout as soon as it is made, so a layout
/// pays neither for starting a process nor for loading Graphviz's plugins (BENCHMARKS.md,
/// "The studio"). A `dot` that dies is started again for the next layout.
final class GraphvizWorker {
    private var process: (pid: pid_t, input: Int32, output: Int32)?
    /// Layouts made by this process. Graphviz 2.43 keeps about 12 KiB of each 200-node layout
    /// (1.3 MB per hundred), so the process is replaced after a few hundred, the new one
    /// started at once, while the layout just made is being read.
    private var made = 0
    static let layoutsPerProcess = 200
    private static let name = "Graphviz's layout"

    deinit { stop() }

    /// Gives `dot` a graph to lay out, which it starts on at once; `finish()` reads the layout.
    /// Between the two the caller may do other work while `dot` runs on another core.
    func begin(_ dot: [UInt8]) -> Diagnostic? {
        for _ in 0..<2 {
            if process == nil, let failure = start() { return failure }
            guard let process else { break }
            let written = dot.withUnsafeBufferPointer { writeFully(process.input, $0) }
            if written == 0 { return nil }
            // The process had ended (EPIPE): one more try with a new one.
            stop()
        }
        return .unwritable(Self.name, reason: "Graphviz's dot does not read its input")
    }

    /// The layout of the graph given to `begin`: one JSON object, as `dot -Tjson0` writes it.
    /// Past `limit`, `dot` is ended and the answer is nil: a huge graph may take it minutes.
    func finish(within limit: Duration? = nil) -> Result<[UInt8], Diagnostic>? {
        guard let process else { return .failure(.unwritable(Self.name, reason: "Graphviz's dot is not running")) }
        let deadline = limit.map { ContinuousClock.now + $0 }
        var out: [UInt8] = []
        var scan = JSONEnd()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let deadline {
                var ready = pollfd(fd: process.output, events: Int16(POLLIN), revents: 0)
                let found = poll(&ready, 1, Self.milliseconds(until: deadline))
                if found < 0, errno == EINTR { continue }
                if found == 0 {
                    kill(process.pid, SIGKILL)
                    stop()
                    return nil
                }
            }
            let count = chunk.withUnsafeMutableBytes { read(process.output, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let status = stop()
                let why = GraphvizRenderer.failure(status: status) ?? "Graphviz's dot stopped before its layout was written"
                return .failure(.unwritable(Self.name, reason: why))
            }
            let start = out.count
            out.append(contentsOf: chunk[0..<count])
            if let end = scan.end(in: out, from: start) {
                made += 1
                if made >= Self.layoutsPerProcess {
                    stop()
                    _ = self.start()
                }
                return .success(Array(out[..<end]))
            }
        }
    }

    /// Whole milliseconds from now to `deadline`, rounded up (0 once it has passed), for `poll`.
    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = (deadline - .now).components
        guard left.seconds >= 0, left.seconds < Int64(Int32.max / 1000) - 1 else { return left.seconds < 0 ? 0 : Int32.max }
        return Int32(left.seconds * 1000 + (left.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    /// Starts `dot` ahead of the first layout, so that it too finds Graphviz loaded.
    func prepare() {
        if process == nil { _ = start() }
    }

    /// Lays out one graph.
    func layout(_ dot: [UInt8]) -> Result<[UInt8], Diagnostic> {
        if let failure = begin(dot) { return .failure(failure) }
        return finish()!
    }

    private func start() -> Diagnostic? {
        // A write to a `dot` that has died must fail with EPIPE, not end the studio.
        signal(SIGPIPE, SIG_IGN)
        guard let input = GraphvizRenderer.closeOnExecPipe() else { return .unwritable(Self.name, reason: InputReader.describe(errno)) }
        guard let output = GraphvizRenderer.closeOnExecPipe() else {
            close(input.read)
            close(input.write)
            return .unwritable(Self.name, reason: InputReader.describe(errno))
        }
        #if os(Linux)
        // Room for a whole graph each way (F_SETPIPE_SZ, which Swift does not import), so
        // neither side waits for the other while the studio does other work.
        let setPipeSize: Int32 = 1031
        _ = fcntl(input.write, setPipeSize, 1 << 20)
        _ = fcntl(output.write, setPipeSize, 1 << 20)
        #endif
        // `-q`: a warning (pinned cards that touch get straight arrows) is no news for the terminal.
        let pid = TiedChild.spawn("dot", ["-q", "-Tjson0"], input: input.read, output: output.write)
        close(input.read)
        close(output.write)
        guard let pid else {
            close(input.write)
            close(output.read)
            return .missingProgram("dot", for: Self.name)
        }
        process = (pid, input.write, output.read)
        Self.running.insert(pid)
        made = 0
        return nil
    }

    /// Ends the process (its input closes, and `dot` exits at the end of its input); its wait status.
    @discardableResult
    private func stop() -> Int32 {
        guard let process else { return 0 }
        self.process = nil
        close(process.input)
        close(process.output)
        var status: Int32 = 0
        while waitpid(process.pid, &status, 0) < 0, errno == EINTR {}
        Self.running.remove(process.pid)
        return status
    }

    /// Every `dot` the studio runs, so that a signal to stop ends them at once: a layout under
    /// way would hold the studio, and outlive it, for as long as it takes.
    static let running = ProcessSet()

    /// Kills every `dot` running (reaped by the worker that started it, whose layout then fails).
    static func endAll() { running.kill() }
}

/// Process ids behind a lock, for a signal's handler to read on its own queue.
final class ProcessSet: Sendable {
    private let ids = Mutex<Set<pid_t>>([])

    func insert(_ id: pid_t) { ids.withLock { _ = $0.insert(id) } }
    func remove(_ id: pid_t) { ids.withLock { _ = $0.remove(id) } }
    var count: Int { ids.withLock { $0.count } }

    func kill() {
        // Under the lock: an id is reaped, and could be reused, only after its removal here.
        ids.withLock { ids in for id in ids { _ = Glibc.kill(id, SIGKILL) } }
    }
}

/// Finds where the first JSON value of a stream ends, reading each byte once however the
/// stream arrives: the depth of braces and brackets outside strings.
struct JSONEnd {
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var started = false

    /// Just past the value's last byte, when it lies in `bytes[from...]`.
    mutating func end(in bytes: [UInt8], from: Int) -> Int? {
        var i = from
        while i < bytes.count {
            let byte = bytes[i]
            i += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                started = true
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if started, depth == 0 { return i }
            default: break
            }
        }
        return nil
    }
}

/// Starts children that end when the studio ends, however it ends (killed with SIGKILL too):
/// `dot` laying out a huge graph would otherwise run on for minutes after it. The kernel ties
/// a child to the thread that started it, so every child is started from one thread that
/// lasts as long as the process.
enum TiedChild {
    private static let thread = SpawnThread()

    /// Starts `name` (looked up in PATH) with `arguments`; nil when it is not found or cannot start.
    static func spawn(_ name: String, _ arguments: [String], input: Int32, output: Int32) -> pid_t? {
        guard let program = find(name) else { return nil }
        return thread.run {
            var argv: [UnsafeMutablePointer<CChar>?] = ([name] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            let pid = routine_spawn_tied(program, &argv, input, output)
            return pid > 0 ? pid : nil
        }
    }

    /// The first executable `name` in PATH, as posix_spawnp would find it.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

/// One thread that never ends, running one piece of work at a time for any caller.
private final class SpawnThread: @unchecked Sendable {
    /// One caller at a time; `work` is handed over under it, through the two semaphores.
    private let lock = Mutex(())
    private let asked = DispatchSemaphore(value: 0)
    private let answered = DispatchSemaphore(value: 0)
    private var work: (() -> Void)?

    /// Whether the thread runs. Without it (no thread could be made) each caller starts its
    /// children itself: they are then tied to the caller's thread, which may end before the
    /// studio, but a layout still works.
    private var serving = false

    init() {
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(self)
        let started = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<SpawnThread>.fromOpaque(raw!).takeRetainedValue().serve()
                return nil
            }, retained.toOpaque())
        guard started == 0 else {
            retained.release()
            return
        }
        serving = true
        pthread_detach(thread)
    }

    private func serve() -> Never {
        while true {
            asked.wait()
            work?()
            answered.signal()
        }
    }

    func run<T>(_ body: () -> T) -> T {
        guard serving else { return body() }
        var result: T?
        lock.withLock { _ in
            withoutActuallyEscaping(body) { body in
                work = { result = body() }
                asked.signal()
                answered.wait()
                work = nil
            }
        }
        return result!
    }
}
