import CYAML

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libyaml's parse of a large input on threads of their own, handed to the reader a chunk of
/// events at a time: the parse and the building of the routine then run on two cores, and
/// the threads meet once per chunk, not once per event.
///
/// A routine's file is mostly one long block sequence, its nodes. When the second half of the
/// input is a run of that sequence's items (``YAMLSplit``), a second thread parses it while the
/// first parses the first half, and the reader joins the two streams into the one a parse of
/// the whole input gives: the first half's events up to its end, the closing events libyaml
/// made at that end only for what the split line would have closed, the second half's items,
/// then the first half's outer collections closed where the input ends. Whatever does not fit
/// that join (a syntax error in either half, an item that the split cut through) is read again
/// by one parse of the whole input, past the events already read, so the reader sees exactly
/// the events of a parse of the whole: the halves only ever save time.
///
/// The parse threads copy each event into their chunk, the scalar's bytes and the tag into the
/// chunk's own storage, and delete libyaml's event at once. libyaml allocates and frees a few
/// blocks per event; freed at once, they go back to the thread's own cache of blocks and the
/// next event takes them from there, as in a parse on one thread. Kept until the chunk came
/// back, the parse thread's allocations missed that cache and took the allocator's lock, a
/// quarter of the thread's time. The reader turns each event's marks into byte offsets: the
/// parse threads are the longer ones.
final class YAMLEventPipe: @unchecked Sendable {
    /// Events per chunk, and chunks parsed ahead of the reader at most: about 1 MB in all. The
    /// second half's thread is not held back: its events wait until the first half is read.
    static let chunkSize = 4096
    static let chunksAhead = 8

    private let bytes: UnsafeBufferPointer<UInt8>
    private let split: YAMLSplit?
    // Allocated, not stored inline: a mutex must not move, and `&property` of a class need
    // not give the property's own address.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var threads: [pthread_t] = []

    // Shared, under `lock`.
    private var lanes = [Lane(), Lane()]
    private var spare: [Chunk] = []
    private var cancelled = false
    /// Whether the second half is parsed apart, once its thread has looked at it.
    private var verdict = Verdict.pending

    // The first half's thread's own until its lane is finished, then the reader's.
    private var splitting = false
    private var fed = 0
    private var feedLimit: Int
    /// The first half's last chunk, and the events libyaml made at the half's end, held back
    /// from the stream until the reader has seen how the halves join.
    private var finalChunk: Chunk?
    private var heldBack: Chunk?
    private var firstEndIndex = Int.max
    /// The collections open when the first half ended, outermost first: start column << 1,
    /// and 1 for a sequence.
    private var openAtSplit: [Int] = []

    // The second half's thread's own until its lane is finished, then the reader's.
    /// The second half's root sequence end, its document end and its stream end.
    private var secondTail: [PipedEvent] = []
    private var secondFits = false

    // The reader's own.
    private enum Phase { case reading, pending, done, whole }
    private var phase = Phase.reading
    private var lane = 0
    private var current: Chunk?
    private var next = 0
    private var pending: [YAMLEvent] = []
    private var pendingNext = 0
    private var afterPending = Phase.reading
    /// Events handed to the reader so far, which a parse of the whole skips.
    private var delivered = 0
    private var whole: YAMLEventSource?
    private var last = YAMLEvent(kind: .streamEnd, span: Span(at: 0))
    /// Whether the stream was read from the two halves to its end, not from a parse of the whole.
    var joined: Bool { split != nil && whole == nil && splitting && afterPending == .done && lanes[1].finished }
    /// The syntax error that ended the stream, once ``read(into:)`` returned false.
    private(set) var error: Diagnostic?
    /// Made at the first event, once the parse has begun.
    private lazy var offsets = CharacterOffsets(bytes)
    private lazy var secondOffsets = CharacterOffsets(UnsafeBufferPointer(rebasing: bytes[split!.offset...]))

