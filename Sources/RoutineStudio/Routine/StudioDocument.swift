import Dispatch
import FoundationEssentials
import RoutineKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The one routine a studio serves: its text as last read, a version that grows with every
/// change, the undo history, and the pages listening for changes. Every read and write of the
/// file goes through here, one at a time. What the other views need (the text, the versions,
/// the live channels) is read without waiting for the document, which a layout may hold for
/// up to its time limit.
actor StudioDocument {
    let path: String
    let format: SourceFormat
    /// Grows with every change; pages read it as `version`.
    private var revision = 1
    private var bytes: [UInt8] = []
    /// The file as it was read; nil when there is no file yet (it is created by the first edit).
    private var identity: FileIdentity?
    /// Why the path is not read (a named pipe, a device in its place), shown as a problem.
    private var notice: Diagnostic?
    private var history = EditHistory()
    /// What undo and redo take back, newest last: a text edit (kept in `history`) or a change of
    /// the card places.
    private var steps: [Step] = []
    private var undone: [Step] = []
    enum Step {
        case text
        case places(before: CardPlaces, after: CardPlaces, seen: [String: StudioLayout.Center])
    }
    /// The cards placed by hand, read from `NAME.rt.layout` beside the routine.
    private var places = CardPlaces()
    private var placesIdentity: FileIdentity?
    /// Why the layout file is ignored (E513).
    private var placesNotice: Diagnostic?
    /// Where each card was last drawn, by key (``StudioLayout/keys(_:)``): the next layout keeps it there.
    private var seen: [String: StudioLayout.Center] = [:]
    private var message: String?
    /// The history file the Today view reads, watched so that a `routine done` elsewhere shows.
    let historyPath: String?
    private nonisolated let live: StudioLive
    private var cachedPayload: (version: Int, bytes: [UInt8])?
    private var layouts: LayoutCache
    /// The last drawing of a routine that parsed, shown faded while the file does not.
    private var lastGoodGraph: RoutinePayload.Graph?
    /// Writes the file and gives the identity of what it wrote (``AtomicFile/writeIdentified(_:to:purpose:)``);
    /// tests put another writer's change in its window.
    typealias Writer = @Sendable ([UInt8], String, AtomicFile.Purpose) -> Result<FileIdentity?, Diagnostic>
    private let writer: Writer

    init(
        path: String, historyPath: String? = nil, writer: @escaping Writer = StudioDocument.write,
        layoutLimit: Duration = LayoutCache.defaultLimit, drawLimit: Int = StudioLayout.drawLimit
    ) throws(Diagnostic) {
        layouts = LayoutCache(limit: layoutLimit, drawLimit: drawLimit)
        self.path = path
        self.historyPath = historyPath
        self.writer = writer
        live = StudioLive(historyIdentity: Self.identity(ofHistory: historyPath))
        format = SourceFile(name: path, bytes: []).formatFromExtension ?? .rt
        (places, placesIdentity, placesNotice) = Self.readPlaces(CardPlaces.path(for: path))
        guard let read = Self.read(path) else { return }
        switch read {
        case .success(let (text, readIdentity)): (bytes, identity) = (text, readIdentity)
        case .failure(let diagnostic) where diagnostic.code == .notRegularFile:
            // Served all the same: the page says what the path is, and a routine file put there is read.
            (notice, identity) = (diagnostic, FileIdentity.of(path))
        case .failure(let diagnostic): throw diagnostic
        }
        live.set(bytes: bytes, version: revision)
    }

    private var placesPath: String { CardPlaces.path(for: path) }

    /// Reads the layout file; a damaged one is ignored, with a problem that says so.
    private static func readPlaces(_ path: String) -> (CardPlaces, FileIdentity?, Diagnostic?) {
        guard let read = Self.read(path) else { return (CardPlaces(), nil, nil) }
        switch read {
        case .success(let (text, identity)):
            switch CardPlaces.parse(text, path: path) {
            case .success(let found): return (found, identity, nil)
            case .failure(let diagnostic): return (CardPlaces(), identity, diagnostic)
            }
        case .failure(let diagnostic):
            return (CardPlaces(), FileIdentity.of(path), .damagedCardPlaces(path, line: nil, reason: diagnostic.message))
        }
    }

    static func write(_ bytes: [UInt8], to path: String, purpose: AtomicFile.Purpose) -> Result<FileIdentity?, Diagnostic> {
        bytes.withUnsafeBufferPointer { AtomicFile.writeIdentified($0, to: path, purpose: purpose) }
    }

    /// The file's bytes and identity, read so that both describe the same file; nil when it does not exist.
    static func read(_ path: String) -> Result<([UInt8], FileIdentity?), Diagnostic>? {
        for _ in 0..<5 {
            guard let before = FileIdentity.of(path) else { return nil }
            switch InputReader.readRegularFile(path) {
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
        var changedPlaces = false
        if FileIdentity.of(placesPath) != placesIdentity {
            (places, placesIdentity, placesNotice) = Self.readPlaces(placesPath)
            changedPlaces = true
        }
        if reloadRoutineIfChanged() { return true }
        if changedPlaces { changed(to: bytes) }
        return changedPlaces
    }

    private func reloadRoutineIfChanged() -> Bool {
        let now = FileIdentity.of(path)
        guard now != identity else { return false }
        let read = Self.read(path)
        if case .failure(let diagnostic)? = read, diagnostic.code == .notRegularFile {
            // Taken as read, so that it is looked at again only when it changes: a device
            // such as /dev/zero is never read, however often it is polled.
            identity = now
            notice = diagnostic
            changed(to: bytes)
            return true
        }
        guard let read, case .success(let (newBytes, newIdentity)) = read else {
            if now == nil, identity != nil {
                identity = nil
                notice = nil
                changed(to: [])
                return true
            }
            return false
        }
        identity = newIdentity
        if notice != nil || newBytes != bytes {
            notice = nil
            changed(to: newBytes)
        }
        return true
    }

    private func changed(to newBytes: [UInt8]) {
        bytes = newBytes
        revision += 1
        live.set(bytes: bytes, version: revision)
    }

    /// The version pages see now.
    nonisolated var version: Int { get async { live.version } }

    /// The history file and its write-ahead log, where a commit lands first.
    static func identity(ofHistory path: String?) -> [FileIdentity?] {
        guard let path else { return [] }
        return [FileIdentity.of(path), FileIdentity.of(path + "-wal")]
    }

    /// Grows with every change seen to the history file (or its write-ahead log).
    nonisolated var historyVersion: Int { get async { live.historyVersion } }

    /// Tells the pages when the history changed: a log from the page, or a run or log elsewhere.
    nonisolated func reloadHistoryIfChanged() async {
        live.historyChanged(to: Self.identity(ofHistory: historyPath), always: false)
    }

    /// Announces a change made here (a run's answer), even one no file shows (a run that
    /// records nothing): the pages watching the run read it again.
    nonisolated func historyChanged() async {
        live.historyChanged(to: Self.identity(ofHistory: historyPath), always: true)
    }

    // MARK: Payload

    /// The routine as `GET /api/routine` answers it.
    func payload() -> [UInt8] {
        var phases = StudioPhases()
        return payload(&phases)
    }

    /// The payload, and how long each phase of making it took (none when it was made already).
    func timedPayload() -> ([UInt8], StudioPhases) {
        var phases = StudioPhases()
        let bytes = payload(&phases)
        return (bytes, phases)
    }

    /// The payload, timing each phase of making it.
    func payload(_ phases: inout StudioPhases) -> [UInt8] {
        if let cachedPayload, cachedPayload.version == revision { return cachedPayload.bytes }
        var loaded = RoutineLoader.load(SourceFile(name: path, bytes: bytes), format: format)
        if let notice { loaded.diagnostics.insert(notice, at: 0) }
        if let placesNotice { loaded.diagnostics.append(placesNotice) }
        phases.end("parse")
        let drawing = beginDrawing(loaded, &phases)
        return finishPayload(drawing, &phases)
    }

    /// A payload begun: the routine, and its layout under way unless the last good drawing stands in.
    private struct Drawing {
        var loaded: LoadedRoutine
        var broken: Bool
        var layout: LayoutCache.Pending?
    }

    private func beginDrawing(_ loaded: LoadedRoutine, _ phases: inout StudioPhases) -> Drawing {
        let broken = loaded.diagnostics.contains { $0.severity == .error && RoutinePayload.isSyntax($0.code) }
        let layout = broken && lastGoodGraph != nil ? nil : layouts.begin(for: loaded.routine, previous: seen, places: places, phases: &phases)
        return Drawing(loaded: loaded, broken: broken, layout: layout)
    }

    private func finishPayload(_ drawing: Drawing, _ phases: inout StudioPhases) -> [UInt8] {
        var graph: RoutinePayload.Graph
        var stale = false
        if let pending = drawing.layout {
            var layout = layouts.finish(pending, phases: &phases)
            if case .success(let fresh) = layout, !drawing.broken {
                let routine = drawing.loaded.routine
                let stable = layouts.stable(fresh, of: routine, previous: seen, places: places, phases: &phases)
                seen = stable.centers(StudioLayout.keys(routine))
                layout = .success(stable)
            }
            graph = RoutinePayload.graph(drawing.loaded, layout: layout)
            phases.end("graph")
            if !drawing.broken { lastGoodGraph = graph }
        } else {
            graph = lastGoodGraph ?? RoutinePayload.graph(drawing.loaded, layout: .success(StudioLayout()))
            stale = true
        }
        let readOnly = format == .yaml ? RoutineEditor.yamlReadOnlyReason(drawing.loaded.file.bytes) : nil
        let json = RoutinePayload.json(
            version: revision, path: path, format: format, loaded: drawing.loaded, graph: graph, stale: stale, readOnly: readOnly,
            canUndo: canUndo, canRedo: canRedo, message: message)
        phases.end("json")
        cachedPayload = (revision, json)
        return json
    }

    /// The routine as the file now holds it, without waiting for a layout under way.
    nonisolated func loaded() async -> LoadedRoutine { RoutineLoader.load(SourceFile(name: path, bytes: live.bytes), format: format) }

    // MARK: Edits

    enum EditAnswer {
        case done([UInt8], StudioPhases)
        /// The file changed since the page's version: the current payload.
        case conflict([UInt8])
        case refused(Diagnostic)
    }

    private var canUndo: Bool {
        switch steps.last {
        case .text?: history.canUndo
        case .places?: true
        case nil: false
        }
    }

    private var canRedo: Bool {
        switch undone.last {
        case .text?: history.canRedo
        case .places?: true
        case nil: false
        }
    }

    func edit(_ request: EditBody) -> EditAnswer {
        var phases = StudioPhases()
        reloadIfChanged()
        guard request.version == revision else { return .conflict(payload()) }
        switch request.action {
        case .move(let id, let x, let y):
            let routine = RoutineLoader.load(SourceFile(name: path, bytes: bytes), format: format).routine
            guard let index = routine.indexByID()[id] else { return .refused(.unknownCard(id)) }
            var after = places.keeping(Set(routine.nodes.map(\.id)))
            after.points[id] = CardPlaces.Point(x: round1(x), y: round1(y))
            return changePlaces(to: after, step: .places(before: places, after: after, seen: seen), message: "\(routine.nodes[index].title) moved")
        case .tidy:
            let step = Step.places(before: places, after: CardPlaces(), seen: seen)
            seen = [:]
            return changePlaces(to: CardPlaces(), step: step, message: "tidied")
        case .undo:
            if case .places(let before, _, let was)? = steps.last {
                seen = was
                return changePlaces(to: before, step: nil, message: "undone", undo: true)
            }
        case .redo:
            if case .places(_, let after, _)? = undone.last { return changePlaces(to: after, step: nil, message: "redone", undo: false) }
        case .op: break
        }
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
        case .move, .tidy: return .refused(.nothingTo("do"))
        }
        phases.end("edit")
        // The new text's layout begins now: `dot` makes it on another core while the file is written.
        let newLoaded = RoutineLoader.load(SourceFile(name: path, bytes: newBytes), format: format)
        phases.end("parse")
        let drawing = beginDrawing(newLoaded, &phases)
        let purpose: AtomicFile.Purpose = identity == nil ? .create : .rewrite(expecting: identity)
        let written: FileIdentity?
        switch writer(newBytes, path, purpose) {
        case .success(let identity): written = identity
        case .failure(let diagnostic):
            // The layout is read all the same: `dot` has written it, and the cache keeps it.
            if let pending = drawing.layout { _ = layouts.finish(pending, phases: &phases) }
            if reloadIfChanged() { return .conflict(payload()) }
            return .refused(diagnostic)
        }
        switch request.action {
        case .op:
            history.record(before: bytes, after: newBytes)
            record(.text)
        case .undo:
            history.didUndo()
            if let step = steps.popLast() { undone.append(step) }
        case .redo:
            history.didRedo()
            if let step = undone.popLast() { steps.append(step) }
        case .move, .tidy: break
        }
        // What was written, not what the path holds now: another writer may already have
        // changed it, and the next look at the file must see that as a change.
        identity = written
        changed(to: newBytes)
        phases.end("write")
        return .done(finishPayload(drawing, &phases), phases)
    }

    /// A new step to undo; what was undone is forgotten, and the oldest steps past the history's limit.
    private func record(_ step: Step) {
        steps.append(step)
        undone.removeAll()
        if steps.count > history.limit * 2 { steps.removeFirst(steps.count - history.limit * 2) }
    }

    /// Writes the card places through the safe writer, never over a layout file changed or
    /// damaged since it was read, and records the step (or moves it between undo and redo).
    private func changePlaces(to after: CardPlaces, step: Step?, message newMessage: String, undo: Bool = false) -> EditAnswer {
        if let placesNotice { return .refused(placesNotice) }
        if placesIdentity != nil || !after.points.isEmpty {
            let purpose: AtomicFile.Purpose = placesIdentity == nil ? .create : .rewrite(expecting: placesIdentity)
            switch writer(after.text, placesPath, purpose) {
            case .success(let identity): placesIdentity = identity
            case .failure(let diagnostic):
                if reloadIfChanged() { return .conflict(payload()) }
                return .refused(diagnostic)
            }
        }
        places = after
        if let step {
            record(step)
        } else if undo {
            if let last = steps.popLast() { undone.append(last) }
        } else if let last = undone.popLast() {
            steps.append(last)
        }
        message = newMessage
        changed(to: bytes)
        var phases = StudioPhases()
        let answer = payload(&phases)
        return .done(answer, phases)
    }

    // MARK: Listeners

    /// Reads the file again if it changed, and then makes the new payload at once when a page
    /// listens: its request for it, a moment later, finds it made or under way.
    private func reloadAndPrepare() {
        if reloadIfChanged(), live.listenerCount > 0 { _ = payload() }
    }

    /// The versions from now on, each as the file or an edit makes it, and the history's changes.
    nonisolated func listen() async -> AsyncStream<LiveEvent> { live.listen() }

    nonisolated var listenerCount: Int { get async { live.listenerCount } }

    /// Ends every live channel, for shutdown.
    nonisolated func closeListeners() async { live.closeListeners() }

    /// Pings every live channel: the channel of a page that has gone fails to write, and ends.
    nonisolated func ping() { live.ping() }

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
            if tick % 4 == 0 { await reloadHistoryIfChanged() }
        }
    }
}

