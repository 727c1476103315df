import RoutineKit
import Synchronization

/// A value behind a lock, for the few things threads share: a ``Mutex`` that closures can share,
/// guarding a value that need not be `Sendable`.
final class Locked<Value>: @unchecked Sendable {
    private let mutex = Mutex(())
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try mutex.withLock { _ in try body(&value) }
    }
}

/// One version of an open document, read and checked: what every request about it answers
/// from. Immutable, so a slow request can work on it on another thread while edits go on;
/// what is costly and not always needed (the index, the ways) is worked out on first use.
public final class Snapshot: Sendable {
    public let uri: String
    public let version: Int?
    public let loaded: LoadedRoutine
    let encoding: PositionEncoding
    private let cache = Locked(Cache())

    /// The ways, behind a lock of their own, held while they are counted: a second request
    /// about the same version waits for the first one's count instead of counting again, and
    /// the quick caches are not held up meanwhile.
    private let waysCache = Locked(WaysCache())

    private struct Cache {
        var positions: PositionMap?
        var index: SymbolIndex?
    }

    private struct WaysCache {
        var result: WaysResult?
        /// How many times they were counted: once per snapshot.
        var countings = 0
    }

    /// The ways through the routine, or why they were not counted.
    enum WaysResult: Sendable {
        case counted(PathExplorer.Summary, [WaysThroughNode?])
        case invalid
        case tooComplex
    }

    /// Work allowed for counting ways while editing: about a second at most, where the command
    /// line allows minutes.
    static let waysBudget = 300_000_000

    /// `positions`, when the caller has them (an incremental change carries its predecessor's
    /// forward), spare a scan of the text; `previous`, the version this one replaces, lends
    /// what it worked out that is sure to be the same (the "did you mean" answers).
    init(
        uri: String, version: Int?, text: [UInt8], format: SourceFormat?, encoding: PositionEncoding, positions: PositionMap? = nil,
        previous: Snapshot? = nil
    ) {
        self.uri = uri
        self.version = version
        let file = SourceFile(name: (try? FileURI.path(uri).get()) ?? uri, bytes: text)
        loaded = RoutineLoader.load(file, format: format, previous: previous?.loaded)
        self.encoding = encoding
        if let positions, positions.encoding == encoding { cache.withLock { $0.positions = positions } }
    }

    /// Built on first use: a document without diagnostics, edited and not asked about, never
    /// needs its lines counted.
    var positions: PositionMap {
        if let positions = cache.withLock({ $0.positions }) { return positions }
        let built = PositionMap(loaded.file, encoding: encoding)
        cache.withLock { $0.positions = built }
        return built
    }

    public var file: SourceFile { loaded.file }
    public var routine: Routine { loaded.routine }
    public var format: SourceFormat { loaded.format }

    var index: SymbolIndex {
        if let index = cache.withLock({ $0.index }) { return index }
        let built = SymbolIndex(loaded)
        cache.withLock { $0.index = built }
        return built
    }

    /// Counted on first use, on the thread of a request that may take its time (hover, code
    /// lenses), never on the thread that answers edits.
    var ways: WaysResult {
        waysCache.withLock { cache in
            if let result = cache.result { return result }
            let result: WaysResult
            if loaded.hasErrors || routine.nodeCount == 0 {
                result = .invalid
            } else {
                do {
                    let (summary, byNode) = try PathExplorer(routine, workBudget: Self.waysBudget).waysThroughNodes()
                    result = .counted(summary, byNode)
                } catch {
                    result = .tooComplex
                }
            }
            cache.result = result
            cache.countings += 1
            return result
        }
    }

    /// How many times this version's ways were counted (for the tests: once).
    var waysCountings: Int { waysCache.withLock { $0.countings } }
}
