import CYAML

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libyaml's parse of a large input on a thread of its own, handed to the reader a chunk of
/// events at a time: the parse and the building of the routine then run on two cores, and
/// the threads meet once per chunk, not once per event.
///
/// The parse thread copies each event into its chunk, the scalar's bytes and the tag into the
/// chunk's own storage, and deletes libyaml's event at once. libyaml allocates and frees a few
/// blocks per event; freed at once, they go back to the thread's own cache of blocks and the
/// next event takes them from there, as in a parse on one thread, where events kept until
/// their chunk came back would make every allocation take the allocator's lock. The reader
/// turns each event's marks into byte offsets: the parse thread is the longer one.
final class YAMLEventPipe: @unchecked Sendable {
    /// Events per chunk, and chunks parsed ahead of the reader at most: about 1 MB in all.
    static let chunkSize = 4096
    static let chunksAhead = 8

    private let bytes: UnsafeBufferPointer<UInt8>
    // Allocated, not stored inline: a mutex must not move, and `&property` of a class need
    // not give the property's own address.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var thread: pthread_t?

    // Shared, under `lock`.
    private var ready: [Chunk] = []
    private var spare: [Chunk] = []
    private var finished = false
    private var failure: Diagnostic?
    private var cancelled = false

    // The reader's own.
    private var current: Chunk?
    private var next = 0
    private var ended = false
    private var last = YAMLEvent(kind: .streamEnd, span: Span(at: 0))
    /// The syntax error that ended the stream, once ``read(into:)`` returned false.
    private(set) var error: Diagnostic?
    /// Made at the first event, once the parse has begun.
    private lazy var offsets = CharacterOffsets(bytes)

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
    }

    /// A pipe whose parse has begun; nil when no thread can be had.
    static func start(_ bytes: UnsafeBufferPointer<UInt8>) -> YAMLEventPipe? {
        final class Start {
            let pipe: YAMLEventPipe
            init(_ pipe: YAMLEventPipe) { self.pipe = pipe }
        }
        let pipe = YAMLEventPipe(bytes)
        let context = Unmanaged.passRetained(Start(pipe)).toOpaque()
        var thread = pthread_t()
        let started =
            pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<Start>.fromOpaque(context!).takeRetainedValue().pipe.produce()
                    return nil
                }, context) == 0
        guard started else {
            Unmanaged<Start>.fromOpaque(context).release()
            return nil
        }
        pipe.thread = thread
        return pipe
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        changed.deallocate()
        lock.deallocate()
    }

    /// Stops the parse if it is still going and waits for its thread: the input must outlive
    /// the parse, and the reader owning this pipe is going away.
    func stop() {
        pthread_mutex_lock(lock)
        cancelled = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    // MARK: The reader

    /// The next event, as ``YAMLEventSource/read(into:)`` gives it; past the end of the
    /// stream, stream ends.
    func read(into event: inout YAMLEvent) -> Bool {
        while !ended {
            if let chunk = current, next < chunk.count {
                event.fill(from: chunk.events + next, storage: chunk.storage, offsets: &offsets)
                next += 1
                last.span = event.span
                return true
            }
            if let chunk = take() {
                current = chunk
                next = 0
            } else {
                ended = true
            }
        }
        if error != nil { return false }
        event = last
        return true
    }

    /// The next parsed chunk, the one read before going back to the spares; nil when the
    /// parse has ended and every chunk of it has been read.
    private func take() -> Chunk? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let done = current {
            spare.append(done)
            current = nil
            pthread_cond_broadcast(changed)
        }
        while ready.isEmpty, !finished { pthread_cond_wait(changed, lock) }
        if ready.isEmpty { error = failure }
        return ready.isEmpty ? nil : ready.removeFirst()
    }

    // MARK: The parse thread

    /// Parses into chunks until the stream ends, an error, or `stop()`.
    private func produce() {
        let source = YAMLEventSource(bytes)
        var chunk = Chunk()
        var failure: Diagnostic?
        let raw = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
        defer { raw.deallocate() }
        while true {
            guard source.parse(into: raw) else {
                failure = source.syntaxError()
                break
            }
            chunk.append(raw)
            let type = raw.pointee.type
            yaml_event_delete(raw)
            if type == YAML_STREAM_END_EVENT { break }
            if chunk.count == Self.chunkSize {
                guard let empty = hand(chunk) else { return }
                chunk = empty
            }
        }
        pthread_mutex_lock(lock)
        if chunk.count > 0 { ready.append(chunk) }
        self.failure = failure
        finished = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
    }

    /// Passes a full chunk on and returns an empty one, waiting while the reader is too far
    /// behind; nil once the reader has stopped.
    private func hand(_ chunk: Chunk) -> Chunk? {
        pthread_mutex_lock(lock)
        ready.append(chunk)
        pthread_cond_broadcast(changed)
        while !cancelled, ready.count >= Self.chunksAhead { pthread_cond_wait(changed, lock) }
        if cancelled {
            finished = true
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
/// input is at most ``SourceFile/maximumSize``), so that a chunk stays small in the cache.
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
