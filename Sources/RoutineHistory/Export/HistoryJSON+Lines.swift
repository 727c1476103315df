import RoutineKit

/// A line of an export that is not a run, with its 1-based number.
public struct ImportLineProblem: Error, Sendable {
    public var line: Int
    public var reason: String
}

extension HistoryJSON {
    /// Every run of an export, blank lines passed over; the first bad line stops the reading,
    /// so an import is checked whole before anything is written.
    public static func decodeAll(_ bytes: [UInt8]) throws(ImportLineProblem) -> [StoredRun] {
        var runs: [StoredRun] = []
        var number = 0
        // Split on bytes, as `history import` reads its file: LF or CRLF ends a line.
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            let trimmed = line.last == 0x0D ? line.dropLast() : line
            // Days off are not runs: a test's history needs only the runs.
            if trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) || isDayOff(trimmed) { continue }
            do {
                runs.append(try decode(trimmed))
            } catch {
                throw ImportLineProblem(line: number, reason: error.reason)
            }
        }
        return runs
    }
}