    private struct Lane {
        var ready: [Chunk] = []
        var finished = false
        var error: Diagnostic?
    }

    private enum Verdict {
        case pending, whole
        /// The first half ends at this character.
        case split(endIndex: Int)
    }

    private init(_ bytes: UnsafeBufferPointer<UInt8>, split: YAMLSplit?) {
        self.bytes = bytes
        self.split = split
        feedLimit = split?.offset ?? bytes.count
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
    }

    /// A pipe whose parse has begun, in two halves from `split` when it is given; nil when no
    /// thread can be had.
    static func start(_ bytes: UnsafeBufferPointer<UInt8>, split: YAMLSplit? = nil) -> YAMLEventPipe? {
        let pipe = YAMLEventPipe(bytes, split: split)
        guard pipe.spawn({ $0.produceFirst() }) else { return nil }
        if split != nil, !pipe.spawn({ $0.produceSecond() }) {
            // The first half waits for this verdict at the split.
            pthread_mutex_lock(pipe.lock)
            pipe.verdict = .whole
            pipe.lanes[1].finished = true
            pthread_cond_broadcast(pipe.changed)
            pthread_mutex_unlock(pipe.lock)
        }
        return pipe
    }

    private func spawn(_ body: @escaping (YAMLEventPipe) -> Void) -> Bool {
        final class Start {
            let pipe: YAMLEventPipe
            let body: (YAMLEventPipe) -> Void
            init(_ pipe: YAMLEventPipe, _ body: @escaping (YAMLEventPipe) -> Void) {
                self.pipe = pipe
                self.body = body
            }
        }
        let context = Unmanaged.passRetained(Start(self, body)).toOpaque()
        var thread = pthread_t()
        let started =
            pthread_create(
                &thread, nil,
                { context in
                    let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
                    start.body(start.pipe)
                    return nil
                }, context) == 0
        guard started else {
            Unmanaged<Start>.fromOpaque(context).release()
            return false
        }
        threads.append(thread)
        return true
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        changed.deallocate()
        lock.deallocate()
    }

    /// Stops the parse if it is still going and waits for its threads: the input must outlive
    /// the parse, and the reader owning this pipe is going away.
    func stop() {
        pthread_mutex_lock(lock)
        cancelled = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
        for thread in threads { pthread_join(thread, nil) }
        threads = []
    }

    // MARK: The reader

    /// The next event, as ``YAMLEventSource/read(into:)`` gives it; past the end of the
    /// stream, stream ends.
    func read(into event: inout YAMLEvent) -> Bool {
        while true {
            switch phase {
            case .reading:
                if let chunk = current, next < chunk.count {
                    if lane == 0 {
                        event.fill(from: chunk.events + next, storage: chunk.storage, offsets: &offsets, base: 0)
                    } else {
                        event.fill(from: chunk.events + next, storage: chunk.storage, offsets: &secondOffsets, base: split!.offset)
                    }
                    next += 1
                    delivered += 1
                    last.span = event.span
                    return true
                }
                if let chunk = take() {
                    current = chunk
                    next = 0
                } else if lane == 0 {
                    firstHalfRead()
                } else if !joinSecondTail() {
                    readWhole()
                }
            case .pending:
                if pendingNext < pending.count {
                    event = pending[pendingNext]
                    pendingNext += 1
                    delivered += 1
                    last.span = event.span
                    return true
                }
                phase = afterPending
            case .done:
                if error != nil { return false }
                event = last
                return true
            case .whole:
                guard whole!.read(into: &event) else {
                    error = whole!.syntaxError()
                    phase = .done
                    return false
                }
                if event.kind == .streamEnd {
                    last.span = event.span
                    phase = .done
                }
                return true
            }
        }
    }

