#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `side` on a thread of its own while `main` runs on this one, and returns both
/// results once both are done: for the two halves of ten years of history, on a machine with
/// a core to spare. Without a thread to be had, `side` runs here after `main`.
public func alongside<Side: Sendable, Main>(_ side: @escaping @Sendable () -> Side, _ main: () throws -> Main) rethrows -> (Side, Main) {
    let box = ResultBox<Side>()
    guard let thread = startThread({ box.value = side() }) else {
        let mainResult = try main()
        return (side(), mainResult)
    }
    // The side thread is joined whatever `main` does, so that nothing outlives this call.
    let mainResult: Main
    do {
        mainResult = try main()
    } catch {
        pthread_join(thread, nil)
        throw error
    }
    pthread_join(thread, nil)
    return (box.value!, mainResult)
}

/// Runs `body` on a thread of its own that nobody waits for (the language server's reader of
/// its input, and its slow requests); false when no thread is to be had. The one way this
/// project starts a thread, with ``alongside(_:_:)``.
public func detachThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    guard let thread = startThread(body) else { return false }
    pthread_detach(thread)
    return true
}

/// A new thread running `body`, to be joined or detached; nil when none is to be had.
private func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
    let context = Unmanaged.passRetained(SideJob(body)).toOpaque()
    var thread = pthread_t()
    let started =
        pthread_create(
            &thread, nil,
            { context in
                // The thread owns the job, and lets it go when it ends.
                Unmanaged<SideJob>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context) == 0
    guard started else {
        Unmanaged<SideJob>.fromOpaque(context).release()
        return nil
    }
    return thread
}

/// What the side thread runs; not generic, since a thread's start routine is a C function.
private final class SideJob: @unchecked Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// Written by the side thread before it ends, read after it is joined.
private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}