/// The part of a document every view reads, behind a lock rather than the document's actor:
/// the text and its version, the history's version, and the pages listening.
final class StudioLive: Sendable {
    private struct State {
        var text: [UInt8] = []
        var textVersion = 1
        var history = 1
        var historyIdentity: [FileIdentity?]
        var listeners: [UUID: AsyncStream<LiveEvent>.Continuation] = [:]
    }

    private let state: Mutex<State>

    init(historyIdentity: [FileIdentity?]) { state = Mutex(State(historyIdentity: historyIdentity)) }

    var bytes: [UInt8] { state.withLock { $0.text } }
    var version: Int { state.withLock { $0.textVersion } }
    var historyVersion: Int { state.withLock { $0.history } }
    var listenerCount: Int { state.withLock { $0.listeners.count } }

    func set(bytes: [UInt8], version: Int) {
        state.withLock { state in
            state.text = bytes
            state.textVersion = version
            for listener in state.listeners.values { listener.yield(.version(version)) }
        }
    }

    /// A new history version when the files changed, or `always`.
    func historyChanged(to identity: [FileIdentity?], always: Bool) {
        state.withLock { state in
            guard always || identity != state.historyIdentity else { return }
            state.historyIdentity = identity
            state.history += 1
            for listener in state.listeners.values { listener.yield(.history(state.history)) }
        }
    }

    func ping() {
        state.withLock { state in
            for listener in state.listeners.values { listener.yield(.ping) }
        }
    }

    func listen() -> AsyncStream<LiveEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingNewest(4))
        let id = UUID()
        state.withLock { $0.listeners[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { $0.listeners[id] = nil } }
        return stream
    }

    func closeListeners() {
        let ended = state.withLock { state in
            defer { state.listeners.removeAll() }
            return Array(state.listeners.values)
        }
        // Outside the lock: finishing runs each channel's termination, which takes it.
        for listener in ended { listener.finish() }
    }
}