    /// The next parsed chunk of the lane being read, the one read before going back to the
    /// spares; nil when that lane has ended and every chunk of it has been read.
    private func take() -> Chunk? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let done = current {
            spare.append(done)
            current = nil
            pthread_cond_broadcast(changed)
        }
        while lanes[lane].ready.isEmpty, !lanes[lane].finished { pthread_cond_wait(changed, lock) }
        return lanes[lane].ready.isEmpty ? nil : lanes[lane].ready.removeFirst()
    }

    /// The first half is read: the end of the stream when it was the whole input, else its
    /// last events (kept until now: a scalar that ran on past the split would be cut short),
    /// the closing events its end made for the split line, then the second half.
    private func firstHalfRead() {
        guard splitting else {
            if let final = finalChunk, final.count > 0 {
                finalChunk = nil
                current = final
                next = 0
                return
            }
            error = lanes[0].error
            phase = .done
            return
        }
        // The split line continues the sequence at its indentation only when nothing deeper
        // is open to its left; then nothing the first half ended can have run on into it.
        guard lanes[0].error == nil, let held = heldBack, let final = finalChunk, let split,
            let sequence = openAtSplit.lastIndex(where: { $0 == split.indent << 1 | 1 }),
            openAtSplit[(sequence + 1)...].allSatisfy({ $0 >> 1 > split.indent })
        else { return readWhole() }
        pending = []
        for i in 0..<final.count {
            var event = YAMLEvent(kind: .streamEnd, span: Span(at: 0))
            event.fill(from: final.events + i, storage: final.storage, offsets: &offsets, base: 0)
            pending.append(event)
        }
        // The split line's `-` closes what the last item left open, there; the sequence it
        // continues goes on in the second half.
        let at = Span(at: split.offset + split.indent)
        var depth = openAtSplit.count
        for i in 0..<held.count {
            var event = YAMLEvent(kind: .streamEnd, span: at)
            event.fill(from: held.events + i, storage: held.storage, offsets: &offsets, base: 0)
            event.span = at
            switch event.kind {
            case .mappingEnd, .sequenceEnd:
                if depth == sequence + 1 {
                    guard event.kind == .sequenceEnd else { return readWhole() }
                    phase = .pending
                    pendingNext = 0
                    afterPending = .reading
                    lane = 1
                    return
                }
                depth -= 1
            case .scalar where event.bytes.isEmpty:
                break
            default:
                return readWhole()
            }
            pending.append(event)
        }
        readWhole()
    }

    /// The second half is read: its root sequence's end, the first half's outer collections
    /// closed there, and the ends of the document and the stream. False when the second half
    /// did not fit.
    private func joinSecondTail() -> Bool {
        guard secondFits, lanes[1].error == nil, secondTail.count == 3, let split else { return false }
        var events: [YAMLEvent] = []
        for piped in secondTail {
            let start = split.offset + secondOffsets.byteOffset(ofCharacter: Int(piped.start))
            let end = split.offset + secondOffsets.byteOffset(ofCharacter: Int(piped.end))
            events.append(YAMLEvent(kind: YAMLEvent.kind(of: yaml_event_type_t(rawValue: UInt32(piped.type))), span: Span(start: start, end: end)))
        }
        guard events.map(\.kind) == [.sequenceEnd, .documentEnd, .streamEnd],
            let sequence = openAtSplit.lastIndex(where: { $0 == split.indent << 1 | 1 })
        else { return false }
        let end = events[0].span
        let outer = openAtSplit[..<sequence].reversed().map { YAMLEvent(kind: $0 & 1 == 1 ? .sequenceEnd : .mappingEnd, span: end) }
        events.insert(contentsOf: outer, at: 1)
        pending = events
        pendingNext = 0
        afterPending = .done
        phase = .pending
        return true
    }

    /// The halves did not join: one parse of the whole input, past the events already read.
    private func readWhole() {
        stop()
        let source = YAMLEventSource(bytes)
        var event = YAMLEvent(kind: .streamStart, span: Span(at: 0))
        for _ in 0..<delivered where !source.read(into: &event) {
            error = source.syntaxError()
            phase = .done
            return
        }
        whole = source
        phase = .whole
    }

    // MARK: The parse threads

    /// The first half, or the whole input when it is not split: parses into chunks until the
    /// stream ends, an error, or `stop()`.
    private func produceFirst() {
        let source = YAMLEventSource(bytes, fedBy: self)
        var chunk = Chunk()
        var held: Chunk?
        var open: [Int] = []
        var failure: Diagnostic?
        let raw = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
        defer { raw.deallocate() }
        while true {
            guard source.parse(into: raw) else {
                failure = source.syntaxError()
                break
            }
            let type = raw.pointee.type
            if raw.pointee.start_mark.index >= firstEndIndex {
                // Made by the half's end, not by the input: how it joins is decided by the reader.
                if held == nil { held = Chunk() }
                if held!.count < Self.chunkSize { held!.append(raw) } else { failure = .yamlSyntax("invalid YAML", at: Span(at: 0), contextAt: nil) }
            } else {
                if split != nil {
                    switch type {
                    case YAML_MAPPING_START_EVENT: open.append(Int(raw.pointee.start_mark.column) << 1)
                    case YAML_SEQUENCE_START_EVENT: open.append(Int(raw.pointee.start_mark.column) << 1 | 1)
                    case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT: _ = open.popLast()
                    default: break
                    }
                }
                // A full chunk goes once the next event is parsed, so that the last event
                // before the half's end is still here when the half ends.
                if chunk.count == Self.chunkSize {
                    guard let empty = hand(chunk, lane: 0) else {
                        yaml_event_delete(raw)
                        return
                    }
                    chunk = empty
                }
                chunk.append(raw)
            }
            yaml_event_delete(raw)
            if type == YAML_STREAM_END_EVENT { break }
        }
        finish(lane: 0, failure: failure) {
            finalChunk = chunk
            heldBack = held
            openAtSplit = open
        }
    }

    /// Ends `lane` with `failure`, after `results` have been stored, all under the lock: the
    /// reader reads them once it sees the lane finished.
    private func finish(lane: Int, failure: Diagnostic?, _ results: () -> Void) {
        pthread_mutex_lock(lock)
        results()
        lanes[lane].error = failure
        lanes[lane].finished = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
    }

    /// libyaml's input for the first half: the input up to the split, and at the split the
    /// end, or the rest of the input when the second half is not parsed apart. The pieces are
    /// those of libyaml's own reading of a string (as much as its buffer takes), so that the
    /// first half decodes the input, and finds what it refuses, as a parse of the whole does;
    /// the piece that reaches the split waits to know where the input ends.
    func feed(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int) -> Int {
        if let split, fed + size > split.offset, feedLimit == split.offset, !splitting {
            pthread_mutex_lock(lock)
            while case .pending = verdict, !cancelled { pthread_cond_wait(changed, lock) }
            switch verdict {
            case .split(let endIndex):
                splitting = true
                firstEndIndex = endIndex
            case .whole: feedLimit = bytes.count
            case .pending: break  // stopped: the input ends here
            }
            pthread_mutex_unlock(lock)
        }
        let count = min(size, feedLimit - fed)
        if count > 0 { buffer.update(from: bytes.baseAddress! + fed, count: count) }
        fed += count
        return count
    }

    /// The second half: looks at its lines, tells the first half where to end, then parses
    /// the items into chunks that wait for the reader.
    private func produceSecond() {
        let split = split!
        let tail = UnsafeBufferPointer(rebasing: bytes[split.offset...])
        let fits = split.tailStaysInSequence(tail) && YAMLSplit.isReadable(tail)
        pthread_mutex_lock(lock)
        verdict = fits ? .split(endIndex: CharacterOffsets.characterCount(bytes, upTo: split.offset)) : .whole
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
        guard fits else {
            finishSecond(fits: false, tail: [], failure: nil, chunk: nil)
            return
        }
        let source = YAMLEventSource(tail)
        var chunk = Chunk()
        var tailEvents: [PipedEvent] = []
        var count = 0
        var depth = 0
        var fitsSoFar = true
        var failure: Diagnostic?
        let raw = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
        defer { raw.deallocate() }
        while true {
            guard source.parse(into: raw) else {
                failure = .yamlSyntax("invalid YAML", at: Span(at: 0), contextAt: nil)
                break
            }
            let type = raw.pointee.type
            count += 1
            switch count {
            case 1: fitsSoFar = type == YAML_STREAM_START_EVENT
            case 2: fitsSoFar = type == YAML_DOCUMENT_START_EVENT && raw.pointee.data.document_start.implicit != 0
            case 3:
                // The split line's `-`: the sequence the first half left open.
                fitsSoFar =
                    type == YAML_SEQUENCE_START_EVENT && raw.pointee.start_mark.index == split.indent
                    && raw.pointee.data.sequence_start.anchor == nil && raw.pointee.data.sequence_start.tag == nil
                depth = 1
            default:
                if depth == 0 {
                    tailEvents.append(PipedEvent(raw))
                } else {
                    switch type {
                    case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT: depth += 1
                    case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT: depth -= 1
                    default: break
                    }
                    if depth == 0 { tailEvents.append(PipedEvent(raw)) } else { chunk.append(raw) }
                }
            }
            yaml_event_delete(raw)
            if !fitsSoFar || type == YAML_STREAM_END_EVENT { break }
            if chunk.count == Self.chunkSize {
                guard let empty = hand(chunk, lane: 1) else { return }
                chunk = empty
            }
        }
        finishSecond(fits: fitsSoFar, tail: tailEvents, failure: failure, chunk: chunk)
    }

    private func finishSecond(fits: Bool, tail: [PipedEvent], failure: Diagnostic?, chunk: Chunk?) {
        finish(lane: 1, failure: failure) {
            if let chunk, chunk.count > 0 { lanes[1].ready.append(chunk) }
            secondFits = fits
            secondTail = tail
        }
    }

    /// Passes a full chunk on and returns an empty one, waiting while the reader is too far
    /// behind the first half; nil once the reader has stopped.
    private func hand(_ chunk: Chunk, lane: Int) -> Chunk? {
        pthread_mutex_lock(lock)
        lanes[lane].ready.append(chunk)
        pthread_cond_broadcast(changed)
        while !cancelled, lane == 0, lanes[0].ready.count >= Self.chunksAhead { pthread_cond_wait(changed, lock) }
        if cancelled {
            lanes[lane].finished = true
            pthread_mutex_unlock(lock)
            return nil
        }
        let empty = spare.popLast() ?? Chunk()
        pthread_mutex_unlock(lock)
        empty.clear()
        return empty
    }

    /// Events copied from libyaml's, their scalars' bytes and tags in the chunk's storage.
    final class Chunk {
        let events: UnsafeMutablePointer<PipedEvent>
        var count = 0
        /// The scalars' bytes and the tags (each with a closing zero), back to back.
        private(set) var storage: UnsafeMutablePointer<UInt8>
        private var used = 0
        private var capacity = 1 << 16

        init() {
            events = .allocate(capacity: YAMLEventPipe.chunkSize)
            storage = .allocate(capacity: capacity)
        }

        deinit {
            events.deallocate()
            storage.deallocate()
        }

        func clear() {
            count = 0
            used = 0
        }

        /// Copies `raw`, which the caller then deletes.
        @inline(__always) func append(_ raw: UnsafePointer<yaml_event_t>) {
            let event = events + count
            count += 1
            event.initialize(to: PipedEvent(raw))
            switch raw.pointee.type {
            case YAML_SCALAR_EVENT:
                let scalar = raw.pointee.data.scalar
                event.pointee.value = UInt32(truncatingIfNeeded: keep(scalar.value, count: scalar.length))
                event.pointee.length = UInt32(truncatingIfNeeded: scalar.length)
                event.pointee.isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE
                event.pointee.hasAnchor = scalar.anchor != nil
                if let tag = scalar.tag { event.pointee.tag = Int32(truncatingIfNeeded: keep(tag)) }
            case YAML_MAPPING_START_EVENT:
                event.pointee.hasAnchor = raw.pointee.data.mapping_start.anchor != nil
                if let tag = raw.pointee.data.mapping_start.tag { event.pointee.tag = Int32(truncatingIfNeeded: keep(tag)) }
            case YAML_SEQUENCE_START_EVENT:
                event.pointee.hasAnchor = raw.pointee.data.sequence_start.anchor != nil
                if let tag = raw.pointee.data.sequence_start.tag { event.pointee.tag = Int32(truncatingIfNeeded: keep(tag)) }
            default: break
            }
        }

        /// Copies `count` bytes into the storage, with a zero after them; returns where.
        private func keep(_ bytes: UnsafePointer<yaml_char_t>?, count: Int) -> Int {
            if used + count + 1 > capacity {
                capacity = max(capacity * 2, used + count + 1)
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                grown.update(from: storage, count: used)
                storage.deallocate()
                storage = grown
            }
            let at = used
            if let bytes, count > 0 { (storage + at).update(from: bytes, count: count) }
            storage[at + count] = 0
            used += count + 1
            return at
        }

        private func keep(_ text: UnsafePointer<yaml_char_t>) -> Int {
            keep(text, count: strlen(UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self)))
        }
    }
}

