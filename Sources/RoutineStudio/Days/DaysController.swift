import HTTPTypes
import RoutineHistory
import RoutineKit

/// The "Your days" API: the statistics as `routine stats --json` gives them, and the days off
/// the calendars mark, computed by the same library code (`StatsLoading`).
struct StudioDays: Sendable {
    /// The history file; nil when the studio keeps none (`--no-history`): an empty history.
    let historyPath: String?
    let cache = StatsCache()

    typealias Answer = StudioToday.Answer

    /// What an answer depends on besides the query: the routine's text, the history's version
    /// (grown on every change seen to the file) and today's date, which ends the default window.
    struct Versions: Hashable, Sendable {
        var routine: Int
        var history: Int
        var today: CalendarDate
    }

    /// `GET /api/stats?since=&until=`: the bytes of `routine stats --json`, newline included.
    func stats(_ loaded: LoadedRoutine, since: String?, until: String?, versions: Versions) async -> Answer {
        let window: DateWindow
        switch StudioToday.window(of: loaded, since: since, until: until) {
        case .window(let checked): window = checked
        case .refused(let refusal): return refusal
        }
        let key = StatsCache.Key(window: window, versions: versions)
        if let bytes = await cache.bytes(for: key) { return (.ok, bytes) }
        do {
            let store = try StudioToday.readOnlyStore(historyPath)
            let report = try StatsLoading(of: loaded.routine, in: window, store: store, today: versions.today).report
            var bytes: [UInt8] = []
            bytes.reserveCapacity(1 << 16)
            StatsJSON.write(report) { bytes.append(contentsOf: $0.utf8) }
            bytes.append(UInt8(ascii: "\n"))
            await cache.keep(bytes, for: key)
            return (.ok, bytes)
        } catch {
            return StudioToday.refusal(error.readingDiagnostic, .internalServerError)
        }
    }

    /// `GET /api/days-off?since=&until=`: the routine's days off in the window, as
    /// `routine off --list` lists them: `{"daysOff":[{"date","reason"}]}`.
    func daysOff(_ loaded: LoadedRoutine, since: String?, until: String?) -> Answer {
        let window: DateWindow
        switch StudioToday.window(of: loaded, since: since, until: until) {
        case .window(let checked): window = checked
        case .refused(let refusal): return refusal
        }
        do {
            let store = try StudioToday.readOnlyStore(historyPath)
            let days = try store?.daysOff(of: loaded.routine.name, from: window.since, through: window.until) ?? []
            let list = JSONValue.array(
                days.map { .object([("date", .string($0.date.description)), ("reason", $0.reason.map(JSONValue.string) ?? .null)]) })
            return (.ok, Array(JSONValue.object([("daysOff", list)]).text.utf8))
        } catch {
            return StudioToday.refusal(error.readingDiagnostic, .internalServerError)
        }
    }
}

/// The last few answers of `GET /api/stats`, by window and versions: the page asks again on
/// every history change and view switch, and ten years take tens of milliseconds to compute.
actor StatsCache {
    struct Key: Hashable, Sendable {
        var window: DateWindow
        var versions: StudioDays.Versions
    }

    private var kept: [(key: Key, bytes: [UInt8])] = []

    func bytes(for key: Key) -> [UInt8]? { kept.first { $0.key == key }?.bytes }

    /// Keeps `bytes`; answers of older versions can never be asked for again and go.
    func keep(_ bytes: [UInt8], for key: Key) {
        kept.removeAll { $0.key.versions != key.versions }
        if kept.count >= 4 { kept.removeFirst() }
        kept.append((key, bytes))
    }
}
