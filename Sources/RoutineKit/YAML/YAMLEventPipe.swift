import CYAML

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libyaml's parse of a large input on a thread of its own, handed to the reader a chunk of
/// events at a time: the parse and the building of the routine then run on two cores, and
/// the threads meet once per chunk, not once per event. A chunk owns copies of its scalars'
/// bytes and tags, so they stay valid until the reader moves past the event.
final class YAMLEventPipe: @unchecked Sendable {
    /// Events per chunk, and chunks parsed ahead of the reader at most: about 3 MB in all.
    static let chunkSize = 4096
    static let chunksAhead = 8

    private let source: YAMLEventSource
    // Allocated, not stored inline: a mutex must not move, and `&property` of a class need
    // not give the property's own address.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var thread = pthread_t()
    // Shared, under `lock`.
    private var ready: [Chunk] = []
    private var spare: [Chunk] = []
    private var finished = false
    private var cancelled = false
    /// The syntax error that ended the parse, once `finished`.
    private(set) var error: Diagnostic?
    // The reader's own.
    private var current: Chunk?
    private var next = 0
    private var last = YAMLEvent(kind: .streamEnd, span: Span(at: 0))

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        source = YAMLEventSource(bytes)
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
    }

    /// A pipe whose parse has begun, or nil when no thread can be had.
    static func start(_ bytes: UnsafeBufferPointer<UInt8>) -> YAMLEventPipe? {
        let pipe = YAMLEventPipe(bytes)
        let context = Unmanaged.passRetained(pipe).toOpaque()
        let started =
            pthread_create(
                &pipe.thread, nil,
                { context in
                    let pipe = Unmanaged<YAMLEventPipe>.fromOpaque(context!).takeRetainedValue()
                    pipe.produce()
                    return nil
                }, context) == 0
        guard started else {
            Unmanaged<YAMLEventPipe>.fromOpaque(context).release()
            return nil
        }
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
        pthread_join(thread, nil)
    }

    /// The next event, as ``YAMLEventSource/read(into:)`` gives it; past the end of the
    /// stream, stream ends.
    func read(into event: inout YAMLEvent) -> Bool {
        if current == nil || next == current!.count {
            guard let chunk = take() else {
                if error != nil { return false }
                event = last
                return true
            }
            current = chunk
            next = 0
        }
        current!.fill(&event, at: next)
        next += 1
        last.span = event.span
        return true
    }

    /// The next parsed chunk, the one read before going back to the spares; nil when the
    /// parse has ended and every chunk has been read.
    private func take() -> Chunk? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let done = current {
            done.clear()
            spare.append(done)
            current = nil
            pthread_cond_broadcast(changed)
        }
        while ready.isEmpty, !finished { pthread_cond_wait(changed, lock) }
        return ready.isEmpty ? nil : ready.removeFirst()
    }

    /// The side thread: parses into chunks until the stream ends, an error, or `stop()`.
    private func produce() {
        var chunk = Chunk()
        var event = YAMLEvent(kind: .streamStart, span: Span(at: 0))
        var failure: Diagnostic?
        while true {
            guard source.read(into: &event) else {
                failure = source.syntaxError()
                break
            }
            chunk.append(event)
            if event.kind == .streamEnd { break }
            if chunk.count == Self.chunkSize {
                guard let empty = hand(chunk) else { return }
                chunk = empty
            }
        }
        pthread_mutex_lock(lock)
        if chunk.count > 0 { ready.append(chunk) }
        error = failure
        finished = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
    }

    /// Passes a full chunk on and returns an empty one, waiting while the reader is too far
    /// behind; nil once the reader has stopped.
    private func hand(_ chunk: Chunk) -> Chunk? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        ready.append(chunk)
        pthread_cond_broadcast(changed)
        while !cancelled, ready.count >= Self.chunksAhead { pthread_cond_wait(changed, lock) }
        if cancelled {
            finished = true
            return nil
        }
        return spare.popLast() ?? Chunk()
    }

    /// Events with their scalars' bytes and tags copied, each tag followed by a NUL.
    final class Chunk {
        private struct Stored {
            var kind: YAMLEvent.Kind
            var isPlain: Bool
            var hasAnchor: Bool
            var span: Span
            var bytes: Range<Int>
            var tag: Int
        }

        private var events: [Stored] = []
        private var storage: UnsafeMutablePointer<UInt8>
        private var capacity = 1 << 16
        private var used = 0

        init() {
            storage = .allocate(capacity: capacity)
            events.reserveCapacity(YAMLEventPipe.chunkSize)
        }

        deinit { storage.deallocate() }

        var count: Int { events.count }

        func clear() {
            events.removeAll(keepingCapacity: true)
            used = 0
        }

        func append(_ event: YAMLEvent) {
            // Only a scalar's bytes are its own; other events leave the field as it was.
            let bytes = event.kind == .scalar ? copy(UnsafeRawBufferPointer(event.bytes), terminated: false) : 0..<0
            var tag = -1
            if let pointer = event.tag {
                tag =
                    copy(
                        UnsafeRawBufferPointer(start: pointer, count: strlen(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))),
                        terminated: true
                    ).lowerBound
            }
            events.append(Stored(kind: event.kind, isPlain: event.isPlain, hasAnchor: event.hasAnchor, span: event.span, bytes: bytes, tag: tag))
        }

        func fill(_ event: inout YAMLEvent, at index: Int) {
            let stored = events[index]
            event.kind = stored.kind
            event.isPlain = stored.isPlain
            event.hasAnchor = stored.hasAnchor
            event.span = stored.span
            event.bytes = UnsafeBufferPointer(start: storage + stored.bytes.lowerBound, count: stored.bytes.count)
            event.tag = stored.tag < 0 ? nil : UnsafePointer(storage + stored.tag)
        }

        private func copy(_ bytes: UnsafeRawBufferPointer, terminated: Bool) -> Range<Int> {
            let needed = bytes.count + (terminated ? 1 : 0)
            if used + needed > capacity {
                // Only the producer writes a chunk, and only before handing it on.
                var larger = capacity * 2
                while used + needed > larger { larger *= 2 }
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
                grown.update(from: storage, count: used)
                storage.deallocate()
                storage = grown
                capacity = larger
            }
            let start = used
            if bytes.count > 0 { (storage + used).update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
            used += bytes.count
            if terminated {
                storage[used] = 0
                used += 1
            }
            return start..<start + bytes.count
        }
    }
}
