import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// Loop Habit Tracker's full backup: an SQLite file of schema version 22 to 25, opened
/// read-only as an immutable file (nothing is created beside it), its repetitions read with
/// a cursor, a row at a time.
public struct LoopBackupSource: TrackerSource {
    public let trackerName = "Loop Habit Tracker"
    public let habits: [TrackerHabit]
    let path: String
    let queue: DatabaseQueue
    /// Loop's habit id to the index in ``habits``, and whether each is numeric.
    let index: [Int64: Int]
    let numeric: [Bool]
    let hasNotes: Bool

    static let versions: ClosedRange<Int> = 22...25

    /// Reads the habits; throws ``TrackerReadError``.
    public init(path: String) throws {
        self.path = path
        func refuse(_ reason: String) -> TrackerReadError { TrackerReadError(file: path, line: 0, reason: reason) }
        var info = stat()
        guard stat(path, &info) == 0 else { throw refuse(String(cString: strerror(errno)).lowercased()) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw refuse("it is not a regular file") }
        // Read the header first: SQLite would take any other file for an empty database.
        var header = [UInt8](repeating: 0, count: 16)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw refuse(String(cString: strerror(errno)).lowercased()) }
        let got = read(fd, &header, 16)
        close(fd)
        guard got == 16, header == Array("SQLite format 3\0".utf8) else {
            throw refuse("it is not an SQLite file, so not a Loop backup (a CSV export is a folder with Habits.csv)")
        }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: "file:" + HistoryStore.uriEscaped(path) + "?immutable=1", configuration: configuration)
            self.queue = queue
            let version = try queue.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } ?? 0
            let tables = try queue.read { db in try (db.tableExists("Habits"), db.tableExists("Repetitions")) }
            guard tables.0, tables.1 else { throw refuse("it has no 'Habits' and 'Repetitions' tables, so it is not a Loop backup") }
            guard Self.versions.contains(version) else {
                throw refuse("its schema version is \(version); Loop backups of versions 22 to 25 are read")
            }
            let columns = try queue.read { db in
                (Set(try db.columns(in: "Habits").map { $0.name.lowercased() }), Set(try db.columns(in: "Repetitions").map { $0.name.lowercased() }))
            }
            let wanted = ["id", "name", "freq_num", "freq_den", "type", "target_type", "target_value", "unit", "archived", "position"]
            if let missing = wanted.first(where: { !columns.0.contains($0) }) {
                throw refuse("the table 'Habits' has no column '\(missing)'")
            }
            if let missing = ["habit", "timestamp", "value"].first(where: { !columns.1.contains($0) }) {
                throw refuse("the table 'Repetitions' has no column '\(missing)'")
            }
            hasNotes = columns.1.contains("notes")
            let question = columns.0.contains("question") ? "question" : "NULL"
            let description = columns.0.contains("description") ? "description" : "NULL"
            var habits: [TrackerHabit] = []
            var index: [Int64: Int] = [:]
            var numeric: [Bool] = []
            let sql = """
                SELECT id, name, \(description), \(question), freq_num, freq_den, type, target_type, target_value, unit, archived
                FROM Habits ORDER BY position, id
                """
            try queue.read { db in
                let rows = try Row.fetchCursor(db, sql: sql)
                while let row = try rows.next() {
                    let id = Int64(int(row, 0) ?? -1)
                    let place = "Habits id \(id)"
                    func bad(_ reason: String) -> TrackerReadError { TrackerReadError(file: path, line: 0, reason: reason, place: place) }
                    let name = try TrackerValues.name(text(row, 1) ?? "", file: path, line: 0)
                    let note = try TrackerValues.note(text(row, 2), file: path, line: 0) ?? TrackerValues.note(text(row, 3), file: path, line: 0)
                    guard let num = int(row, 4), let den = int(row, 5), (0...10_000).contains(num), (0...10_000).contains(den) else {
                        throw bad("freq_num and freq_den must be whole numbers from 0 to 10000")
                    }
                    let type = int(row, 6) ?? 0
                    guard type == 0 || type == 1 else { throw bad("type \(type) is neither 0 (yes or no) nor 1 (numeric)") }
                    var habit = TrackerHabit(
                        name: name, note: note, numerator: num, denominator: den, archived: (int(row, 10) ?? 0) != 0)
                    if type == 1 {
                        habit.target = try LoopTarget.make(
                            value: { () -> Double? in
                                let value: DatabaseValue = row[8]
                                switch value.storage {
                                case .int64(let n): return Double(n)
                                case .double(let d): return d
                                default: return nil
                                }
                            }(), atMost: int(row, 7) == 1, unit: text(row, 9), file: path, line: 0)
                    }
                    guard index[id] == nil else { throw bad("the id is used twice") }
                    index[id] = habits.count
                    habits.append(habit)
                    numeric.append(type == 1)
                }
            }
            self.habits = habits
            self.index = index
            self.numeric = numeric
        } catch let error as TrackerReadError {
            throw error
        } catch {
            throw refuse("SQLite cannot read it: \(Self.reason(error))")
        }
    }

    public func forEachDay(_ body: (TrackerDay) throws -> Void) throws {
        let notes = hasNotes ? "notes" : "NULL"
        do {
            try queue.read { db in
                let rows = try Row.fetchCursor(db, sql: "SELECT rowid, habit, timestamp, value, \(notes) FROM Repetitions ORDER BY timestamp, habit")
                while let row = try rows.next() {
                    let place = "Repetitions row \(int(row, 0) ?? -1)"
                    guard let id = int(row, 1), let habit = index[Int64(id)] else {
                        throw TrackerReadError(file: path, line: 0, reason: "its habit is not in 'Habits'", place: place)
                    }
                    guard let timestamp = int(row, 2).map(Int64.init), let value = int(row, 3).map(Int64.init) else {
                        throw TrackerReadError(file: path, line: 0, reason: "timestamp and value must be whole numbers", place: place)
                    }
                    let date: CalendarDate
                    let mark: TrackerMark
                    do throws(TrackerReadError) {
                        date = try TrackerValues.date(milliseconds: timestamp, file: path, line: 0)
                        mark = try TrackerValues.loopMark(value, numeric: numeric[habit], file: path, line: 0)
                    } catch {
                        throw TrackerReadError(file: path, line: 0, reason: error.reason, place: place)
                    }
                    let note = text(row, 4).map { !$0.allSatisfy(\.isWhitespace) } ?? false
                    try body(TrackerDay(habit: habit, date: date, mark: mark, hadNote: note))
                }
            }
        } catch let error as TrackerReadError {
            throw error
        } catch let error as DatabaseError {
            throw TrackerReadError(file: path, line: 0, reason: "SQLite cannot read it: \(Self.reason(error))")
        }
    }

    static func reason(_ error: Error) -> String {
        (error as? DatabaseError)?.message ?? "\(error)"
    }
}

/// A column's value only when it is of that type: a hostile file's text where a number
/// belongs reads as nil and is refused, never converted or trapped on.
private func int(_ row: Row, _ k: Int) -> Int? {
    let value: DatabaseValue = row[k]
    guard case .int64(let n) = value.storage else { return nil }
    return Int(exactly: n)
}

private func text(_ row: Row, _ k: Int) -> String? {
    let value: DatabaseValue = row[k]
    guard case .string(let s) = value.storage else { return nil }
    return s
}
