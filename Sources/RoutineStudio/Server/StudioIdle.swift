import ServiceLifecycle

/// Ends a studio that no page has had open for a while: one that a status bar's click started
/// apart from any terminal, which nobody would otherwise stop. A page is open while it holds
/// the live channel; the channel is pinged at each look, so that a page closed without a word
/// (a tab closed, a browser ended) is forgotten within two looks.
struct StudioIdle: Service {
    let document: StudioDocument
    /// How long the studio may stay with no page open.
    let limit: Duration
    /// Called once, when that time has passed: it ends the studio (`routine-studio` signals
    /// itself, so that the end is the one SIGTERM brings, deadline included).
    let ended: @Sendable () -> Void

    /// The time between two looks: a tenth of the limit, at most 30 s.
    var look: Duration { min(limit / 10, .seconds(30)) }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            let clock = ContinuousClock()
            var lastOpen = clock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: look)
                if Task.isCancelled { return }
                document.ping()
                if await document.listenerCount > 0 {
                    lastOpen = clock.now
                } else if clock.now - lastOpen >= limit {
                    ended()
                    // Until the shutdown that `ended` began cancels this: a service that
                    // returned would cancel the others before they shut down gracefully.
                    try? await Task.sleep(for: .seconds(3600))
                    return
                }
            }
        }
    }
}

extension StudioServer {
    /// How long a studio started with `--exit-when-idle` waits with no page open: 10 minutes,
    /// or `ROUTINE_TEST_STUDIO_IDLE_SECONDS` (`test` a value of that variable), which only the
    /// tests set, as they cannot wait so long.
    public static func idleLimit(test: String?) -> Duration {
        if let test, let seconds = Double(test), seconds > 0, seconds < 600 { return .milliseconds(Int(seconds * 1000)) }
        return .seconds(600)
    }
}
