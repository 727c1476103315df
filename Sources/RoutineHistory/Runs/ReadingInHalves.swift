import RoutineKit

/// Reading the runs of a range in two halves, the older on a second connection and thread.
extension SecondConnection {
    /// Below this many runs a second thread costs about what it saves.
    static let runsWorthIt = 400

    /// Splits the sorted run IDs `ids` in two and reads the older half with `side` on a second
    /// connection while this thread runs `meanwhile`, then reads the newer half with `main`;
    /// returns both results, older first. Each run's rows come whole from one connection; the
    /// caller's read transaction selected `ids`, and the runs recorded since have higher IDs.
    /// `meanwhile` covers the other thread's start, which takes milliseconds when the other
    /// core sleeps. Without a second connection, or with fewer than `runs` runs, this thread
    /// reads all of them.
    static func split<Part: Sendable>(
        _ ids: [Int64], path: String, from runs: Int, side: @escaping @Sendable (SecondConnection, Int64, Int64) -> Part?,
        meanwhile: () throws -> Void, main: (Int64, Int64) throws -> Part
    ) throws -> [Part] {
        guard let first = ids.first, let last = ids.last else {
            try meanwhile()
            return []
        }
        guard ids.count >= max(2, runs), let other = SecondConnection(path: path) else {
            try meanwhile()
            return [try main(first, last)]
        }
        let middle = ids[ids.count / 2]
        let (older, newer) = try alongside({ side(other, first, middle - 1) }) {
            try meanwhile()
            return try main(middle, last)
        }
        return [try older ?? main(first, middle - 1), newer]
    }
}

/// Run ID → its place among `ids` (ascending): how the halves read on two connections name
/// their runs before the caller's list of runs is at hand.
func ranks(_ ids: [Int64]) -> [Int64: Int] {
    Dictionary(uniqueKeysWithValues: ids.enumerated().lazy.map { ($1, $0) })
}
