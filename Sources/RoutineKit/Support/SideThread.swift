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
    let job = SideJob { box.value = side() }
    let context = Unmanaged.passRetained(job).toOpaque()
    var thread = pthread_t()
    let started =
        pthread_create(
            &thread, nil,
            { context in
                Unmanaged<SideJob>.fromOpaque(context!).takeUnretainedValue().body()
                return nil
            }, context) == 0
    defer { Unmanaged<SideJob>.fromOpaque(context).release() }
    guard started else {
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

/// What the side thread runs; not generic, since a thread's start routine is a C function.
private final class SideJob: @unchecked Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// Written by the side thread before it ends, read after it is joined.
private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}