/// One event as a chunk keeps it: what ``YAMLEvent`` is made of, the marks still libyaml's
/// character indexes and the bytes as offsets into the chunk's storage. In 32-bit fields (an
/// input is at most ``SourceFile/maximumSize``), so that a half's events waiting for the
/// reader take 24 bytes each.
struct PipedEvent {
    let start: UInt32
    let end: UInt32
    var value: UInt32 = 0
    var length: UInt32 = 0
    /// Where the tag starts in the storage, or -1.
    var tag: Int32 = -1
    let type: UInt8
    var isPlain = false
    var hasAnchor = false

    /// `raw`'s type and marks; its bytes, style and anchor are the chunk's to copy.
    init(_ raw: UnsafePointer<yaml_event_t>) {
        type = UInt8(truncatingIfNeeded: raw.pointee.type.rawValue)
        start = UInt32(truncatingIfNeeded: raw.pointee.start_mark.index)
        end = UInt32(truncatingIfNeeded: raw.pointee.end_mark.index)
    }
}

/// Where a large YAML input can be parsed in two halves: the start of a line, near the middle,
/// that is a block sequence's item (`- ` after `indent` spaces) at the least indentation of
/// the lines around it, as the nodes of a routine are.
struct YAMLSplit: Hashable {
    /// The byte where the line starts.
    let offset: Int
    let indent: Int

