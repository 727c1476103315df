/// What the live channel announces: a new version of the routine, or a change to the history.
enum LiveEvent: Sendable, Equatable {
    case version(Int)
    case history(Int)

    /// The event's `data:` line.
    var json: String {
        switch self {
        case .version(let version): "{\"version\":\(version)}"
        case .history(let count): "{\"history\":\(count)}"
        }
    }
}
