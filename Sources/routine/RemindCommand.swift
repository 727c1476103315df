import ArgumentParser
import RoutineHistory
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

struct RemindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remind",
        abstract: "A daily reminder as a systemd user timer: printed, installed or removed.",
        discussion: """
            Prints a .service that runs 'routine today FILE --notify' (one desktop notification when something \
            due is not done) and a .timer with Persistent=true (a reminder missed while asleep comes on waking). \
            --install writes both to $XDG_CONFIG_HOME/systemd/user (default ~/.config/systemd/user) and prints the \
            systemctl line that starts the timer. Without systemd, a crontab line does the same: \
            30 7 * * 1-5 routine today FILE --notify (with DBUS_SESSION_BUS_ADDRESS set).
            """
    )

    @Argument(help: "The routine file (.rt, .yaml, .yml).", completion: .routineFiles)
    var file: String

    @Option(help: "The time of day, HH:MM (24-hour).")
    var at: String

    @Flag(help: "Monday to Friday only.")
    var weekdays = false

    @Option(parsing: .upToNextOption, help: "Only on these days: mon tue wed thu fri sat sun.")
    var on: [String] = []

    @Flag(help: "Write the units to the systemd user folder.")
    var install = false

    @Flag(help: "Remove the units written by --install.")
    var uninstall = false

    @OptionGroup var history: HistoryOptions

    @OptionGroup var input: InputOptions

    func validate() throws {
        _ = try time()
        _ = try days()
        if weekdays, !on.isEmpty { throw ValidationError("--weekdays and --on contradict each other: choose one") }
        if install, uninstall { throw ValidationError("--install and --uninstall contradict each other: choose one") }
    }

    func time() throws -> (Int, Int) {
        let parts = at.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }), let hour = Int(parts[0]),
            let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { throw ValidationError("--at '\(at)' is not a time of day such as 07:30") }
        return (hour, minute)
    }

    func days() throws -> Weekdays? {
        if weekdays { return .weekdays }
        guard !on.isEmpty else { return nil }
        var days: Weekdays = []
        for word in on {
            guard let day = Weekdays.named(word.lowercased()) else {
                throw ValidationError("--on '\(word)' is not a day: use mon, tue, wed, thu, fri, sat or sun")
            }
            days.formUnion(day)
        }
        return days.count == 7 ? nil : days
    }

    func run() throws {
        let routine = try input.loadValid(file).routine
        var command = [Self.executablePath(), "today", "--notify"]
        if case .file(let path)? = HistoryLocation.resolve(flag: history.history, disabled: false) { command += ["--history", absolutePath(path)] }
        command.append(absolutePath(file))
        let (hour, minute) = try time()
        let units = ReminderUnits(routine: routine.name, command: command, hour: hour, minute: minute, days: try days())
        guard install || uninstall else {
            StandardOutput.write("# \(units.name).service\n\(units.service)\n# \(units.name).timer\n\(units.timer)")
            return
        }
        let folder = try Self.unitFolder()
        if uninstall {
            var removed = 0
            for suffix in [".timer", ".service"] where unlink(folder + "/" + units.name + suffix) == 0 { removed += 1 }
            guard removed > 0 else {
                StandardError.write(visible: "routine: error: no reminder '\(units.name)' is installed in '\(folder)'\n")
                throw Exit.errors
            }
            StandardOutput.write(visible: "removed \(units.name).timer and \(units.name).service from \(folder)\nto stop it now: systemctl --user disable --now \(units.name).timer\n")
            return
        }
        for (suffix, text) in [(".service", units.service), (".timer", units.timer)] {
            if case .failure(let diagnostic) = AtomicFile.write(Array(text.utf8), to: folder + "/" + units.name + suffix) {
                report(diagnostic, colors: input.colorsOnStandardError)
                throw Exit.outputFailed
            }
        }
        StandardOutput.write(visible: "wrote \(folder)/\(units.name).service and .timer\nto start it: systemctl --user daemon-reload && systemctl --user enable --now \(units.name).timer\n")
    }

    /// $XDG_CONFIG_HOME/systemd/user, else ~/.config/systemd/user, created when missing.
    static func unitFolder() throws -> String {
        let config = getenv("XDG_CONFIG_HOME").map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil }
        guard let base = config ?? getenv("HOME").map({ String(cString: $0) + "/.config" }) else {
            throw ValidationError("neither XDG_CONFIG_HOME nor HOME is set: there is no systemd user folder")
        }
        var path = ""
        for part in (base + "/systemd/user").split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o755) != 0, errno != EEXIST {
                StandardError.write(visible: "routine: error: cannot create the folder '\(path)': \(String(cString: strerror(errno)))\n")
                throw Exit.outputFailed
            }
        }
        return path
    }

    /// This program's own path, for the service to run.
    static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    }
}
