import GRDB
import GRDBSQLite
import RoutineKit

/// Reads a range of run IDs' steps as statistics need them: each habit step as its node's
/// index, result, value and time, each answer as (question, option).
struct StepReader: Sendable {
    /// Below this many runs a second thread costs about what it saves.
    static let runsWorthASecondThread = 400

    static let sql = "SELECT runId, node, result, value, seconds, optionIndex FROM step WHERE runId BETWEEN ? AND ?"

    let routine: Routine
    /// Run ID → index in the caller's runs.
    let position: [Int64: Int]
    private let nodes: [String: Int]
    private let idBytes: [[UInt8]]

    init(routine: Routine, position: [Int64: Int]) {
        self.routine = routine
        self.position = position
        var nodes: [String: Int] = [:]
        for index in 0..<routine.nodeCount { nodes[routine.id(of: index)] = index }
        self.nodes = nodes
        idBytes = (0..<routine.nodeCount).map { Array(routine.id(of: $0).utf8) }
    }

    /// The steps of a range of runs: one array for all, each run's a range of it.
    struct Scan: Sendable {
        var steps: [StatsRun.Step] = []
        /// (run index, where its steps start in `steps`), in the order read.
        var ranges: [(run: Int, start: Int)] = []
        var answers: [(run: Int, answer: StatsRun.Answer)] = []
    }

    func scan(_ db: Database, from first: Int64, to last: Int64) throws -> Scan {
        var state = State(self, runs: position.count)
        try db.forEachRawRow(Self.sql, arguments: [first, last]) { state.read($0) }
        return state.scan
    }

    /// Steps through `statement`, whose arguments are bound; nil when SQLite fails.
    func scan(_ statement: OpaquePointer) -> Scan? {
        var state = State(self, runs: position.count)
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: state.read(statement)
            case SQLITE_DONE: return state.scan
            default: return nil
            }
        }
    }

    private struct State {
        let reader: StepReader
        var scan = Scan()
        var lastRun: Int64 = -1
        var lastPosition: Int?
        // Most runs take the steps of the run before in the same order, so the node at the
        // same place in the previous run is tried first, by its bytes, without making a
        // string; a dictionary lookup otherwise.
        var previousOrder: [Int] = []
        var order: [Int] = []

        init(_ reader: StepReader, runs: Int) {
            self.reader = reader
            // Room for a routine's steps in every run at once: growing by doubling would copy
            // megabytes and touch fresh pages each time.
            scan.steps.reserveCapacity(runs * max(1, reader.routine.nodeCount) / 2)
            scan.ranges.reserveCapacity(runs)
        }

        mutating func read(_ raw: OpaquePointer) {
            let runID = sqlite3_column_int64(raw, 0)
            if runID != lastRun {
                lastRun = runID
                lastPosition = reader.position[runID]
                if let k = lastPosition { scan.ranges.append((k, scan.steps.count)) }
                swap(&previousOrder, &order)
                order.removeAll(keepingCapacity: true)
            }
            guard let k = lastPosition, let bytes = columnBytes(raw, 1) else { return }
            let node: Int
            if order.count < previousOrder.count, case let guess = previousOrder[order.count], guess >= 0,
                reader.idBytes[guess].elementsEqual(bytes)
            {
                node = guess
            } else {
                node = reader.nodes[String(decoding: bytes, as: UTF8.self)] ?? -1
            }
            order.append(node)
            guard node >= 0, let resultText = sqlite3_column_text(raw, 2) else { return }
            let routine = reader.routine
            // A result told by its first letter: done, skipped, not-scheduled, answered (the
            // schema allows no other).
            let result: RecordedStep.Result
            switch resultText[0] {
            case UInt8(ascii: "d"): result = .done
            case UInt8(ascii: "s"): result = .skipped
            case UInt8(ascii: "n"): result = .notScheduled
            default: result = .answered
            }
            if result == .answered {
                // A question; an answer past the options of today's routine is not counted.
                let option = Int(sqlite3_column_int64(raw, 5))
                if sqlite3_column_type(raw, 5) != SQLITE_NULL, routine.isQuestion(node), option < routine.optionCount(of: node) {
                    scan.answers.append((k, StatsRun.Answer(question: node, option: option)))
                }
            } else if !routine.isQuestion(node) {
                scan.steps.append(StatsRun.Step(node: node, result: result, value: columnDouble(raw, 3), seconds: sqlite3_column_double(raw, 4)))
            }
        }
    }
}

/// A read-only connection of its own to a history, for reading part of it on another thread.
/// SQLite's C interface directly: a GRDB queue brings a dispatch queue and checks this
/// reader does not need.
final class SecondConnection: @unchecked Sendable {
    private let handle: OpaquePointer

    init?(path: String) {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
            sqlite3_close(handle)
            return nil
        }
        sqlite3_busy_timeout(handle, 10_000)
        self.handle = handle
    }

    deinit { sqlite3_close(handle) }

    /// The steps of runs `first` through `last`; nil when SQLite fails (the caller then reads
    /// them on its own connection).
    func scan(_ reader: StepReader, from first: Int64, to last: Int64) -> StepReader.Scan? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, StepReader.sql, -1, &statement, nil) == SQLITE_OK, let statement else { return nil }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, first)
        sqlite3_bind_int64(statement, 2, last)
        return reader.scan(statement)
    }
}
