import ArgumentParser
import RoutineHistory
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Write this device's journal in the sync folder and read the other devices' (docs/sync.md).",
        discussion: """
            Once a history is a member of a sync folder ('sync init'), every command writes its changes to \
            the journal and reads what changed in the others; 'routine sync' does both now and says what came in. \
            Syncthing, git or any tool that copies files carries the folder.
            """,
        subcommands: [SyncNowCommand.self, SyncInitCommand.self, SyncStatusCommand.self, SyncLeaveCommand.self],
        defaultSubcommand: SyncNowCommand.self
    )
}

/// Opens the history a sync command works on; a sync command always writes it.
private func openHistory(_ history: HistoryOptions) throws -> HistoryStore {
    let colors = Terminal.wantsColor(.auto, fd: 2)
    let store = try history.openForWriting(disabled: false) { error in
        report(error.map(\.readingDiagnostic) ?? .noHistoryPlace(), colors: colors)
    }
    guard let store else { throw Exit.historyRefused }
    return store
}

/// A sync command that works on a history already in a sync folder: it opens the history,
/// refuses one that is not a member, and hands both on.
private protocol SyncMemberCommand: ParsableCommand {
    var history: HistoryOptions { get }
    func run(_ store: HistoryStore, _ settings: SyncSettings) throws
}

extension SyncMemberCommand {
    func run() throws {
        ignoreBrokenPipes()
        let store = try openHistory(history)
        try run(store, try member(store, history))
    }
}

private func member(_ store: HistoryStore, _ history: HistoryOptions) throws -> SyncSettings {
    guard let settings = try history.reading({ try store.syncSettings() }) else {
        report(.syncNotMember(store.path), colors: Terminal.wantsColor(.auto, fd: 2))
        throw Exit.errors
    }
    return settings
}

/// "3 runs and 2 logs from desk", one line a device; "nothing new" when nothing came in.
func describe(_ report: SyncReport) -> String {
    var lines: [String] = []
    for arrival in report.arrivals where !arrival.isEmpty {
        let parts = [(arrival.runs, "run"), (arrival.logs, "log"), (arrival.deletions, "deletion"), (arrival.daysOff, "day off")]
            .filter { $0.0 > 0 }
            .map { count, noun in "\(count) \(count == 1 ? noun : noun == "day off" ? "days off" : noun + "s")" }
        let list = parts.count > 1 ? parts.dropLast().joined(separator: ", ") + " and " + parts.last! : parts[0]
        lines.append("\(list) from \(arrival.device.isEmpty ? "a device with no name" : Sanitizer.visible(arrival.device))")
    }
    return lines.isEmpty ? "nothing new came in" : lines.joined(separator: "\n")
}

private func syncing<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as HistoryError {
        if case .unavailable(let path, let reason) = error {
            report(.syncUnavailable(path, reason: reason), colors: Terminal.wantsColor(.auto, fd: 2))
            throw Exit.outputFailed
        }
        report(error.readingDiagnostic, colors: Terminal.wantsColor(.auto, fd: 2))
        throw Exit.historyRefused
    }
}

struct SyncNowCommand: SyncMemberCommand {
    static let configuration = CommandConfiguration(
        commandName: "now", abstract: "Write what this device has not written yet, read what is new, and say what came in.")

    @OptionGroup var history: HistoryOptions

    func run(_ store: HistoryStore, _ settings: SyncSettings) throws {
        let result = try syncing { try store.syncNow() }
        StandardOutput.write(visible: describe(result) + "\n")
    }
}

struct SyncInitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Make this history a member of a sync folder, as a device of its own.",
        discussion: """
            The folder is created (mode 0700) when missing. This device writes only FOLDER/<its id>/; its whole \
            history goes there first, then every other device's journal is read in.
            """
    )

    @Argument(help: "The sync folder (one that Syncthing or git carries).", completion: .directory)
    var folder: String

    @Option(help: "This device's name, as the others show it (default: the host name).")
    var device: String?

    @OptionGroup var history: HistoryOptions

    func validate() throws {
        if folder.isEmpty { throw ValidationError("FOLDER needs a name; '' names none") }
        if let device, device.isEmpty || RecordedValues.textProblem(device) != nil {
            throw ValidationError("--device needs a name without control characters")
        }
    }

    func run() throws {
        ignoreBrokenPipes()
        let store = try openHistory(history)
        // `absolutePath` keeps "-" (standard input's name) as it is; here it is a folder.
        let absolute = absolutePath(folder == "-" ? "./-" : folder)
        let result = try syncing { try store.joinSync(folder: absolute, name: device ?? hostName()) }
        let settings = try member(store, history)
        StandardOutput.write(
            visible:
                "'\(Sanitizer.visible(store.path))' syncs with '\(Sanitizer.visible(settings.folder))' as '\(Sanitizer.visible(settings.name))' (\(settings.device)); wrote \(result.written) event\(result.written == 1 ? "" : "s")\n"
                + describe(result) + "\n")
    }

    private func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "device" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "device" : name
    }
}

