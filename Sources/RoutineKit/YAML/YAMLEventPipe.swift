import CYAML

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libyaml's parse of a large input on a thread of its own, handed to the reader a chunk of
/// events at a time: the parse and the building of the routine then run on two cores, and
/// the threads meet once per chunk, not once per event. A chunk holds libyaml's events as
/// they were parsed, their scalars' bytes and tags included, so they stay valid until the
/// reader moves past the chunk; the parse thread, which allocated them, frees them when the
/// chunk comes back empty. The reader turns each event's marks into byte offsets: the parse
/// thread is the longer of the two, and does nothing but parse.
final class YAMLEventPipe: @unchecked Sendable {
    /// Events per chunk, and chunks parsed ahead of the reader at most: about 4 MB in all.
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
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Made at the first event, once the parse has begun.
    private lazy var offsets = CharacterOffsets(bytes)

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
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
        event.fill(from: current!.events + next, offsets: &offsets)
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
        var failure: Diagnostic?
        while true {
            guard source.parse(into: chunk.events + chunk.count) else {
                failure = source.syntaxError()
                break
            }
            chunk.count += 1
            if chunk.events[chunk.count - 1].type == YAML_STREAM_END_EVENT { break }
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
        // The chunks the reader is done with are freed here as they come back, until it stops
        // the pipe: otherwise it would free them all itself, at the end, after the parse.
        while !cancelled {
            let returned = spare
            spare.removeAll()
            pthread_mutex_unlock(lock)
            for done in returned { done.clear() }
            pthread_mutex_lock(lock)
            while !cancelled, spare.isEmpty { pthread_cond_wait(changed, lock) }
        }
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
        // Freed here, outside the lock, by the thread that allocated them.
        empty.clear()
        return empty
    }

    /// libyaml's events, deleted when the chunk is cleared or goes away.
    final class Chunk {
        let events: UnsafeMutablePointer<yaml_event_t>
        var count = 0

        init() { events = .allocate(capacity: YAMLEventPipe.chunkSize) }

        deinit {
            clear()
            events.deallocate()
        }

        func clear() {
            for k in 0..<count { yaml_event_delete(events + k) }
            count = 0
        }
    }
}
