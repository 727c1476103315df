import Hummingbird
import RoutineKit

/// The page: GET / and its files, built into the binary (``StudioResponse/assets``), and GET
/// /shell.json, the list of them the installed page's worker keeps (sw.js).
struct PageController<Context: RequestContext> {
    /// The page's files as the page asks for them, "/" first: every file of `Page/` but the
    /// worker itself and the pairing and revoked pages, which are not the page's.
    static var shell: [UInt8] {
        let own: Set<String> = ["index.html", "sw.js", "pairing/pair.html", "pairing/pair.js", "pairing/pair.css", "pairing/revoked.html"]
        let paths = ["/"] + StudioResponse.assets.keys.filter { !own.contains($0) }.sorted().map { "/" + $0 }
        var out = ByteWriter()
        JSONValue.array(paths.map { .string($0) }).write(to: &out)
        return out.bytes
    }

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/") { _, _ in StudioResponse.asset("index.html") }
            .get("favicon.ico") { _, _ in Response(status: .noContent) }
            .get("shell.json") { _, _ in StudioResponse.json(Self.shell) }
            // The page's files keep their folders ("/today/today.js"); nothing else is served.
            .get("**") { request, _ in
                StudioResponse.asset(String(request.uri.path.dropFirst())) ?? StudioResponse.text("not found", status: .notFound)
            }
    }
}
