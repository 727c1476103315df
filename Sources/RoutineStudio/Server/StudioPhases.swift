import Dispatch
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// How long each phase of an answer took, sent as its `Server-Timing` header so that the
/// benchmark (and a browser's developer tools) can tell where an edit's time goes.
struct StudioPhases: Sendable {
    private(set) var phases: [(name: String, milliseconds: Double)] = []
    private var last = ContinuousClock.now

    /// Ends the phase that began at the last mark (or at creation), naming it.
    mutating func end(_ name: String) {
        let now = ContinuousClock.now
        append(name, now - last)
        last = now
    }

    /// A span that overlapped the others, such as `dot` laying out while the file was written.
    mutating func add(_ name: String, since start: ContinuousClock.Instant) {
        append(name, ContinuousClock.now - start)
    }

    private mutating func append(_ name: String, _ elapsed: Duration) {
        phases.append((name, Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15))
    }

    /// `name;dur=MS, ...`, as the header takes them.
    var header: String {
        phases.map { "\($0.name);dur=\(Self.hundredths($0.milliseconds))" }.joined(separator: ", ")
    }

    /// `ms` with two decimals, as `%.2f` writes it.
    static func hundredths(_ ms: Double) -> String {
        let whole = Int((max(ms, 0) * 100).rounded())
        let part = whole % 100
        return "\(whole / 100).\(part < 10 ? "0" : "")\(part)"
    }
}
