/// What the live channel announces: a new version of the routine, or a change to the history;
/// or a ping, which the page never sees (a comment line), that finds a page gone.
enum LiveEvent: Sendable, Equatable {
    case version(Int)
    case history(Int)
    case ping

    /// The event as the channel sends it.
    var message: String {
        switch self {
        case .ping: ":\n\n"
        default: "data: \(json)\n\n"
        }
    }

    /// The event's `data:` line.
    var json: String {
        switch self {
        case .version(let version): "{\"version\":\(version)}"
        case .history(let count): "{\"history\":\(count)}"
        case .ping: ""
        }
    }
}
