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
        let text = String(decoding: bytes, as: UTF8.self)
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if trimmed.allSatisfy(\.isWhitespace) { continue }
            do {
                runs.append(try decode(trimmed))
            } catch {
                throw ImportLineProblem(line: k + 1, reason: error.reason)
            }
        }
        return runs
    }
}