    /// How far past the middle a split line is looked for.
    static let window = 1 << 16

    /// The split line nearest after the middle of `bytes`, if there is one: UTF-8 input (libyaml
    /// reads a byte order mark of UTF-16 only at the start), a line `- ` at the least
    /// indentation of the lines in the window.
    static func find(in bytes: UnsafeBufferPointer<UInt8>) -> YAMLSplit? {
        guard bytes.count >= 4 else { return nil }
        if (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) { return nil }
        var best: YAMLSplit?
        var i = bytes.count / 2
        let stop = min(bytes.count, i + window)
        // The first line start after the middle.
        while i < stop, bytes[i - 1] != 0x0A { i += 1 }
        while i < stop {
            var j = i
            while j < stop, bytes[j] == 0x20 { j += 1 }
            if j + 1 < stop, bytes[j] == 0x2D, bytes[j + 1] == 0x20 || bytes[j + 1] == 0x0A, best.map({ j - i < $0.indent }) ?? true {
                best = YAMLSplit(offset: i, indent: j - i)
                if j == i { break }
            }
            while j < stop, bytes[j] != 0x0A { j += 1 }
            i = j + 1
        }
        return best
    }

    /// Every line of `bytes` but the first that starts, after spaces, with `- `: every split
    /// that may be tried (tests and the fuzz target try them).
    static func candidates(in bytes: UnsafeBufferPointer<UInt8>) -> [YAMLSplit] {
        var splits: [YAMLSplit] = []
        var i = 0
        while i < bytes.count {
            var j = i
            while j < bytes.count, bytes[j] == 0x20 { j += 1 }
            if i > 0, j + 1 < bytes.count, bytes[j] == 0x2D, bytes[j + 1] == 0x20 || bytes[j + 1] == 0x0A || bytes[j + 1] == 0x0D {
                splits.append(YAMLSplit(offset: i, indent: j - i))
            }
            while j < bytes.count, bytes[j] != 0x0A { j += 1 }
            i = j + 1
        }
        return splits
    }

