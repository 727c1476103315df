import ArgumentParser
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Walk through a routine, step by step.",
        discussion: """
            At a terminal, answers are typed: Enter or d (done), s (skip), b (back), q (quit), ? (help), \
            an option's number or text, or a numeric habit's value. When standard input is not a terminal, \
            or with --answers, the same answers are read one per line. Exit 0 when the run completes or is \
            quit, 3 when scripted answers run out, 130 on Ctrl-C.
            """
    )

    @Argument(help: "The routine file (.rt, .yaml, .yml); '-' reads standard input (then answers need --answers).")
    var file: String

    @Option(help: "The run's date (YYYY-MM-DD) for schedules; default: today in local time.")
    var date: String?

    @Option(help: "Read the answers from this file, one per line.")
    var answers: String?

    @Flag(help: "Write the run as JSON Lines on stdout, one event per line, without prompts.")
    var json = false

    @OptionGroup var input: InputOptions

    func validate() throws {
        if let date, CalendarDate(date) == nil {
            throw ValidationError("'\(date)' is not a date: use YYYY-MM-DD, such as 2026-11-23")
        }
        if file == "-", answers == nil {
            throw ValidationError("reading the routine from standard input needs the answers in a file: --answers FILE")
        }
    }

    func run() throws {
        ignoreBrokenPipes()
        let loaded = try input.loadValid(file)
        var source = try AnswerSource(path: answers)
        let interactive = source.isTerminal && !json
        let colors = interactive && Terminal.isTerminal(1) && Terminal.environmentAllowsColor && input.color != .never
            || input.color == .always
        let transcript = RunTranscript(interactive: interactive, colors: colors)
        var run = RoutineRun(routine: loaded.routine, date: date.flatMap(CalendarDate.init) ?? .today())
        var out = BufferedOutput(fd: 1)
        let clock = ContinuousClock()
        let started = clock.now
        Interrupts.install()
        let result = RunDriver.drive(
            &run, endOfInputResult: interactive ? .quit : .incomplete,
            read: {
                // Whoever answers on standard input may be waiting to see the question; a
                // file of answers is not, and a write per step would cost a system call each.
                if !source.isFile { out.flush() }
                return source.next()
            },
            emit: { event, run in
                var elapsed: Double { (clock.now - started) / .seconds(1) }
                if json {
                    if let object = event.json(run, elapsed: { if case .end = event { elapsed } else { nil } }()) {
                        out.write(object)
                    }
                    if case .invalid = event { StandardError.write(transcript.render(event, run).stderr) }
                    return
                }
                let (stdout, stderr) = transcript.render(event, run, elapsed: elapsed)
                if interactive, case .end = event { out.write("\n") }
                out.write(stdout)
                if !stderr.isEmpty {
                    out.flush()
                    StandardError.write(stderr)
                }
            })
        out.flush()
        switch result {
        case .completed, .quit: return
        case .incomplete: throw Exit.answersRanOut
        case .interrupted: throw Exit.interrupted
        }
    }
}

/// Where answers come from: a file, or standard input (a terminal or a pipe).
struct AnswerSource {
    private let file: UnsafeMutablePointer<FILE>?
    let isTerminal: Bool
    /// Whether the answers come from a regular file, which cannot be waiting for the output
    /// (a named pipe on the command line may be).
    let isFile: Bool
    /// `getline`'s buffer, kept from line to line.
    private let line = LineBuffer()

    /// Owns the buffer `getline` grows.
    private final class LineBuffer {
        var bytes: UnsafeMutablePointer<CChar>?
        var capacity = 0
        deinit { free(bytes) }
    }

    init(path: String?) throws {
        if let path {
            var info = stat()
            let found = stat(path, &info) == 0
            let isDirectory = found && (info.st_mode & S_IFMT) == S_IFDIR
            guard !isDirectory, let handle = fopen(path, "r") else {
                let reason = isDirectory ? "it is a directory" : String(cString: strerror(errno)).lowercased()
                StandardError.write("routine: error[E001]: cannot read '\(path)': \(reason)\n")
                throw Exit.unreadable
            }
            file = handle
            isTerminal = false
            isFile = found && (info.st_mode & S_IFMT) == S_IFREG
        } else {
            file = fdopen(0, "r")
            isTerminal = Terminal.isTerminal(0)
            isFile = false
        }
    }

    mutating func next() -> RunLine {
        if Interrupts.happened { return .interrupted }
        guard let file else { return .endOfInput }
        var n = getline(&line.bytes, &line.capacity, file)
        if Interrupts.happened { return .interrupted }
        guard n >= 0, let bytes = line.bytes else { return .endOfInput }
        // The line break, whichever it is, is not part of the answer.
        while n > 0, bytes[n - 1] == 0x0A || bytes[n - 1] == 0x0D { n -= 1 }
        return .line(bytes.withMemoryRebound(to: UInt8.self, capacity: n) {
            String(decoding: UnsafeBufferPointer(start: $0, count: n), as: UTF8.self)
        })
    }
}

/// Ctrl-C: the handler only sets a flag; the read it interrupts returns, and the run ends
/// cleanly with its summary. No SA_RESTART, so a blocked read does return.
enum Interrupts {
    nonisolated(unsafe) static var flag: sig_atomic_t = 0

    static var happened: Bool { flag != 0 }

    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in Interrupts.flag = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }
}
