import RoutineKit

/// A JSON-RPC error answer, with the codes JSON-RPC 2.0 and LSP 3.17 define.
public struct ResponseError: Error, Sendable, Equatable {
    public var code: Int
    public var message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    public static func parseError(_ message: String) -> ResponseError { .init(code: -32700, message: message) }
    public static func invalidRequest(_ message: String) -> ResponseError { .init(code: -32600, message: message) }
    public static func methodNotFound(_ method: String) -> ResponseError {
        .init(code: -32601, message: "unknown method '\(method)'")
    }
    public static func invalidParams(_ message: String) -> ResponseError { .init(code: -32602, message: message) }
    public static func internalError(_ message: String) -> ResponseError { .init(code: -32603, message: message) }
    public static let serverNotInitialized = ResponseError(code: -32002, message: "the server has not been initialized")
    public static func requestFailed(_ message: String) -> ResponseError { .init(code: -32803, message: message) }
    public static let requestCancelled = ResponseError(code: -32800, message: "the request was cancelled")

    var json: JSON { ["code": JSON(code), "message": .string(message)] }
}

/// A request's ID: a number or a string, kept as sent.
public enum RequestID: Hashable, Sendable {
    case number(Int)
    case string(String)

    init?(_ json: JSON) {
        if let n = json.int { self = .number(n) } else if let s = json.string { self = .string(s) } else { return nil }
    }

    var json: JSON {
        switch self {
        case .number(let n): JSON(n)
        case .string(let s): .string(s)
        }
    }
}

/// Messages the server sends.
enum Outgoing {
    static func response(_ id: RequestID?, result: JSON) -> JSON {
        ["jsonrpc": "2.0", "id": id?.json ?? .null, "result": result]
    }

    static func error(_ id: RequestID?, _ error: ResponseError) -> JSON {
        ["jsonrpc": "2.0", "id": id?.json ?? .null, "error": error.json]
    }

    static func notification(_ method: String, _ params: JSON) -> JSON {
        ["jsonrpc": "2.0", "method": .string(method), "params": params]
    }

    static func request(_ id: Int, _ method: String, _ params: JSON) -> JSON {
        ["jsonrpc": "2.0", "id": JSON(id), "method": .string(method), "params": params]
    }
}
