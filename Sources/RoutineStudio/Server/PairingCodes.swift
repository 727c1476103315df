import Synchronization

/// The codes that pair a phone: each works once, within ``lifetime`` of being made, and after
/// ``allowedFailures`` wrong codes within ``failureWindow`` every code is refused, the right
/// one too, until the oldest of those failures is that old. A code is 128 random bits, so the
/// limit is a second wall, not the first.
final class PairingCodes: Sendable {
    static let defaultLifetime = Duration.seconds(300)
    static let allowedFailures = 5
    static let failureWindow = Duration.seconds(60)

    let lifetime: Duration
    private let state = Mutex<(pending: [String: ContinuousClock.Instant], failures: [ContinuousClock.Instant])>(([:], []))

    init(lifetime: Duration = defaultLifetime) { self.lifetime = lifetime }

    /// The lifetime a test sets with `ROUTINE_TEST_STUDIO_PAIR_SECONDS` (the environment's
    /// text, when set), else ``defaultLifetime``.
    static func lifetime(test: String?) -> Duration {
        guard let test, let seconds = Int(test), seconds > 0 else { return defaultLifetime }
        return .seconds(seconds)
    }

    enum Outcome: Equatable {
        case accepted
        /// Wrong, used or expired.
        case refused
        /// Too many wrong codes of late: not even looked at.
        case throttled
    }

    /// A new code, good once within ``lifetime`` of `now`.
    func issue(now: ContinuousClock.Instant = .now) -> String {
        let code = StudioServer.randomToken()
        state.withLock { $0.pending[code] = now + lifetime }
        return code
    }

    /// Whether `code` pairs a phone now; an accepted code is forgotten.
    func redeem(_ code: String, now: ContinuousClock.Instant = .now) -> Outcome {
        state.withLock { state in
            state.failures.removeAll { now - $0 >= Self.failureWindow }
            if state.failures.count >= Self.allowedFailures { return .throttled }
            state.pending = state.pending.filter { $0.value > now }
            // Each stored code compared in full, so the time taken tells nothing about it.
            guard let match = state.pending.keys.first(where: { StudioSecurity.same($0, code) }) else {
                state.failures.append(now)
                return .refused
            }
            state.pending[match] = nil
            return .accepted
        }
    }
}
