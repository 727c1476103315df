import Hummingbird

/// The page: GET / and its files, built into the binary (``StudioResponse/assets``).
struct PageController<Context: RequestContext> {
    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/") { _, _ in StudioResponse.asset("index.html") }
            .get("favicon.ico") { _, _ in Response(status: .noContent) }
            // The page's files keep their folders ("/today/today.js"); nothing else is served.
            .get("**") { request, _ in
                StudioResponse.asset(String(request.uri.path.dropFirst())) ?? StudioResponse.text("not found", status: .notFound)
            }
    }
}
