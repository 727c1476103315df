import Hummingbird
import RoutineKit

extension StudioServer {
    /// The builder's stats toggle: GET /api/graph-stats (docs/studio.md).
    func addGraphStatsRoutes(to router: Router<BasicRequestContext>) {
        let document = self.document
        router.get("/api/graph-stats") { request, _ in
            let query = request.uri.queryParameters
            let answer = StudioGraphStats.answer(
                await document.loaded(), since: query["since"].map(String.init), until: query["until"].map(String.init),
                historyPath: document.historyPath)
            return StudioResponse.json(answer.body, status: answer.status)
        }
    }
}
