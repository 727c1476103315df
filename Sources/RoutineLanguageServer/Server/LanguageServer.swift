import RoutineKit

/// The language server's state and its answers: one message in, any number of messages out
/// through `send`. It does no I/O of its own, so tests drive it directly; ``ServerLoop``
/// connects it to standard input and output.
///
/// Messages are handled one at a time, in order, on one thread. Requests that may take long
/// (ways through a routine, rendering a graph) work on a ``Snapshot`` on another thread, so
/// that edits and quick requests go on meanwhile.
public final class LanguageServer: @unchecked Sendable {
    public typealias Send = @Sendable (JSON) -> Void

    let send: Send
    /// Runs a slow request's work; tests run it at once.
    let background: @Sendable (@escaping @Sendable () -> Void) -> Void
    var documents: [String: Snapshot] = [:]
    /// Open test files (`.rt.test`), kept apart: they are not routines.
    var testDocuments: [String: ScenarioSnapshot] = [:]
    var encoding = PositionEncoding.utf16
    var initialized = false
    var shuttingDown = false
    /// Set by `exit`: 0 after `shutdown`, 1 without.
    public private(set) var exitCode: Int32?
    /// Where diagnostic codes are explained (grammar.md's table), if known.
    var documentation: String?
    /// Requests under way on other threads, and whether each has been cancelled.
    let inFlight = Locked([RequestID: Bool]())
    let nextRequestID = Locked(0)
    /// Whether the client opens documents the server asks it to (`window/showDocument`).
    var canShowDocuments = false

    public init(
        documentation: String? = nil, send: @escaping Send,
        background: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() }
    ) {
        self.documentation = documentation
        self.send = send
        self.background = background
    }

    /// Handles one message body as read from the input.
    public func handle(body: [UInt8]) {
        let message: JSON
        do { message = try JSONParser.parse(body) } catch {
            reject(error)
            return
        }
        handle(message)
    }

    /// Answers a message that is not JSON: it has no ID to answer to, so the error's is null.
    func reject(_ failure: JSONParser.Failure) {
        send(Outgoing.error(nil, .parseError("the message is not JSON: \(failure.message) at byte \(failure.offset)")))
    }

    public func handle(_ message: JSON) {
        guard case .object = message else {
            send(Outgoing.error(nil, .invalidRequest("a message must be a JSON object")))
            return
        }
        let id = message["id"].flatMap(RequestID.init)
        guard let method = message["method"]?.string else {
            // A response to a request of ours (showDocument): nothing waits on it.
            if message["result"] != nil || message["error"] != nil { return }
            send(Outgoing.error(id, .invalidRequest("a message must have a method")))
            return
        }
        let params = message["params"] ?? .null
        let isRequest = message["id"] != nil
        if isRequest, id == nil {
            send(Outgoing.error(nil, .invalidRequest("a request ID must be a number or a string")))
            return
        }
        guard let id else {
            notify(method, params)
            return
        }
        do {
            if let result = try respond(method, params, id: id) { send(Outgoing.response(id, result: result)) }
        } catch {
            send(Outgoing.error(id, error))
        }
    }

    /// Answers a request; nil when the answer is sent later, from another thread.
    private func respond(_ method: String, _ params: JSON, id: RequestID) throws(ResponseError) -> JSON? {
        if method == "initialize" { return initialize(params) }
        guard initialized else { throw .serverNotInitialized }
        if shuttingDown { throw .invalidRequest("the server is shutting down") }
        if let uri = params["textDocument"]?["uri"]?.string, let test = testDocuments[uri] {
            // A test file has completion; every other request about one has no answer.
            return method == "textDocument/completion" ? try testCompletion(test, params) : .null
        }
        switch method {
        case "shutdown":
            shuttingDown = true
            return .null
        case "textDocument/definition": return try definition(params)
        case "textDocument/references": return try references(params)
        case "textDocument/documentHighlight": return try highlights(params)
        case "textDocument/prepareRename": return try prepareRename(params)
        case "textDocument/rename": return try rename(params)
        case "textDocument/completion": return try completion(params)
        case "textDocument/documentSymbol": return try documentSymbols(params)
        case "textDocument/foldingRange": return try foldingRanges(params)
        case "textDocument/formatting": return try formatting(params)
        case "textDocument/semanticTokens/full": return try semanticTokens(params)
        case "textDocument/codeAction": return try codeActions(params)
        case "textDocument/hover":
            let (snapshot, offset) = try located(params)
            return later(id) { self.hover(snapshot, at: offset) }
        case "textDocument/codeLens":
            let snapshot = try document(params)
            return later(id) { self.codeLenses(snapshot) }
        case "routine/graph":
            let snapshot = try document(params)
            let format = params["format"]?.string ?? "dot"
            guard format == "dot" || format == "mermaid" else { throw .invalidParams("format must be 'dot' or 'mermaid'") }
            return later(id) { self.graph(snapshot, mermaid: format == "mermaid") }
        case "workspace/executeCommand": return try executeCommand(params, id: id)
        default: throw .methodNotFound(method)
        }
    }

    private func notify(_ method: String, _ params: JSON) {
        switch method {
        case "initialized": break
        case "exit": exitCode = shuttingDown ? 0 : 1
        case "$/cancelRequest":
            if let id = params["id"].flatMap(RequestID.init) {
                inFlight.withLock { if $0[id] != nil { $0[id] = true } }
            }
        case "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose":
            guard initialized, !shuttingDown else { return }
            do { try documentChanged(method, params, publish: true) } catch { log("\(method): \(error.message)") }
        default:
            // Other notifications, `$/` ones included, may be ignored (LSP 3.17).
            break
        }
    }

    /// Runs `work` on another thread and sends its answer, unless the request was cancelled.
    func later(_ id: RequestID, _ work: @escaping @Sendable () throws(ResponseError) -> JSON) -> JSON? {
        inFlight.withLock { $0[id] = false }
        background { [self] in
            let answer: JSON
            do throws(ResponseError) { answer = Outgoing.response(id, result: try work()) } catch { answer = Outgoing.error(id, error) }
            let cancelled = inFlight.withLock { $0.removeValue(forKey: id) ?? false }
            send(cancelled ? Outgoing.error(id, .requestCancelled) : answer)
        }
        return nil
    }

    /// Writes to standard error: standard output carries only the protocol.
    func log(_ text: String) {
        var line = Array("routine lsp: \(text)\n".utf8)
        _ = line.withUnsafeMutableBufferPointer { writeFully(2, UnsafeBufferPointer($0)) }
    }

    func document(_ params: JSON) throws(ResponseError) -> Snapshot {
        guard let uri = params["textDocument"]?["uri"]?.string else { throw .invalidParams("the request names no textDocument.uri") }
        guard let snapshot = documents[uri] else { throw .invalidParams("document '\(uri)' is not open") }
        return snapshot
    }

    /// The document and the byte offset of the request's `position`.
    func located(_ params: JSON) throws(ResponseError) -> (Snapshot, Int) {
        let snapshot = try document(params)
        guard let position = Position(params["position"]) else { throw .invalidParams("the request has no valid position") }
        return (snapshot, try snapshot.positions.offset(position))
    }
}
