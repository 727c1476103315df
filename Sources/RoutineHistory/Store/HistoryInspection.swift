import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// Reading a history that may be damaged, on a read-only connection that never writes to the
/// file: `history check` and `history recover`. Runs are read one by one by ID, each with its
/// steps, so that a damaged page costs only the runs on it; each run read is held to the rules
/// an import is ("steps numbered 1, 2, 3", results and values a run could record), by
/// the import's own decoder.
public enum HistoryInspection {
    /// What a look through the whole file found.
    public struct Report: Sendable {
        /// The runs that could be read whole and follow the history's rules, oldest ID first.
        public var runs: [StoredRun] = []
        /// The IDs of runs that could not be read, or broke a rule, with why.
        public var lost: [(id: Int64, reason: String)] = []
        /// SQLite's own complaints (`PRAGMA integrity_check`) and those about the file as a whole.
        public var fileProblems: [String] = []

        /// Whether the file ends before its last page: runs on the missing pages cannot even be counted.
        public var isCutShort = false

        /// Events of other devices read from the sync folder and not applied, which is no
        /// damage: those dated more than a day ahead of this clock, held until it gets there.
        public var syncHeld = 0
        /// Lines of the sync folder whose event lost to another of its id with other content
        /// (every device keeps the same one): no damage either.
        public var syncDuplicates = 0

        public var isSound: Bool { lost.isEmpty && fileProblems.isEmpty }
        public var stepCount: Int { runs.reduce(0) { $0 + $1.steps.count } }
    }

    /// Reads everything in `path` that can be read. A file that is not an SQLite database,
    /// or not a routine history, is refused as opening it would be.
    public static func inspect(_ path: String) throws(HistoryError) -> Report {
        // SQLite reads nothing at all from a file shorter than its header says: such a file is
        // read from a copy whose header counts the pages that are there.
        if let cut = try cutShort(path) {
            let copy = try wholePagesCopy(of: path, pages: cut.present, pageSize: cut.pageSize)
            defer { for suffix in ["", "-wal", "-shm"] { unlink(copy + suffix) } }
            var report = try inspect(copy, shownAs: path)
            report.fileProblems.insert("the file is cut short: it holds \(cut.present) of its \(cut.declared) pages", at: 0)
            report.isCutShort = true
            return report
        }
        return try inspect(path, shownAs: path)
    }

    private static func inspect(_ file: String, shownAs path: String) throws(HistoryError) -> Report {
        let queue: DatabaseQueue
        do {
            queue = try HistoryStore.openForInspection(file)
        } catch {
            throw HistoryStore.classify(error.renamed(to: path), path: path)
        }
        var report = Report()
        do {
            // No transaction around it: after SQLite meets a malformed page, a COMMIT fails too.
            try queue.inDatabase { db in
                report.fileProblems = integrityProblems(db)
                let id = (try? db.applicationID()) ?? 0
                if id != HistorySchema.applicationID, (try? db.tableExists("run")) == false {
                    throw HistoryError.notAHistory(path: path, reason: "it is another application's database")
                }
                try readRuns(db, into: &report)
                countUnapplied(db, into: &report)
            }
        } catch {
            throw HistoryStore.classify(error, path: path).renamed(to: path)
        }
        return report
    }

