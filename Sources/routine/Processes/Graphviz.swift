import ArgumentParser
import RoutineKit

/// Renders DOT into an image file for `graph -o x.svg`, reporting a failure and exiting.
enum Graphviz {
    static func render(_ dot: UnsafeBufferPointer<UInt8>, as kind: String, to output: String, colors: Bool) throws {
        let (diagnostic, missing) = GraphvizRenderer.render(dot, as: kind, to: output)
        guard let diagnostic else { return }
        report(diagnostic, colors: colors)
        throw missing ? Exit.programMissing : Exit.outputFailed
    }
}
