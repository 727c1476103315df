import Hummingbird
import RoutineHistory
import RoutineKit

/// The "Your days" view: GET /api/stats, the statistics as `routine stats --json` gives them,
/// and GET /api/days-off, the days off the calendars mark, computed by the same library code
/// (`StatsLoading`).
struct DaysController<Context: RequestContext> {
    let document: StudioDocument
    /// The history file; nil when the studio keeps none (`--no-history`): an empty history.
    var historyPath: String? { document.historyPath }
    let cache: StatsCache

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("stats", use: stats)
            .get("days-off", use: daysOff)
    }

    /// `?since=&until=`: the bytes of `routine stats --json`, newline included, without the
    /// questions' habits tables, which on a routine of thousands of nodes would be megabytes
    /// the page never shows at once; `&question=ID`: that question's, as `routine stats
    /// --question ID --json` gives it (404 and E014 for no question of the routine).
    @Sendable func stats(_ request: Request, context: Context) async throws -> Response {
        // A change not yet seen by the watcher (a run a moment ago) must not be answered from the cache.
        await document.reloadHistoryIfChanged()
        let versions = StatsVersions(routine: await document.version, history: await document.historyVersion, today: .today())
        let query = request.uri.queryParameters
        let loaded = await document.loaded()
        let window = try StudioHistory.window(of: loaded, since: query["since"].map(String.init), until: query["until"].map(String.init))
        let question = query["question"].map(String.init)
        let routine = loaded.routine
        var asked: Int?
        if let question {
            guard let index = routine.indexByID()[question], routine.isQuestion(index) else {
                throw StudioError(.notFound, .notAQuestion(question, of: routine))
            }
            asked = index
        }
        let key = StatsCache.Key(window: window, versions: versions, question: question)
        if let bytes = await cache.bytes(for: key) { return StudioResponse.json(bytes) }
        do {
            let store = try StudioHistory.readOnly(historyPath)
            let report = try StatsLoading(of: routine, in: window, store: store, today: versions.today).report
            var bytes: [UInt8] = []
            bytes.reserveCapacity(1 << 16)
            if let index = asked {
                bytes += StatsJSON.encode(QuestionStats(index, in: report)).text.utf8
            } else {
                StatsJSON.write(report, questionHabits: .none) { bytes.append(contentsOf: $0.utf8) }
            }
            bytes.append(UInt8(ascii: "\n"))
            await cache.keep(bytes, for: key)
            return StudioResponse.json(bytes)
        } catch {
            throw StudioError(.internalServerError, error.readingDiagnostic)
        }
    }

    /// `?since=&until=`: the routine's days off in the window, as `routine off --list` lists
    /// them: `{"daysOff":[{"date","reason"}]}`.
    @Sendable func daysOff(_ request: Request, context: Context) async throws -> Response {
        let query = request.uri.queryParameters
        let loaded = await document.loaded()
        let window = try StudioHistory.window(of: loaded, since: query["since"].map(String.init), until: query["until"].map(String.init))
        do {
            let store = try StudioHistory.readOnly(historyPath)
            let days = try store?.daysOff(of: loaded.routine.name, from: window.since, through: window.until) ?? []
            let list = JSONValue.array(
                days.map { .object([("date", .string($0.date.description)), ("reason", $0.reason.map(JSONValue.string) ?? .null)]) })
            return StudioResponse.json(Array(JSONValue.object([("daysOff", list)]).text.utf8))
        } catch {
            throw StudioError(.internalServerError, error.readingDiagnostic)
        }
    }
}

/// What a statistics answer depends on besides the query: the routine's text, the history's
/// version (grown on every change seen to the file) and today's date, which ends the default window.
struct StatsVersions: Hashable, Sendable {
    var routine: Int
    var history: Int
    var today: CalendarDate
}

/// The last few answers of `GET /api/stats`, by window and versions: the page asks again on
/// every history change and view switch, and ten years take tens of milliseconds to compute.
actor StatsCache {
    struct Key: Hashable, Sendable {
        var window: DateWindow
        var versions: StatsVersions
        /// The question whose habits table was asked for; nil for the whole statistics.
        var question: String?
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
