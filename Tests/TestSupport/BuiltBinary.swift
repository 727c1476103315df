import Foundation

/// The executables SwiftPM builds beside the test bundle, for the suites that run them.
public enum BuiltBinary {
    /// The package root, for the example routines and fixtures.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The built `routine`.
    public static let routine = url(of: "routine")

    /// The executable `name` in the build folder: SwiftPM puts the test bundle and the
    /// products side by side, and XCTest and Swift Testing start the bundle from different places.
    public static func url(of name: String) -> URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent(name),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }
}
