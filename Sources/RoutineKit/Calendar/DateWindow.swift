/// A span of days asked for with `since` and `until` (both optional, both inclusive), as the
/// commands that read the history over days take it (`--since`, `--until`) and the studio's
/// API (`?since=&until=`): each within ``CalendarDate/supportedYears``, `since` not after `until`.
public struct DateWindow: Hashable, Sendable {
    public var since: CalendarDate?
    public var until: CalendarDate?

    public init(since: CalendarDate? = nil, until: CalendarDate? = nil) {
        self.since = since
        self.until = until
    }

    /// The window of two texts, or why not, naming each by `names` (such as "--since" and
    /// "--until", or "since" and "until").
    public static func checked(since: String?, until: String?, names: (since: String, until: String)) -> Result<DateWindow, CalendarDate.DateProblem>
    {
        var window = DateWindow()
        for (name, text, isSince) in [(names.since, since, true), (names.until, until, false)] {
            guard let text else { continue }
            switch CalendarDate.checked(text) {
            case .success(let date):
                if isSince { window.since = date } else { window.until = date }
            case .failure(let problem):
                return .failure(CalendarDate.DateProblem(reason: "\(name) '\(text)' \(problem.reason)"))
            }
        }
        if let from = window.since, let to = window.until, from > to {
            return .failure(CalendarDate.DateProblem(reason: "\(names.since) \(from) comes after \(names.until) \(to)"))
        }
        return .success(window)
    }
}
