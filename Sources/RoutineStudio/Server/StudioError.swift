import HTTPTypes
import Hummingbird
import RoutineKit

/// Every refusal of the studio's API: its HTTP status, chosen where the refusal is made, and
/// what the page shows (the catalogue's code, the message and its notes), with what the page
/// needs beside it. The body is `{"error": {...}}` with the state or the run beside it.
struct StudioError: Error, HTTPResponseError {
    let status: HTTPResponse.Status
    /// The catalogue's code; nil for a run's refusal worded for its page alone.
    let code: DiagnosticCode?
    let message: String
    let notes: [String]
    let beside: Beside

    /// What the body carries beside the error.
    enum Beside: Sendable {
        case nothing
        /// The current state (the routine's, or the day's) as `state`.
        case state([UInt8])
        /// A run's members (``BrowserRunJSON``), the page's view of the run it refused.
        case run([(String, JSONValue)])
    }

    /// A diagnostic as the page shows it: without positions, which may be in a text the
    /// request would have made rather than the file's.
    init(_ status: HTTPResponse.Status, _ diagnostic: Diagnostic, state: [UInt8]? = nil) {
        self.status = status
        code = diagnostic.code
        message = diagnostic.message
        notes = diagnostic.notes.map(\.message)
        beside = state.map(Beside.state) ?? .nothing
    }

    /// A run's refusal; `run` is the run's JSON, whose members go beside the error.
    init(_ status: HTTPResponse.Status, message: String, run: JSONValue? = nil) {
        self.status = status
        code = nil
        self.message = message
        notes = []
        if case .object(let members)? = run { beside = .run(members) } else { beside = .nothing }
    }

    /// A request that is not one (a body, a query, a path): 400.
    static func malformed(_ reason: String) -> StudioError { StudioError(.badRequest, Diagnostic(.editRefused, reason, at: nil)) }

    /// A routine with errors has no day, run or statistics: `today`, `run` and `stats` refuse it too.
    static func unlessValid(_ loaded: LoadedRoutine) throws(StudioError) {
        if let error = loaded.diagnostics.first(where: { $0.severity == .error }) { throw StudioError(.unprocessableContent, error) }
    }

    var body: [UInt8] {
        var error: [(String, JSONValue)] = []
        if let code { error.append(("code", .string(code.rawValue))) }
        error.append(("message", .string(message)))
        if code != nil { error.append(("notes", .array(notes.map(JSONValue.string)))) }
        var out = ByteWriter()
        out.write("{\"error\":")
        JSONValue.object(error).write(to: &out)
        switch beside {
        case .nothing: break
        case .state(let state):
            // Spliced in as it is: a state is made once, as bytes.
            out.write(",\"state\":")
            state.withUnsafeBufferPointer { out.write(bytes: $0) }
        case .run(let members):
            for (key, value) in members {
                out.write(",")
                JSONValue.quote(key, into: &out)
                out.write(":")
                value.write(to: &out)
            }
        }
        out.write("}")
        return out.bytes
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        StudioResponse.json(body, status: status)
    }
}
