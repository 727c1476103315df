import Hummingbird
import RoutineHistory
import RoutineKit

/// The builder's stats toggle, `GET /api/graph-stats?since=&until=`: what `routine graph --stats` draws on a routine, as
/// JSON for the builder's stats toggle: each habit's completion rate and fill colour, how often
/// each answer was chosen, which nodes no run reached, and the legend. The figures come from
/// the library code `graph --stats` and `stats` use (`StatsLoading`, `GraphHistory`), so the
/// three agree.
struct GraphStatsController<Context: RequestContext> {
    let document: StudioDocument

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self).get("graph-stats", use: graphStats)
    }

    @Sendable func graphStats(_ request: Request, context: Context) async throws -> Response {
        let query = request.uri.queryParameters
        return StudioResponse.json(
            try Self.answer(
                await document.loaded(), since: query["since"].map(String.init), until: query["until"].map(String.init),
                historyPath: document.historyPath))
    }

    static func answer(_ loaded: LoadedRoutine, since: String?, until: String?, historyPath: String?, today: CalendarDate = .today())
        throws(StudioError) -> [UInt8]
    {
        let window = try StudioHistory.window(of: loaded, since: since, until: until)
        do {
            let store = try StudioHistory.readOnly(historyPath)
            let loading = try StatsLoading(of: loaded.routine, in: window, store: store, today: today)
            let history = GraphHistory(report: loading.report, runs: loading.runs)
            return Array(json(history, of: loaded.routine).text.utf8)
        } catch {
            throw StudioError(.internalServerError, error.readingDiagnostic)
        }
    }

    static func json(_ history: GraphHistory, of routine: Routine) -> JSONValue {
        let byID = routine.indexByID()
        var nodes: [JSONValue] = []
        for (index, node) in routine.nodes.enumerated() where byID[node.id] == index {
            var members: [(String, JSONValue)] = [("id", .string(node.id)), ("reached", .bool(history.reached[index]))]
            if node.isHabit {
                let rate = history.rates[index]
                members.append(("rate", rate.map { .number($0) } ?? .null))
                members.append(("percent", rate.map { .int(Int(($0 * 100).rounded())) } ?? .null))
                members.append(("color", rate.map { .string(GraphHistory.color(rate: $0)) } ?? .null))
            } else {
                let chosen = history.chosen[index] ?? Array(repeating: 0, count: node.options.count)
                members.append(("chosen", .array(chosen.map { .int($0) })))
            }
            nodes.append(.object(members))
        }
        let bands = GraphHistory.bands.enumerated().map { k, band in
            JSONValue.object([("label", .string(band)), ("color", .string(GraphHistory.color(rate: Double(k) / 5)))])
        }
        return .object([
            ("first", .string(history.first.description)), ("until", .string(history.until.description)), ("runs", .int(history.runs)),
            ("bands", .array(bands)), ("countNote", .string(GraphHistory.countNote)), ("nodes", .array(nodes)),
        ])
    }
}