struct SyncStatusCommand: SyncMemberCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "List the devices of the sync folder, what this one has not written, and what could not be read.")

    @OptionGroup var history: HistoryOptions

    func run(_ store: HistoryStore, _ settings: SyncSettings) throws {
        guard let status = try history.reading({ try store.syncStatus() }) else { throw Exit.errors }
        let text =
            "folder \(Sanitizer.visible(status.settings.folder))\nthis device \(Sanitizer.visible(status.settings.name)) (\(status.settings.device))\n"
        var table = TextTable(columns: 5, rows: status.devices.count + 1)
        for cell in ["DEVICE", "NAME", "LAST EVENT", "EVENTS", "READ TO"] {
            table.append(cell)
            table.endCell()
        }
        for device in status.devices {
            let this = device.id == status.settings.device ? " (this)" : ""
            for cell in [device.id, device.name + this, device.lastEvent ?? "-", String(device.events), String(device.highestSequence)] {
                table.append(visible: cell)
                table.endCell()
            }
        }
        var tail = "not written yet: \(status.unwritten)\n"
        // Each text from the folder escaped on its own: a newline in a file's name forges no line.
        for held in status.held { tail += Sanitizer.visible(held.sentence) + "\n" }
        for problem in status.problems { tail += "cannot read: \(Sanitizer.visible(problem))\n" }
        var out = BufferedOutput(fd: 1)
        out.write(visible: text)
        table.write(to: &out)
        out.write(visible: tail)
        out.flush()
    }
}

struct SyncLeaveCommand: SyncMemberCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave", abstract: "Stop syncing this history; the journals stay in the folder.")

    @OptionGroup var history: HistoryOptions

    func run(_ store: HistoryStore, _ settings: SyncSettings) throws {
        _ = try syncing { try store.leaveSync() }
        StandardOutput.write(visible: "'\(Sanitizer.visible(store.path))' no longer syncs with '\(Sanitizer.visible(settings.folder))'\n")
    }
}

struct HistoryRebuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Make a new history from the journals of the sync folder alone.",
        discussion: """
            --history names the history whose sync folder is read; every device's journal is read, this \
            one's included. OUT must not exist yet. Its 'history export' equals the original's.
            """
    )

    @Argument(help: "The new history file to write (it must not exist).", completion: .file(extensions: ["sqlite"]))
    var output: String

    @Flag(help: "Read the sync folder's journals (the only source there is so far).")
    var fromSync = false

    @OptionGroup var history: HistoryOptions

    func validate() throws {
        if output.isEmpty { throw ValidationError("OUT needs a file name; '' names none") }
        if !fromSync { throw ValidationError("give --from-sync: a history is rebuilt from its sync folder") }
    }

    func run() throws {
        ignoreBrokenPipes()
        let colors = Terminal.wantsColor(.auto, fd: 2)
        var info = stat()
        if lstat(output, &info) == 0 {
            report(.unwritable(output, reason: AtomicFile.alreadyExists), colors: colors)
            throw Exit.outputFailed
        }
        let source = try openHistory(history)
        let settings = try member(source, history)
        let result: SyncReport
        do {
            guard let store = try HistoryStore.open(output, create: true) else {
                throw HistoryError.unavailable(path: output, reason: "it cannot be created")
            }
            result = try store.rebuild(fromSync: settings.folder)
        } catch let error as HistoryError {
            let reason = if case .unavailable(_, let reason) = error { reason } else { error.description }
            report(.unwritable(output, reason: reason), colors: colors)
            throw Exit.outputFailed
        }
        let counts = result.arrivals.reduce((0, 0)) { ($0.0 + $1.runs + $1.logs, $0.1 + $1.daysOff) }
        StandardOutput.write(visible: "rebuilt '\(output)' from '\(settings.folder)': \(counts.0) runs and logs, \(counts.1) days off\n")
    }
}