    /// The page size and the pages a file's header declares and holds, when it holds fewer.
    private static func cutShort(_ path: String) throws(HistoryError) -> (pageSize: Int, declared: Int, present: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unavailable(path: path, reason: systemError()) }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 100)
        var info = stat()
        guard header.withUnsafeMutableBytes({ read(fd, $0.baseAddress, 100) }) == 100, fstat(fd, &info) == 0 else { return nil }
        let rawSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawSize == 1 ? 65_536 : rawSize
        let declared = header[28..<32].reduce(0) { $0 << 8 | Int($1) }
        guard pageSize >= 512, declared > 0 else { return nil }
        let present = Int(info.st_size) / pageSize
        return present < declared ? (pageSize, declared, present) : nil
    }

    /// A private copy of the first `pages` whole pages of `path`, its header counting them.
    private static func wholePagesCopy(of path: String, pages: Int, pageSize: Int) throws(HistoryError) -> String {
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw .unavailable(path: path, reason: systemError()) }
        defer { close(source) }
        let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((folder + "/routine-recover-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .unavailable(path: path, reason: "cannot make a working copy: \(systemError())") }
        defer { close(fd) }
        let copy = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var buffer = [UInt8](repeating: 0, count: pageSize)
        for page in 0..<pages {
            let n = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, pageSize, off_t(page * pageSize)) }
            guard n == pageSize else { break }
            if page == 0 {
                for k in 0..<4 { buffer[28 + k] = UInt8(truncatingIfNeeded: pages >> (8 * (3 - k))) }
            }
            guard buffer.withUnsafeBytes({ write(fd, $0.baseAddress, pageSize) }) == pageSize else {
                unlink(copy)
                throw .unavailable(path: path, reason: "cannot make a working copy: \(systemError())")
            }
        }
        return copy
    }

    /// `PRAGMA integrity_check`'s findings, at most 50, without SQLite's header line.
    static func integrityProblems(_ db: Database) -> [String] {
        guard let lines = try? String.fetchAll(db, sql: "PRAGMA integrity_check(50)") else {
            return ["SQLite cannot check the file: the pages that list its tables are unreadable"]
        }
        if lines == ["ok"] { return [] }
        return lines.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("*** in database") }.map { "SQLite: " + $0 }
    }

    /// The sync's rows that are not applied, where the tables are there and readable.
    private static func countUnapplied(_ db: Database, into report: inout Report) {
        func count(_ table: String, _ sql: String) -> Int {
            guard (try? db.tableExists(table)) == true else { return 0 }
            return (try? Int.fetchOne(db, sql: sql)) ?? 0
        }
        report.syncHeld = count("syncHeld", "SELECT count(*) FROM syncHeld")
        // The reason a reading gives a duplicate id (HistoryStore+SyncReading.swift).
        report.syncDuplicates = count("syncProblem", "SELECT count(*) FROM syncProblem WHERE reason LIKE 'event %'")
    }

    private static func readRuns(_ db: Database, into report: inout Report) throws {
        let last = highestRunID(db)
        guard last > 0 else { return }
        let runSQL = "SELECT \(StoredRun.rawColumns) FROM run WHERE id = ?"
        let stepSQL = "SELECT \(StoredStep.rawColumns) FROM step WHERE runId = ? ORDER BY step"
        for id in 1...last {
            var line: [(String, JSONValue)]?
            var steps: [JSONValue] = []
            do {
                try db.forEachRow(runSQL, arguments: [id]) { line = runLine($0) }
                guard line != nil else { continue }
                try db.forEachRow(stepSQL, arguments: [id]) { steps.append(stepLine($0)) }
            } catch {
                report.lost.append((id, reason(error)))
                continue
            }
            guard var members = line else { continue }
            members.append(("steps", .array(steps)))
            do {
                var run = try HistoryJSON.decode(JSONValue.object(members).text.utf8)
                run.id = id
                report.runs.append(run)
            } catch {
                report.lost.append((id, error.reason))
            }
        }
    }

    /// The highest run ID any part of the file still tells: the table's last row, else the
    /// largest one its date index or the steps hold, read as far as they can be.
    private static func highestRunID(_ db: Database) -> Int64 {
        if let last = try? Int64.fetchOne(db, sql: "SELECT max(id) FROM run") { return last }
        var highest: Int64 = 0
        for sql in ["SELECT id FROM run INDEXED BY run_by_date", "SELECT runId FROM step"] {
            try? db.forEachRow(sql, arguments: []) { highest = max(highest, $0.int64(0)) }
        }
        return highest
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return (error.message ?? "\(error.resultCode)").lowercased() }
        return "\(error)"
    }

    /// A run's row as `history export` would write it, from the text as stored: nothing is
    /// mended on the way, so the decoder sees what the file holds.
    private static func runLine(_ row: Row) -> [(String, JSONValue)] {
        [
            ("date", text(row, 0)), ("routine", text(row, 1)), ("result", row.text(2).map { .string($0) } ?? .string("unfinished")),
            ("reachedEnd", .bool(row.bool(3))), ("started", text(row, 4)), ("ended", text(row, 5)),
            ("utcOffset", .string(offsetText(row.int(6)))), ("path", text(row, 7)), ("sourceHash", text(row, 8)),
        ]
    }

    private static func stepLine(_ row: Row) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("step", .int(row.int(0))), ("node", text(row, 1)), ("kind", text(row, 2)), ("title", text(row, 3)),
            ("result", text(row, 4)),
        ]
        if let value = row.optionalDouble(5) { members.append(("value", .number(value))) }
        if let target = row.optionalDouble(6) { members.append(("target", .number(target))) }
        if let unit = row.text(7) { members.append(("unit", .string(unit))) }
        if !row.isNull(8) {
            members.append(("option", text(row, 9)))
            members.append(("index", .int(row.int(8) + 1)))
        }
        members.append(("at", text(row, 10)))
        members.append(("seconds", row.optionalDouble(11).map { .number($0) } ?? .null))
        return .object(members)
    }

    private static func text(_ row: Row, _ column: Int) -> JSONValue { row.text(column).map { .string($0) } ?? .null }
}

extension StoredRun {
    /// The columns ``HistoryInspection`` reads a run's row by.
    static let rawColumns = "date, routine, result, reachedEnd, startedAt, endedAt, utcOffset, path, sourceHash"
}

extension StoredStep {
    /// The columns ``HistoryInspection`` reads a step's row by.
    static let rawColumns = "step, node, kind, title, result, value, target, unit, optionIndex, optionText, decidedAt, seconds"
}
