import Hummingbird
import RoutineHistory
import RoutineKit

extension StudioServer {
    /// The routes of your days: GET /api/stats (docs/studio.md).
    func addDaysRoutes(to router: Router<BasicRequestContext>) {
    }
}
