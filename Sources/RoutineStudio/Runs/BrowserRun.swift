import RoutineHistory
import RoutineKit

/// One run in the browser, kept between answers: the engine of `routine run` (``RunStepper``),
/// its history (``RunHistory``: the recorder commits each step before the answer returns), the
/// step timer, and the page that holds it.
final class BrowserRun {
    /// The history's run id; a number of the studio's own when nothing is recorded.
    let id: Int64
    var stepper: RunStepper
    var history: RunHistory
    var timer: StepTimer
    /// The page that may answer: the holder id it got from start or take.
    var holder: String
    /// Grows with each take-over, so that a page can tell it no longer holds the run.
    var claim = 1
    /// Where the stored run stood after this run's last write; another value means it was
    /// taken up elsewhere (a terminal's `run --resume`).
    var stamp: RunStamp?
    /// What the history and the runner said in passing, for the next answer.
    let said: Said

    final class Said {
        var notes: [String] = []
    }

    var isRecorded: Bool { history.recorder != nil }

    init(id: Int64, run: RoutineRun, history: RunHistory, said: Said) {
        self.id = id
        // A person reads what is left, as at a terminal.
        var run = run
        run.trackProgress()
        stepper = RunStepper(run, interactive: true)
        self.history = history
        self.said = said
        timer = StepTimer(measures: true, kept: history.resumed?.keptSeconds ?? [])
        holder = Self.newHolder()
    }

    static func newHolder() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(generator.next() as UInt64, radix: 16).leftPadded(to: 16)
    }

    /// The events of one request, in the encoding of `run --json`, and what the page shows next.
    struct Events {
        var json: [JSONValue] = []
        var prompt: JSONValue?
        var refusal: String?
        var help: Bool = false
    }

    /// Starts the run: its heading, the steps it resumes with, and the first question.
    func begin() -> Events {
        var events = Events()
        let history = self.history
        stepper.begin(emit: { event, run in self.observe(event, run, into: &events) }, doneMeanwhile: { history.doneMeanwhile($0) })
        stamp = readStamp()
        return events
    }

    /// Takes one answer, in the words of `run --answers`; `timed`: the page's countdown of the
    /// step, which is then its time, as the terminal's countdown's is.
    func take(_ answer: String, timed: Double? = nil) -> Events {
        var events = Events()
        if let timed { timer.timed(timed) }
        let history = self.history
        stepper.take(.line(answer), emit: { event, run in self.observe(event, run, into: &events) }, doneMeanwhile: { history.doneMeanwhile($0) })
        stamp = readStamp()
        return events
    }

    /// Whether the stored run is as this run left it.
    var isInStep: Bool {
        guard isRecorded else { return true }
        return readStamp() == stamp
    }

    private func readStamp() -> RunStamp? {
        guard let store = history.store, let recorder = history.recorder else { return nil }
        return try? store.stamp(of: recorder.runID)
    }

    private func observe(_ event: RunEvent, _ run: RoutineRun, into events: inout Events) {
        timer.observe(event, run)
        // Committed before the answer returns: what the page shows is recorded.
        history.recorder?.observe(event, run, seconds: timer.seconds)
        if let json = event.json(run, elapsed: timer.total) { events.json.append(json) }
        if case .start = event, let resumed = history.resumed { events.json.append(resumed.json) }
        if let prompt = event.promptJSON(run) { events.prompt = prompt }
        switch event {
        case .invalid(_, _, let message): events.refusal = message
        case .help: events.help = true
        default: break
        }
    }

    /// The run as `GET /api/run/{id}` shows it; `holder` only to the page that holds it.
    func json(events: Events?, holder: String?) -> JSONValue {
        BrowserRunJSON.state(
            id: id, run: stepper.run, recorded: isRecorded, result: stepper.result, prompt: events?.prompt ?? currentPrompt(),
            events: events?.json ?? [], held: stepper.result == nil, claim: claim, holder: holder,
            seconds: timer.seconds, notes: said.notes)
    }

    /// What the run waits for now, asked afresh.
    func currentPrompt() -> JSONValue? {
        switch stepper.waiting {
        case .node(let node): RunEvent.prompt(node: node, step: stepper.run.step, again: false).promptJSON(stepper.run)
        case .confirmEnd: RunEvent.confirmEnd.promptJSON(stepper.run)
        case .finished: nil
        }
    }
}

/// The JSON of a run in the browser (docs/studio.md, "Run").
enum BrowserRunJSON {
    static func state(
        id: Int64, run: RoutineRun, recorded: Bool, result: RunResult?, prompt: JSONValue?, events: [JSONValue], held: Bool,
        claim: Int, holder: String?, seconds: some Sequence<Double?>, notes: [String]
    ) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("run", .int(Int(id))), ("routine", .string(run.routine.name)), ("date", .string(run.date.description)),
            ("recorded", .bool(recorded)), ("result", result.map { .string($0.rawValue) } ?? .null),
            ("held", .bool(held)), ("claim", .int(claim)),
        ]
        if let holder { members.append(("holder", .string(holder))) }
        members += [
            ("prompt", prompt ?? .null), ("events", .array(events)),
            ("steps", .array(run.records.compactMap { RunEvent.record($0).json(run) })),
            ("canGoBack", .bool(run.canGoBack)),
            ("summary", result.map { summary($0, run, seconds: seconds) } ?? .null),
            ("notes", .array(notes.map { .string($0) })),
        ]
        return .object(members)
    }

    /// The end event of `run --json`, with the summary's lines as `routine run` prints them.
    static func summary(_ result: RunResult, _ run: RoutineRun, seconds: some Sequence<Double?>) -> JSONValue {
        var timer = StepTimer(measures: false, kept: seconds)
        timer.catchUp(run)
        var transcript = RunTranscript(interactive: true, colors: false)
        transcript.measured = timer.seconds
        let text = transcript.render(.end(result), run, elapsed: timer.total).stdout
        let lines = text.split(separator: "\n").map { JSONValue.string(String($0.drop { $0 == " " })) }
        guard case .object(var members)? = RunEvent.end(result).json(run, elapsed: timer.total) else { return .null }
        members.append(("lines", .array(lines)))
        return .object(members)
    }
}