    /// Whether libyaml's reader takes every character of `bytes`: UTF-8, and printable as
    /// YAML defines it. libyaml decodes ahead of its parse, so a parse of the whole reports a
    /// character it refuses before events of the first half that come earlier in the input;
    /// such a second half is not parsed apart.
    static func isReadable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        let count = bytes.count
        var i = 0
        while i < count {
            if i + 8 <= count {
                // Eight printable ASCII bytes at once: no top bit, none below 0x20, no 0x7F.
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let low = (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
                let delete = ((word ^ 0x7F7F_7F7F_7F7F_7F7F) &- 0x0101_0101_0101_0101) & ~(word ^ 0x7F7F_7F7F_7F7F_7F7F) & 0x8080_8080_8080_8080
                if word & 0x8080_8080_8080_8080 == 0, low == 0, delete == 0 {
                    i += 8
                    continue
                }
            }
            let lead = bytes[i]
            if lead < 0x80 {
                guard lead >= 0x20 && lead != 0x7F || lead == 0x09 || lead == 0x0A || lead == 0x0D else { return false }
                i += 1
                continue
            }
            let width = lead & 0xE0 == 0xC0 ? 2 : lead & 0xF0 == 0xE0 ? 3 : lead & 0xF8 == 0xF0 ? 4 : 0
            guard width > 0, i + width <= count else { return false }
            var value = UInt32(lead & (width == 2 ? 0x1F : width == 3 ? 0x0F : 0x07))
            for k in 1..<width {
                let next = bytes[i + k]
                guard next & 0xC0 == 0x80 else { return false }
                value = value << 6 | UInt32(next & 0x3F)
            }
            let shortest = width == 2 ? value >= 0x80 : width == 3 ? value >= 0x800 : value >= 0x10000
            let printable =
                value == 0x85 || (0xA0...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
                || (0x10000...0x10FFFF).contains(value)
            guard shortest, printable else { return false }
            i += width
        }
        return true
    }

    /// Whether every line of `tail` (the input from the split on) is an item of the split's
    /// sequence or inside one: blank, a comment, indented deeper, or `-` at the indentation.
    /// A key after the sequence or a line a flow or a quoted scalar carried back out to the
    /// left would not parse apart, and is left to one parse of the whole.
    func tailStaysInSequence(_ tail: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let count = tail.count
        while i < count {
            var j = i
            while j < count, tail[j] == 0x20 { j += 1 }
            if j < count, tail[j] != 0x0A, tail[j] != 0x0D, tail[j] != 0x23 {
                let depth = j - i
                if depth < indent { return false }
                if depth == indent {
                    guard tail[j] == 0x2D, j + 1 == count || tail[j + 1] == 0x20 || tail[j + 1] == 0x0A || tail[j + 1] == 0x0D
                    else { return false }
                }
            }
            guard let newline = memchr(tail.baseAddress! + j, 0x0A, count - j) else { break }
            i = tail.baseAddress!.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return true
    }
}
