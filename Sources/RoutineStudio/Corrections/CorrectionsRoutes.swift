import Hummingbird
import RoutineHistory
import RoutineKit

extension StudioServer {
    /// The routes of a day and its corrections: GET /api/day, POST /api/correct,
    /// /api/correct/undo, /api/run/delete and /api/run/restore (docs/studio.md).
    func addCorrectionRoutes(to router: Router<BasicRequestContext>) {
        let document = self.document
        let corrections = StudioCorrections(historyPath: today.historyPath)
        router.get("/api/day") { request, _ in
            let answer = corrections.day(await document.loaded(), date: request.uri.queryParameters["date"].map(String.init))
            return StudioResponse.json(answer.body, status: answer.status)
        }
        let writes: [(String, @Sendable (StudioCorrections, LoadedRoutine, String, [UInt8]) -> StudioToday.Answer)] = [
            ("/api/correct", { $0.correct($1, path: $2, body: $3) }),
            ("/api/correct/undo", { c, loaded, _, body in c.undo(loaded, body: body) }),
            ("/api/run/delete", { c, loaded, _, body in c.deleteRun(loaded, body: body) }),
            ("/api/run/restore", { c, loaded, _, body in c.restoreRun(loaded, body: body) }),
        ]
        for (path, handle) in writes {
            router.post(RouterPath(path)) { request, _ in
                let body = try await request.body.collect(upTo: 1 << 16)
                let answer = handle(corrections, await document.loaded(), absolutePath(document.path), Array(buffer: body))
                // Every open page (and this one) hears of the change at once.
                await document.reloadHistoryIfChanged()
                return StudioResponse.json(answer.body, status: answer.status)
            }
        }
    }
}
