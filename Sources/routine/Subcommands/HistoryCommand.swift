import ArgumentParser
import RoutineHistory
import RoutineKit

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Export the run history, import runs into it, check it, or recover what a damaged one still holds.",
        subcommands: [
            HistoryExportCommand.self, HistoryImportCommand.self, HistoryCheckCommand.self, HistoryRecoverCommand.self, HistoryRebuildCommand.self,
        ]
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
        let runs = try history.reading { try store?.runs(RunFilter(oldestFirst: true)) ?? [] }
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

    @Argument(
        help: "The JSON Lines file ('-' reads standard input); with --from, Loop's backup or CSV folder, or harsh's folder.",
        completion: .file(extensions: ["jsonl", "json", "db"]))
    var file: String

    @Option(help: "Import another tracker's history: loop (Loop Habit Tracker) or harsh.")
    var from: Tracker?

    @Option(
        help: "With --from: the routine file to write for the habits (.rt, .yaml); an import's own file is added to.",
        completion: .file(extensions: ["rt", "yaml", "yml"]))
    var routine: String?

    @Option(help: "With --from: the routine's name (default: the routine file's name without its extension).")
    var name: String?

    @Flag(help: "With --from: import archived habits too.")
    var archived = false

    @OptionGroup var history: HistoryOptions

    func validate() throws {
        if from != nil, routine == nil { throw ValidationError("--from needs --routine FILE, the routine to write for the habits") }
        if from == nil, routine != nil || name != nil || archived {
            throw ValidationError("--routine, --name and --archived go with --from loop or --from harsh")
        }
    }

    func run() throws {
        ignoreBrokenPipes()
        if let from, let routine {
            try TrackerImportCommand(tracker: from, file: file, output: routine, name: name, archived: archived, history: history).run()
            return
        }
        let colors = Terminal.wantsColor(.auto, fd: 2)
        // Read as a stream: memory holds the runs and one line, not the file. A named pipe or a
        // device given by name is refused rather than waited on; '-' is the one way to pipe.
        let lines: LineReader
        switch file == "-" ? LineReader.open(file) : LineReader.openRegularFile(file) {
        case .success(let reader): lines = reader
        case .failure(let diagnostic):
            report(diagnostic, colors: colors)
            throw Exit.unreadable
        }
        var runs: [StoredRun] = []
        var daysOff: [DayOff] = []
        reading: while true {
            let line: [UInt8]
            switch lines.nextNonBlank() {
            case .success(let next?): line = next
            case .success(nil): break reading
            case .failure(let diagnostic):
                report(diagnostic, colors: colors)
                throw Exit.unreadable
            }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            do {
                if HistoryJSON.isDayOff(line) {
                    daysOff.append(try HistoryJSON.decodeDayOff(line))
                    continue
                }
                runs.append(try HistoryJSON.decode(line))
            } catch {
                report(.invalidImport(file, line: lines.lineNumber, reason: error.reason), colors: colors)
                throw Exit.errors
            }
        }
        let unwritable = { (error: HistoryError?) in
            switch error {
            case .unavailable(let path, let reason): report(.unwritable(path, reason: reason), colors: colors)
            case let error?: report(error.readingDiagnostic, colors: colors)
            case nil: report(.noHistoryPlace(), colors: colors)
            }
        }
        guard let store = try history.openForWriting(disabled: false, unavailable: unwritable) else { throw Exit.historyRefused }
        do {
            let added = try store.insertRuns(runs)
            let already = runs.count - added
            let offAdded = daysOff.isEmpty ? 0 : try store.insertDaysOff(daysOff)
            let off = daysOff.isEmpty ? "" : " and \(offAdded) day\(offAdded == 1 ? "" : "s") off"
            StandardError.write(
                visible: "imported \(added) run\(added == 1 ? "" : "s")\(off) into '\(store.path)'"
                    + StandardError.already(already, "there") + "\n")
        } catch {
            unwritable(error)
            throw Exit.historyRefused
        }
    }
}
