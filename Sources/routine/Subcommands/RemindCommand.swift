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
            systemctl line that starts the timer; the units are named routine-NAME-HASH (HASH of the routine's \
            name), checked by systemd-analyze verify where it is installed, and never replace or remove another \
            routine's. Without systemd, a crontab line does the same: \
            30 7 * * 1-5 routine today FILE --notify (with DBUS_SESSION_BUS_ADDRESS set).
            """
    )

    @Argument(help: "The routine file (.rt, .yaml, .yml).", completion: .routineFiles)
    var file: String

    @Option(help: "The time of day, H:MM or HH:MM (24-hour); not needed with --uninstall.")
    var at: String?

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
        if at == nil, !uninstall { throw ValidationError("--at HH:MM is needed: the time of day of the reminder") }
        if at != nil { _ = try time() }
        _ = try days()
        if weekdays, !on.isEmpty { throw ValidationError("--weekdays and --on contradict each other: choose one") }
        if install, uninstall { throw ValidationError("--install and --uninstall contradict each other: choose one") }
    }

    /// The hour (one or two digits) and the minute (two); 00:00 when uninstalling without --at.
    func time() throws -> (Int, Int) {
        guard let at else { return (0, 0) }
        let parts = at.split(separator: ":", omittingEmptySubsequences: false)
        let digits = { (part: Substring) in part.allSatisfy { $0.isASCII && $0.isNumber } }
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2, digits(parts[0]), digits(parts[1]),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
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
        var paths = [file]
        if case .file(let path)? = HistoryLocation.resolve(flag: history.history, disabled: false) {
            paths.append(path)
            command += ["--history", absolutePath(path)]
        }
        if !uninstall, let shown = Self.pathNotUTF8(paths) {
            report(.unitPathNotUTF8(shown), colors: input.colorsOnStandardError)
            throw Exit.errors
        }
        command.append(absolutePath(file))
        let (hour, minute) = try time()
        let units = ReminderUnits(routine: routine.name, command: command, hour: hour, minute: minute, days: try days())
        guard install || uninstall else {
            StandardOutput.write("# \(units.name).service\n\(units.service)\n# \(units.name).timer\n\(units.timer)")
            return
        }
        let folder = try Self.unitFolder()
        let files = [(".service", units.service), (".timer", units.timer)].map { (folder + "/" + units.name + $0.0, $0.1) }
        for (path, _) in files { try refuseIfAnother(path, units: units, folder: folder) }
        if uninstall {
            var removed = 0
            for (path, _) in files where unlink(path) == 0 { removed += 1 }
            guard removed > 0 else {
                StandardError.write(visible: "routine: error: no reminder '\(units.name)' is installed in '\(folder)'\n")
                throw Exit.errors
            }
            StandardOutput.write(
                visible:
                    "removed \(units.name).timer and \(units.name).service from \(folder)\nto stop it now: systemctl --user disable --now \(units.name).timer\n"
            )
            return
        }
        if let refusal = Self.verify(units) {
            report(refusal, colors: input.colorsOnStandardError)
            throw Exit.errors
        }
        for (path, text) in files {
            if case .failure(let diagnostic) = AtomicFile.write(Array(text.utf8), to: path) {
                report(diagnostic, colors: input.colorsOnStandardError)
                throw Exit.outputFailed
            }
        }
        StandardOutput.write(
            visible:
                "wrote \(folder)/\(units.name).service and .timer\nto start it: systemctl --user daemon-reload && systemctl --user enable --now \(units.name).timer\n"
        )
    }

    /// Refuses a unit file at `path` that is not this routine's: another routine's (a hash that
    /// collides), or one that no 'remind' wrote.
    func refuseIfAnother(_ path: String, units: ReminderUnits, folder: String) throws {
        guard case .success(let source) = InputReader.read(path) else { return }
        let lines = String(decoding: source.bytes, as: UTF8.self).split(separator: "\n")
        if lines.contains(where: { $0 == units.ownerLine }) { return }
        let owner = lines.first { $0.hasPrefix("X-Routine=\"") }.map { String($0.dropFirst("X-Routine=\"".count).dropLast()) }
        let unit = path.split(separator: "/").last.map(String.init) ?? path
        report(.unitOfAnotherRoutine(unit, folder: folder, owner: owner), colors: input.colorsOnStandardError)
        throw Exit.errors
    }

    /// The first path (as given, or the folder it is relative to) whose bytes are not UTF-8,
    /// shown with them as `\xFF`: Swift reads such a name as another, and the unit would run
    /// another file.
    static func pathNotUTF8(_ paths: [String]) -> String? {
        for given in paths {
            if let raw = RawArguments.bytes(of: given) {
                return Sanitizer.visible(bytes: raw.dropLast().map { UInt8(bitPattern: $0) })
            }
            if !given.hasPrefix("/"), let cwd = getcwd(nil, 0) {
                defer { free(cwd) }
                if String(validatingCString: cwd) == nil {
                    return Sanitizer.visible(bytes: Array(UnsafeBufferPointer(start: cwd, count: strlen(cwd))).map { UInt8(bitPattern: $0) }) + "/"
                        + given
                }
            }
        }
        return nil
    }

    /// The units as systemd would load them, written to a temporary folder and checked by
    /// `systemd-analyze verify` when it is installed; nil when they pass, or cannot be checked.
    static func verify(_ units: ReminderUnits) -> Diagnostic? {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((base + "/routine-remind-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        let folder = String(cString: made)
        let files = [(".service", units.service), (".timer", units.timer)].map { (folder + "/" + units.name + $0.0, $0.1) }
        defer {
            for (path, _) in files { unlink(path) }
            rmdir(folder)
        }
        for (path, text) in files {
            guard case .success = AtomicFile.write(Array(text.utf8), to: path) else { return nil }
        }
        guard let checked = ChildProcess.run("systemd-analyze", ["verify"] + files.map(\.0)) else { return nil }
        let complaints = (checked.outputText + checked.errorText).split(separator: "\n").filter { $0.contains(units.name) }
        // A failure that names neither unit is the machine's (no manager to ask), not the unit's.
        guard !complaints.isEmpty else { return nil }
        let reason = complaints.map { $0.replacing(folder + "/", with: "") }.joined(separator: "; ")
        return .unitRefusedBySystemd(units.name, reason: Sanitizer.visible(reason))
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
