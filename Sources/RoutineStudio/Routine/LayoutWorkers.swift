import ServiceLifecycle

/// Graphviz's layout processes (``GraphvizWorker``), ended when the studio shuts down: a
/// layout under way holds the document, and every request waiting for it, for up to its
/// time limit.
struct LayoutWorkers: Service {
    func run() async throws {
        // Cancelled, as a test's studio is: the other studios of the process keep theirs.
        do { try await gracefulShutdown() } catch { return }
        GraphvizWorker.endAll()
    }
}
