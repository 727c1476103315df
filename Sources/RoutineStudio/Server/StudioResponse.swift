import HTTPTypes
import Hummingbird

/// Answers of the studio's kinds: the page's embedded files, JSON and plain text.
enum StudioResponse {
    /// One file of the page, built into the binary: no file beside it is ever read. The table,
    /// `assets`, is generated from `Page/` by the PageAssets plugin, keyed by the file's path in
    /// that folder ("today/today.js"), with the content type its extension names.
    struct Asset: Sendable {
        let type: String
        let bytes: [UInt8]
    }

    /// The page's file at `path` (without its leading slash); nil for anything not in `Page/`.
    static func asset(_ path: String, status: HTTPResponse.Status = .ok) -> Response? {
        guard let asset = assets[path] else { return nil }
        return Response(
            status: status, headers: [.contentType: asset.type],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }

    /// JSON with where the answer's time went (`StudioPhases`), as a `Server-Timing` header.
    static func json(_ bytes: [UInt8], phases: StudioPhases) -> Response {
        var response = json(bytes)
        if !phases.phases.isEmpty { response.headers[HTTPField.Name("Server-Timing")!] = phases.header }
        return response
    }

    static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func text(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}
