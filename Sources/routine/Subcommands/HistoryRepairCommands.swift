import ArgumentParser
import RoutineHistory
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

struct HistoryCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the history file: SQLite's integrity check, then every run against the history's rules.",
        discussion: """
            Exit 0 when the history is sound; 74, with every problem listed, when it is damaged. Nothing is \
            written to the file.
            """
    )

    @OptionGroup var history: HistoryOptions

    func run() throws {
        ignoreBrokenPipes()
        let path = try history.existingPath()
        let found = try history.reading { try HistoryInspection.inspect(path) }
        if found.isSound {
            let (runs, steps) = (found.runs.count, found.stepCount)
            writeVisibly(
                "the history '\(path)' is sound: \(runs) run\(runs == 1 ? "" : "s"), \(steps) step\(steps == 1 ? "" : "s")\n" + Self.unapplied(found))
            return
        }
        var text = Self.unapplied(found)
        for problem in found.fileProblems { text += problem + "\n" }
        for (id, reason) in found.lost.prefix(Self.listed) { text += "run \(id): \(reason)\n" }
        if found.lost.count > Self.listed { text += "and \(found.lost.count - Self.listed) more runs that cannot be read\n" }
        writeVisibly(text)
        let problems = found.fileProblems.count + found.lost.count
        let readable = "\(found.runs.count) run\(found.runs.count == 1 ? "" : "s") can be read whole"
        report(
            .damagedHistory(path, reason: "\(problems) problem\(problems == 1 ? "" : "s") found; \(readable)"),
            colors: Terminal.wantsColor(.auto, fd: 2))
        throw Exit.historyRefused
    }

    /// Runs listed one by one; the rest are counted.
    static let listed = 50

    /// The sync events read and not applied, said as what they are: not damage.
    static func unapplied(_ found: HistoryInspection.Report) -> String {
        func events(_ n: Int) -> String { n == 1 ? "1 sync event is" : "\(n) sync events are" }
        var text = ""
        if found.syncHeld > 0 {
            text += "\(events(found.syncHeld)) held, not applied: dated more than a day ahead of this clock, applied once it gets there (no damage)\n"
        }
        if found.syncDuplicates > 0 {
            text +=
                "\(events(found.syncDuplicates)) not applied: another event of the same id won, as on every device (no damage; 'routine sync status' names the lines)\n"
        }
        return text
    }
}

struct HistoryRecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Copy every run that can still be read from a damaged history into a new history file.",
        discussion: """
            The damaged file is left as it is. A run is copied only whole: its row and all its steps read, and \
            every value one a run could record. OUT must not exist yet.
            """
    )

    @Argument(help: "The new history file to write (it must not exist).", completion: .file(extensions: ["sqlite"]))
    var output: String

    @OptionGroup var history: HistoryOptions

    func validate() throws {
        if output.isEmpty { throw ValidationError("OUT needs a file name; '' names none") }
    }

    func run() throws {
        ignoreBrokenPipes()
        let colors = Terminal.wantsColor(.auto, fd: 2)
        let path = try history.existingPath()
        var info = stat()
        if lstat(output, &info) == 0 {
            report(.unwritable(output, reason: AtomicFile.alreadyExists), colors: colors)
            throw Exit.outputFailed
        }
        let found = try history.reading { try HistoryInspection.inspect(path) }
        let saved: Int
        do {
            guard let store = try HistoryStore.open(output, create: true) else {
                throw HistoryError.unavailable(path: output, reason: "it cannot be created")
            }
            saved = try store.insertRuns(found.runs)
        } catch let error as HistoryError {
            let reason = if case .unavailable(_, let reason) = error { reason } else { error.description }
            report(.unwritable(output, reason: reason), colors: colors)
            throw Exit.outputFailed
        }
        let lost = found.lost.count
        var text = "saved \(saved) run\(saved == 1 ? "" : "s") (\(found.stepCount) steps) into '\(output)'; "
        text += lost == 0 ? "none lost\n" : "lost \(lost) that could not be read whole:\n"
        for (id, reason) in found.lost.prefix(HistoryCheckCommand.listed) { text += "  run \(id): \(reason)\n" }
        if lost > HistoryCheckCommand.listed { text += "  and \(lost - HistoryCheckCommand.listed) more\n" }
        if found.isCutShort { text += "the file is cut short: runs that were on its missing pages are lost and cannot be counted\n" }
        writeVisibly(text)
    }
}

/// Writes `text` to standard output with control characters in names shown visibly.
private func writeVisibly(_ text: String) {
    var out = BufferedOutput(fd: 1)
    out.write(visible: text)
    out.flush()
}
