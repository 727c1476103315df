import ArgumentParser
import RoutineHistory
import RoutineKit

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Export the run history, or import runs into it.",
        subcommands: [HistoryExportCommand.self, HistoryImportCommand.self]
    )
}

enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case jsonl, csv
}

struct HistoryExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every recorded run, oldest first: JSON Lines (one run per line) or CSV (one step per row).",
        discussion: "JSON Lines end with the days off, one per line. 'routine history import' reads the JSON Lines back without loss."
    )

    @Option(help: "jsonl or csv.")
    var format: ExportFormat = .jsonl

    @Option(name: .shortAndLong, parsing: .unconditional, help: "Write to this file (atomically) instead of standard output.", completion: .file())
    var output: String?

    @OptionGroup var history: HistoryOptions

    func run() throws {
        ignoreBrokenPipes()
        let store = try history.openForReading()
        let runs = try store?.runs(RunFilter(oldestFirst: true)) ?? []
        var text = ""
        switch format {
        case .jsonl:
            for run in runs { text += HistoryJSON.encode(run).text + "\n" }
            for day in try store?.daysOff() ?? [] { text += HistoryJSON.encode(day).text + "\n" }
        case .csv:
            text = HistoryCSV.line(HistoryCSV.header)
            for run in runs { for row in HistoryCSV.rows(run) { text += HistoryCSV.line(row) } }
        }
        guard let output else {
            StandardOutput.write(text)
            return
        }
        if case .failure(let diagnostic) = AtomicFile.write(Array(text.utf8), to: output) {
            report(diagnostic, colors: Terminal.wantsColor(.auto, fd: 2))
            throw Exit.outputFailed
        }
    }
}

struct HistoryImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the runs of a JSON Lines file, as 'history export' writes it, to the history.",
        discussion: """
            A run already in the history (the same routine, date and start time) is passed over, so importing \
            a file twice adds nothing. The file is checked whole first: one bad line and nothing is imported.
            """
    )

    @Argument(help: "The JSON Lines file; '-' reads standard input.", completion: .file(extensions: ["jsonl", "json"]))
    var file: String

    @OptionGroup var history: HistoryOptions

    func run() throws {
        ignoreBrokenPipes()
        let colors = Terminal.wantsColor(.auto, fd: 2)
        let source: SourceFile
        switch InputReader.read(file) {
        case .success(let read): source = read
        case .failure(let diagnostic):
            report(diagnostic, colors: colors)
            throw Exit.unreadable
        }
        let text = String(decoding: source.bytes, as: UTF8.self)
        var runs: [StoredRun] = []
        var daysOff: [DayOff] = []
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if trimmed.allSatisfy(\.isWhitespace) { continue }
            do {
                if HistoryJSON.isDayOff(trimmed) {
                    daysOff.append(try HistoryJSON.decodeDayOff(trimmed))
                    continue
                }
                runs.append(try HistoryJSON.decode(trimmed))
            } catch {
                report(.invalidImport(file, line: k + 1, reason: error.reason), colors: colors)
                throw Exit.errors
            }
        }
        let unwritable = { (error: HistoryError?) in
            guard case .unavailable(let path, let reason) = error else { return report(.noHistoryPlace(), colors: colors) }
            report(.unwritable(path, reason: reason), colors: colors)
        }
        guard let store = try history.openForWriting(disabled: false, unavailable: unwritable) else { throw Exit.historyRefused }
        do {
            let added = try store.insertRuns(runs)
            let already = runs.count - added
            let offAdded = daysOff.isEmpty ? 0 : try store.insertDaysOff(daysOff)
            let off = daysOff.isEmpty ? "" : " and \(offAdded) day\(offAdded == 1 ? "" : "s") off"
            StandardError.write(visible: "imported \(added) run\(added == 1 ? "" : "s")\(off) into '\(store.path)'"
                + (already > 0 ? "; \(already) \(already == 1 ? "was" : "were") already there" : "") + "\n")
        } catch {
            unwritable(error)
            throw Exit.historyRefused
        }
    }
}
