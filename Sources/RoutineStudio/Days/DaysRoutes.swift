import Hummingbird
import RoutineHistory
import RoutineKit

extension StudioServer {
    /// The routes of your days: GET /api/stats and GET /api/days-off (docs/studio.md).
    func addDaysRoutes(to router: Router<BasicRequestContext>) {
        let document = self.document
        let days = StudioDays(historyPath: document.historyPath)
        router.get("/api/stats") { request, _ in
            // A change not yet seen by the watcher (a run a moment ago) must not be answered from the cache.
            await document.reloadHistoryIfChanged()
            let versions = StudioDays.Versions(routine: await document.version, history: await document.historyVersion, today: .today())
            let query = request.uri.queryParameters
            let answer = await days.stats(
                await document.loaded(), since: query["since"].map(String.init), until: query["until"].map(String.init), versions: versions)
            return StudioResponse.json(answer.body, status: answer.status)
        }
        router.get("/api/days-off") { request, _ in
            let query = request.uri.queryParameters
            let answer = days.daysOff(await document.loaded(), since: query["since"].map(String.init), until: query["until"].map(String.init))
            return StudioResponse.json(answer.body, status: answer.status)
        }
    }
}
