import RoutineKit

/// Reads a range of run IDs' steps as statistics need them: each habit step as its node's
/// index, result, value and time, each answer as (question, option).
struct StepReader: Sendable {
    static let sql = "SELECT runId, node, result, value, seconds, optionIndex FROM step WHERE runId BETWEEN ? AND ?"

    let routine: Routine
    /// The selected runs: run ID → its place among their IDs in ascending order, which is
    /// what the scans report runs by.
    let rank: [Int64: Int]
    private let ids: [Int64]
    private let nodes: [String: Int]
    private let idBytes: [[UInt8]]

    /// `ids`: the selected runs' IDs, in ascending order.
    init(routine: Routine, ids: [Int64]) {
        self.routine = routine
        rank = ranks(ids)
        self.ids = ids
        var nodes: [String: Int] = [:]
        for index in 0..<routine.nodeCount { nodes[routine.id(of: index)] = index }
        self.nodes = nodes
        idBytes = (0..<routine.nodeCount).map { Array(routine.id(of: $0).utf8) }
    }

    /// The steps of a range of runs: one array for all, each run's a range of it.
    struct Scan: Sendable {
        var steps: [StatsRun.Step] = []
        /// (run's rank, where its steps start in `steps`), in the order read.
        var ranges: [(rank: Int, start: Int)] = []
        var answers: [(rank: Int, answer: StatsRun.Answer)] = []
    }

    func scan(_ db: Database, from first: Int64, to last: Int64) throws -> Scan {
        var state = State(self, runs: runs(from: first, to: last))
        try db.forEachRow(Self.sql, arguments: [first, last]) { state.read($0) }
        return state.scan
    }

    /// The same on a second connection; nil when SQLite fails there.
    func scan(_ connection: SecondConnection, from first: Int64, to last: Int64) -> Scan? {
        var state = State(self, runs: runs(from: first, to: last))
        guard connection.forEachRow(Self.sql, from: first, to: last, { state.read($0) }) else { return nil }
        return state.scan
    }

    /// How many selected runs have IDs from `first` through `last`.
    private func runs(from first: Int64, to last: Int64) -> Int {
        func start(_ id: Int64) -> Int {
            var (low, high) = (0, ids.count)
            while low < high {
                let middle = (low + high) / 2
                if ids[middle] < id { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return last < first ? 0 : (last == .max ? ids.count : start(last + 1)) - start(first)
    }

    private struct State {
        let reader: StepReader
        var scan = Scan()
        var lastRun: Int64 = -1
        var lastRank: Int?
        // Most runs take the steps of the run before in the same order, so the node at the
        // same place in the previous run is tried first, by its bytes, without making a
        // string; a dictionary lookup otherwise.
        var previousOrder: [Int] = []
        var order: [Int] = []

        init(_ reader: StepReader, runs: Int) {
            self.reader = reader
            // Room for a routine's steps in every run at once: growing by doubling would copy
            // megabytes and touch fresh pages each time.
            scan.steps.reserveCapacity(runs * max(1, reader.routine.nodeCount))
            scan.ranges.reserveCapacity(runs)
        }

        mutating func read(_ row: Row) {
            let runID = row.int64(0)
            if runID != lastRun {
                lastRun = runID
                lastRank = reader.rank[runID]
                if let k = lastRank { scan.ranges.append((k, scan.steps.count)) }
                swap(&previousOrder, &order)
                order.removeAll(keepingCapacity: true)
            }
            guard let k = lastRank, let bytes = row.bytes(1) else { return }
            let node: Int
            if order.count < previousOrder.count, case let guess = previousOrder[order.count], guess >= 0,
                reader.idBytes[guess].elementsEqual(bytes)
            {
                node = guess
            } else {
                node = reader.nodes[String(decoding: bytes, as: UTF8.self)] ?? -1
            }
            order.append(node)
            guard node >= 0, let result = row.stepResult(2) else { return }
            let routine = reader.routine
            if result == .answered {
                // A question; an answer past the options of today's routine is not counted.
                let option = row.int(5)
                if !row.isNull(5), routine.isQuestion(node), option < routine.optionCount(of: node) {
                    let after = scan.steps.count - (scan.ranges.last?.start ?? scan.steps.count)
                    scan.answers.append((k, StatsRun.Answer(question: node, option: option, after: after)))
                }
            } else if !routine.isQuestion(node) {
                scan.steps.append(StatsRun.Step(node: node, result: result, value: row.optionalDouble(3), seconds: row.optionalDouble(4)))
            }
        }
    }
}
