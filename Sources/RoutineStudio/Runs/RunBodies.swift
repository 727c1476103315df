import RoutineKit

/// A `POST /api/run/start` body: `{date?, resume?, fresh?, holder?}`.
struct RunStartBody: RequestBody {
    var date: CalendarDate
    var mode: BrowserRuns.Mode
    var holder: String?

    static let members: Set<String> = ["date", "resume", "fresh", "holder"]
    static let name = "a run's start"

    init(_ members: BodyMembers) throws(StudioError) {
        date = try members.optionalDate("date") ?? .today()
        switch (try members.optionalBool("resume") ?? false, try members.optionalBool("fresh") ?? false) {
        case (true, true): throw .malformed("resume and fresh contradict each other: choose one")
        case (true, _): mode = .resume
        case (_, true): mode = .fresh
        default: mode = .ask
        }
        holder = try? members.optionalString("holder")
    }
}

/// A `POST /api/run/take` body: `{run}`.
struct RunTakeBody: RequestBody {
    var run: Int64

    static let members: Set<String> = ["run"]
    static let name = "a take-over"

    init(_ members: BodyMembers) throws(StudioError) { run = try members.runNumber() }
}

/// A `POST /api/run/answer` body: `{run, answer, holder?, seconds?}`; `seconds` is what the
/// page's countdown measured for the step.
struct RunAnswerBody: RequestBody {
    var run: Int64
    var answer: String
    var holder: String?
    var seconds: Double?

    static let members: Set<String> = ["run", "answer", "holder", "seconds"]
    static let name = "an answer"

    init(_ members: BodyMembers) throws(StudioError) {
        run = try members.runNumber()
        guard let answer = try? members.optionalString("answer") else {
            throw .malformed("'answer' must be a string: d, s, b, q, an option, or a number")
        }
        self.answer = answer
        holder = try? members.optionalString("holder")
        seconds = try members.optionalNumber("seconds")
        try LogBody.check(value: nil, seconds: seconds)
    }
}

/// A `POST /api/run/delete` or `/api/run/restore` body: `{run}`.
struct RunDeletionBody: RequestBody {
    var run: Int64

    static let members: Set<String> = ["run"]
    static let name = "a run's deletion"

    init(_ members: BodyMembers) throws(StudioError) { run = Int64(try members.int("run")) }
}

extension BodyMembers {
    /// The run a request is about.
    func runNumber() throws(StudioError) -> Int64 {
        guard let run = try? int("run") else { throw .malformed("'run' must be a run's number") }
        return Int64(run)
    }
}
