import Hummingbird
import RoutineHistory
import RoutineKit

extension StudioServer {
    /// The routes of a run in the browser: POST /api/run/start, POST /api/run/answer, GET /api/run/{id} (docs/studio.md).
    func addRunRoutes(to router: Router<BasicRequestContext>) {
    }
}
