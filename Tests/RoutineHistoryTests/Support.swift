import Foundation
import RoutineHistory
import RoutineKit
import Testing

/// A fresh path for a history file, in a folder of its own.
func temporaryHistoryPath() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("routine-history-tests-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.appendingPathComponent("history.sqlite").path
}

/// A valid routine from `.rt` text.
func routine(_ source: String) -> Routine {
    let loaded = RoutineLoader.load(SourceFile(name: "test.rt", text: source), format: .rt)
    precondition(!loaded.hasErrors, "test routine has errors: \(loaded.diagnostics.map(\.message))")
    return loaded.routine
}

/// The morning routine of the README, shortened: a habit, a question with a branch, a
/// habit on Mondays only, a numeric habit.
let morningSource = """
    routine "Morning"
    habit water "Water" -> mood
    question mood "Mood?"
      "Good" -> run
      "Bad" -> rest
      then -> drink
    habit run "Run" for 30m on mon -> drink
    habit rest "Rest" for 10m
    habit drink "Drink" target 8 glasses
    """

let morning = routine(morningSource)

/// Runs `routine` on `date` with `decisions`, recording every event in `store`.
@discardableResult
func recordRun(
    _ store: HistoryStore, _ routine: Routine, date: String = "2026-11-23", decisions: [RunInput], end: RunResult? = nil
) throws -> (RoutineRun, Int64) {
    let day = CalendarDate(date)!
    var run = RoutineRun(routine: routine, date: day)
    let recorder = try RunRecorder.start(store, routine: routine, path: "/r/test.rt", source: [], date: day, onFailure: { Issue.record("\($0)") })
    recorder.observe(.start, run)
    for input in decisions {
        switch input {
        case .decision(let decision):
            run.decide(decision)
            recorder.observe(.record(run.records[run.records.count - 1]), run)
        case .back:
            if let node = run.back() { recorder.observe(.back(node: node), run) }
        default: break
        }
    }
    if let end { recorder.observe(.end(end), run) }
    return (run, recorder.runID)
}
