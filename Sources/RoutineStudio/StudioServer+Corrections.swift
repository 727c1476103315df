import Hummingbird
import RoutineHistory
import RoutineKit

extension StudioServer {
    /// The routes of a day and its corrections: GET /api/day, POST /api/correct, POST /api/correct/undo (docs/studio.md).
    func addCorrectionRoutes(to router: Router<BasicRequestContext>) {
    }
}
