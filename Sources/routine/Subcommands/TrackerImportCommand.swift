import ArgumentParser
import RoutineHistory
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// The trackers `history import --from` reads.
enum Tracker: String, ExpressibleByArgument, CaseIterable {
    case loop, harsh
}

/// `history import --from loop|harsh FILE --routine OUT`: the routine file first, then the days
/// in one transaction; when the history refuses them, the routine file is put back as it was.
struct TrackerImportCommand {
    var tracker: Tracker
    var file: String
    var output: String
    var name: String?
    var archived: Bool
    var history: HistoryOptions

    func run() throws {
        let colors = Terminal.wantsColor(.auto, fd: 2)
        let source: any TrackerSource
        // Loop's CSV export as Loop hands it over, a zip: unpacked for the import's length.
        var archive: LoopCSVArchive?
        defer { archive?.remove() }
        func reportRead(_ error: TrackerReadError) {
            report((archive?.naming(error) ?? error).diagnostic, colors: colors)
        }
        do {
            switch tracker {
            case .harsh: source = try HarshSource(folder: file)
            case .loop:
                var info = stat()
                let isFolder = stat(file, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
                if isFolder {
                    source = try LoopCSVSource(folder: file)
                } else if LoopCSVArchive.isArchive(file) {
                    let unpacked = try LoopCSVArchive(path: file)
                    archive = unpacked
                    source = try LoopCSVSource(folder: unpacked.folder)
                } else {
                    source = try LoopBackupSource(path: file)
                }
            }
        } catch let error as TrackerReadError {
            reportRead(error)
            throw Exit.errors
        }
        let format = SourceFile(name: output, bytes: []).formatFromExtension ?? .rt
        var existing: [UInt8]?
        let identity = FileIdentity.of(output)
        if identity != nil {
            switch InputReader.read(output) {
            case .success(let current): existing = current.bytes
            case .failure(let diagnostic):
                report(diagnostic, colors: colors)
                throw Exit.unreadable
            }
        }
        let routineName = name ?? Self.stem(output)
        let plan: ImportPlan
        switch ImportPlan.make(
            habits: source.habits, routineName: routineName, output: output, format: format, existing: existing,
            includeArchived: archived, origin: "\(source.trackerName): '\(file)'")
        {
        case .success(let made): plan = made
        case .failure(let diagnostic):
            report(diagnostic, colors: colors)
            throw Exit.errors
        }
        if let text = plan.text {
            let purpose: AtomicFile.Purpose = existing == nil ? .create : .rewrite(expecting: identity)
            if case .failure(let diagnostic) = AtomicFile.write(Array(text.utf8), to: output, purpose: purpose) {
                report(diagnostic, colors: colors)
                throw Exit.outputFailed
            }
        }
        // Puts the routine file back as it was: the import is all or nothing.
        func undoFile() {
            guard plan.text != nil else { return }
            if let existing {
                _ = AtomicFile.write(existing, to: output, purpose: .rewrite(expecting: nil))
            } else {
                unlink(output)
            }
        }
        let unwritable = { (error: HistoryError?) in
            switch error {
            case .unavailable(let path, let reason): report(.unwritable(path, reason: reason), colors: colors)
            case let error?: report(error.readingDiagnostic, colors: colors)
            case nil: report(.noHistoryPlace(), colors: colors)
            }
        }
        let store: HistoryStore
        do {
            guard let opened = try history.openForWriting(disabled: false, unavailable: unwritable) else {
                undoFile()
                throw Exit.historyRefused
            }
            store = opened
        } catch {
            undoFile()
            throw error
        }
        let bytes = Array((plan.text ?? String(decoding: existing ?? [], as: UTF8.self)).utf8)
        let summary: ImportSummary
        do {
            summary = try TrackerImport.run(
                source, plan: plan, into: store, path: absolutePath(output), sourceHash: sourceHash(bytes))
        } catch let error as TrackerReadError {
            undoFile()
            reportRead(error)
            throw Exit.errors
        } catch let error as HistoryError {
            undoFile()
            unwritable(error)
            throw Exit.historyRefused
        }
        var lines: [String] = []
        if plan.text != nil {
            lines.append(
                existing == nil
                    ? "wrote the routine '\(routineName)' to '\(output)'"
                    : "added \(plan.habitsAdded) habit\(plan.habitsAdded == 1 ? "" : "s") to '\(output)'")
        }
        let already = summary.days - summary.added - summary.alreadyRecorded
        lines.append(
            "imported \(summary.added) day\(summary.added == 1 ? "" : "s") into '\(store.path)'"
                + StandardError.already(already, "there"))
        lines.append(summary.text)
        StandardError.write(visible: lines.joined(separator: "\n") + "\n")
    }

    /// `habits` for `some/habits.rt`.
    static func stem(_ path: String) -> String {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base }
        return String(base[..<dot])
    }
}
