import Testing

@testable import RoutineLanguageServer

/// The drawing's path beside a document is found by bytes: a slash or a dot followed by a
/// combining mark is one Character, and must still count as a slash or a dot.
struct DrawingPathTests {
    @Test(arguments: [
        ("plain", "/home/a/morning.rt", "/home/a/morning.svg"),
        ("no extension", "/home/a/morning", "/home/a/morning.svg"),
        ("a dot in a folder", "/home/a.b/morning", "/home/a.b/morning.svg"),
        ("a name starting with a combining mark", "/a.b/\u{30C}x", "/a.b/\u{30C}x.svg"),
        ("a combining mark after the dot", "/d/n.\u{30C}rt", "/d/n.svg"),
        ("a hidden file", "/d/.rt", "/d/.rt.svg"),
    ])
    func theDrawingIsBesideTheDocument(_ name: String, _ path: String, _ drawing: String) {
        #expect(LanguageServer.replacingExtension(of: path, with: "svg") == drawing, "\(name)")
    }
}
