import Foundation
import RoutineKit

/// The one routine a studio serves: its text as last read, a version that grows with every
/// change, the undo history, and the pages listening for changes. Every read and write of the
/// file goes through here, one at a time.
actor StudioDocument {
    let path: String
    let format: SourceFormat
    private(set) var version = 1
    private(set) var bytes: [UInt8] = []
    /// The file as it was read; nil when there is no file yet (it is created by the first edit).
    private var identity: FileIdentity?
    private var history = EditHistory()
    private var message: String?
    private var listeners: [UUID: AsyncStream<LiveEvent>.Continuation] = [:]
    /// The history file the Today view reads, watched so that a `routine done` elsewhere shows.
    let historyPath: String?
    /// Grows with every change seen to the history file (or its write-ahead log).
    private(set) var historyVersion = 1
    private var historyIdentity: [FileIdentity?] = []
    private var cachedState: (version: Int, bytes: [UInt8])?
    private var layouts = LayoutCache()
    /// The last drawing of a routine that parsed, shown faded while the file does not.
    private var lastGoodGraph: StudioState.Graph?

    init(path: String, historyPath: String? = nil) throws(Diagnostic) {
        self.path = path
        self.historyPath = historyPath
        historyIdentity = Self.identity(ofHistory: historyPath)
        format = SourceFile(name: path, bytes: []).formatFromExtension ?? .rt
        guard let read = Self.read(path) else { return }
        (bytes, identity) = try read.get()
    }

    /// The file's bytes and identity, read so that both describe the same file; nil when it does not exist.
    static func read(_ path: String) -> Result<([UInt8], FileIdentity?), Diagnostic>? {
        for _ in 0..<5 {
            guard let before = FileIdentity.of(path) else { return nil }
            switch InputReader.read(path) {
            case .failure(let diagnostic): return .failure(diagnostic)
            case .success(let file):
                if FileIdentity.of(path) == before { return .success((file.bytes, before)) }
            }
        }
        return .failure(.unreadable(path, reason: "it keeps changing while it is read"))
    }

    /// Reads the file again if it changed on disk; true when it did.
    @discardableResult
    func reloadIfChanged() -> Bool {
        let now = FileIdentity.of(path)
        guard now != identity else { return false }
        guard let read = Self.read(path), case .success(let (newBytes, newIdentity)) = read else {
            if now == nil, identity != nil {
                identity = nil
                changed(to: [])
                return true
            }
            return false
        }
        identity = newIdentity
        if newBytes != bytes { changed(to: newBytes) }
        return true
    }

    private func changed(to newBytes: [UInt8]) {
        bytes = newBytes
        version += 1
        for listener in listeners.values { listener.yield(.version(version)) }
    }

    /// The history file and its write-ahead log, where a commit lands first.
    static func identity(ofHistory path: String?) -> [FileIdentity?] {
        guard let path else { return [] }
        return [FileIdentity.of(path), FileIdentity.of(path + "-wal")]
    }

    /// Tells the pages when the history changed: a log from the page, or a run or log elsewhere.
    func reloadHistoryIfChanged() {
        let now = Self.identity(ofHistory: historyPath)
        guard now != historyIdentity else { return }
        historyIdentity = now
        historyVersion += 1
        for listener in listeners.values { listener.yield(.history(historyVersion)) }
    }

    /// Announces a change made here (a run's answer), even one no file shows (a run that
    /// records nothing): the pages watching the run read it again.
    func historyChanged() {
        historyIdentity = Self.identity(ofHistory: historyPath)
        historyVersion += 1
        for listener in listeners.values { listener.yield(.history(historyVersion)) }
    }

    // MARK: State

    /// The state as `GET /api/routine` answers it.
    func state() -> [UInt8] {
        var phases = StudioPhases()
        return state(&phases)
    }

    /// The state, and how long each phase of making it took (none when it was made already).
    func timedState() -> ([UInt8], StudioPhases) {
        var phases = StudioPhases()
        let bytes = state(&phases)
        return (bytes, phases)
    }

    /// The state, timing each phase of making it.
    func state(_ phases: inout StudioPhases) -> [UInt8] {
        if let cachedState, cachedState.version == version { return cachedState.bytes }
        let loaded = RoutineLoader.load(SourceFile(name: path, bytes: bytes), format: format)
        phases.end("parse")
        let drawing = beginDrawing(loaded, &phases)
        return finishState(drawing, &phases)
    }

    /// A state begun: the routine, and its layout under way unless the last good drawing stands in.
    private struct Drawing {
        var loaded: LoadedRoutine
        var broken: Bool
        var layout: LayoutCache.Pending?
    }

    private func beginDrawing(_ loaded: LoadedRoutine, _ phases: inout StudioPhases) -> Drawing {
        let broken = loaded.diagnostics.contains { $0.severity == .error && StudioState.isSyntax($0.code) }
        let layout = broken && lastGoodGraph != nil ? nil : layouts.begin(for: loaded.routine, phases: &phases)
        return Drawing(loaded: loaded, broken: broken, layout: layout)
    }

    private func finishState(_ drawing: Drawing, _ phases: inout StudioPhases) -> [UInt8] {
        var graph: StudioState.Graph
        var stale = false
        if let pending = drawing.layout {
            let layout = layouts.finish(pending, phases: &phases)
            graph = StudioState.graph(drawing.loaded, layout: layout)
            phases.end("graph")
            if !drawing.broken { lastGoodGraph = graph }
        } else {
            graph = lastGoodGraph ?? StudioState.graph(drawing.loaded, layout: .success(StudioLayout()))
            stale = true
        }
        let readOnly = format == .yaml ? RoutineEditor.yamlReadOnlyReason(drawing.loaded.file.bytes) : nil
        let json = StudioState.json(
            version: version, path: path, format: format, loaded: drawing.loaded, graph: graph, stale: stale, readOnly: readOnly,
            canUndo: history.canUndo, canRedo: history.canRedo, message: message)
        phases.end("json")
        cachedState = (version, json)
        return json
    }

    /// The routine as the file now holds it.
    func loaded() -> LoadedRoutine { RoutineLoader.load(SourceFile(name: path, bytes: bytes), format: format) }

    // MARK: Edits

    enum EditAnswer {
        case done([UInt8], StudioPhases)
        /// The file changed since the page's version: the current state.
        case conflict([UInt8])
        case refused(Diagnostic)
    }

    func edit(_ request: StudioEditRequest) -> EditAnswer {
        var phases = StudioPhases()
        reloadIfChanged()
        guard request.version == version else { return .conflict(state()) }
        let newBytes: [UInt8]
        switch request.action {
        case .op(let op):
            switch RoutineEditor.apply(op, to: SourceFile(name: path, bytes: bytes), format: format) {
            case .failure(let diagnostic): return .refused(diagnostic)
            case .success(let outcome):
                newBytes = outcome.bytes
                message = outcome.message
            }
        case .undo:
            switch history.undoText(current: bytes) {
            case .failure(let diagnostic): return .refused(diagnostic)
            case .success(let text): newBytes = text
            }
            message = "undone"
        case .redo:
            switch history.redoText(current: bytes) {
            case .failure(let diagnostic): return .refused(diagnostic)
            case .success(let text): newBytes = text
            }
            message = "redone"
        }
        phases.end("edit")
        // The new text's layout begins now: `dot` makes it on another core while the file is written.
        let newLoaded = RoutineLoader.load(SourceFile(name: path, bytes: newBytes), format: format)
        phases.end("parse")
        let drawing = beginDrawing(newLoaded, &phases)
        let purpose: AtomicFile.Purpose = identity == nil ? .create : .rewrite(expecting: identity)
        if case .failure(let diagnostic) = AtomicFile.write(newBytes, to: path, purpose: purpose) {
            // The layout is read all the same: `dot` has written it, and the cache keeps it.
            if let pending = drawing.layout { _ = layouts.finish(pending, phases: &phases) }
            if reloadIfChanged() { return .conflict(state()) }
            return .refused(diagnostic)
        }
        switch request.action {
        case .op: history.record(before: bytes, after: newBytes)
        case .undo: history.didUndo()
        case .redo: history.didRedo()
        }
        identity = FileIdentity.of(path)
        changed(to: newBytes)
        phases.end("write")
        return .done(finishState(drawing, &phases), phases)
    }

    // MARK: Listeners

    /// Reads the file again if it changed, and then makes the new state at once when a page
    /// listens: its request for it, a moment later, finds it made or under way.
    private func reloadAndPrepare() {
        if reloadIfChanged(), !listeners.isEmpty { _ = state() }
    }

    /// The versions from now on, each as the file or an edit makes it, and the history's changes.
    func listen() -> AsyncStream<LiveEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingNewest(4))
        let id = UUID()
        listeners[id] = continuation
        continuation.onTermination = { _ in Task { await self.stopListening(id) } }
        return stream
    }

    private func stopListening(_ id: UUID) { listeners[id] = nil }

    var listenerCount: Int { listeners.count }

    /// Ends every live channel, for shutdown.
    func closeListeners() {
        for listener in listeners.values { listener.finish() }
        listeners.removeAll()
    }

    /// Polls the file for changes an editor saves: 50 ms, well inside the 200 ms a page is
    /// promised; the history every 200 ms, inside the second the Today view is promised.
    /// The folder is watched too, where it can be (`FolderWatch`), so that most saves are seen
    /// at once rather than at the next poll.
    func watch(every interval: Duration = .milliseconds(50)) async {
        layouts.prepare()
        let folder = FolderWatch(path: path) { Task { await self.reloadAndPrepare() } }
        defer { withExtendedLifetime(folder) {} }
        var tick = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            reloadAndPrepare()
            tick += 1
            if tick % 4 == 0 { reloadHistoryIfChanged() }
        }
    }
}
