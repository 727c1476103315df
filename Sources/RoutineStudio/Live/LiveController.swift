import Hummingbird
import NIOCore
import ServiceLifecycle

/// The live channel: GET /api/live, server-sent events of each new version of the routine
/// and each change to the history (``LiveEvent``).
struct LiveController<Context: RequestContext> {
    let document: StudioDocument

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self).get("live", use: live)
    }

    /// A plain GET under the same rules as every other request.
    @Sendable func live(_ request: Request, context: Context) async throws -> Response {
        let events = await document.listen()
        let first = await document.version
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 500\n\ndata: \(LiveEvent.version(first).json)\n\n"))
                for await event in events {
                    try await writer.write(ByteBuffer(string: event.message))
                }
                try await writer.finish(nil)
            })
    }
}

/// The open live channels, ended when the studio shuts down: each would hold a graceful
/// shutdown forever.
struct LiveChannels: Service {
    let document: StudioDocument

    func run() async throws {
        // Cancelled or told to shut down: the channels end either way.
        try? await gracefulShutdown()
        await document.closeListeners()
    }
}

/// The watch on the routine's file and folder, and on the history, for as long as the studio
/// runs (``StudioDocument/watch(every:)``).
struct DocumentWatch: Service {
    let document: StudioDocument

    func run() async throws {
        await cancelWhenGracefulShutdown { await document.watch() }
    }
}
