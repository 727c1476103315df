import RoutineKit
import Testing

/// The one decoder of `file:` URIs: a path comes out only when the file system can take it
/// whole, byte for byte as the URI spells it.
struct FileURITests {
    @Test(arguments: [
        ("plain", "file:///home/a/morning.rt", "/home/a/morning.rt"),
        ("localhost", "file://localhost/home/a/m.rt", "/home/a/m.rt"),
        ("upper-case scheme and host", "FILE://LocalHost/m.rt", "/m.rt"),
        ("escaped space and letters", "file:///a%20b/%C3%A9t%c3%a9.rt", "/a b/été.rt"),
        ("escaped percent", "file:///100%25.rt", "/100%.rt"),
        ("no authority", "file:/home/a/m.rt", "/home/a/m.rt"),
    ])
    func aLocalAbsolutePathIsDecoded(_ name: String, _ uri: String, _ path: String) {
        #expect((try? FileURI.path(uri).get()) == path, "\(name)")
    }

    @Test(arguments: [
        ("NUL before the extension", "file:///tmp/victim%00.rt", "NUL"),
        ("NUL at the end", "file:///tmp/victim%00", "NUL"),
        ("raw NUL", "file:///tmp/victim\u{0}.rt", "NUL"),
        ("escaped slash", "file:///tmp/a%2Fb.rt", "'/'"),
        ("escaped slash, lower case", "file:///tmp/a%2fb.rt", "'/'"),
        ("one hex digit", "file:///tmp/a%0.rt", "hexadecimal"),
        ("percent at the end", "file:///tmp/a%", "hexadecimal"),
        ("not hex", "file:///tmp/a%zz.rt", "hexadecimal"),
        ("another host", "file://server/share/a.rt", "another machine"),
        ("relative", "file:a.rt", "absolute"),
        ("no path", "file://", "absolute"),
        ("host and no path", "file://localhost", "absolute"),
        ("another scheme", "untitled:Untitled-1", "not a file: URI"),
        ("not UTF-8", "file:///tmp/a%FF.rt", "UTF-8"),
        ("a query", "file:///tmp/a.rt?x=1", "query"),
        ("a fragment", "file:///tmp/a.rt#L1", "fragment"),
    ])
    func aURIThatNamesNoFileWholeIsRefused(_ name: String, _ uri: String, _ why: String) {
        guard case .failure(let refusal) = FileURI.path(uri) else {
            Issue.record("\(name): decoded to a path")
            return
        }
        #expect(refusal.reason.contains(why), "\(name): \(refusal.reason)")
        #expect(!refusal.reason.unicodeScalars.contains { $0.value < 0x20 }, "\(name): a control character shown raw")
    }

    @Test(arguments: ["/plain/path.rt", "/a b/été #1 100%.rt", "/x?y/\u{1F600}.yaml", "/\u{30C}share/a.rt"])
    func aPathGoesThereAndBackUnchanged(_ path: String) {
        #expect((try? FileURI.path(FileURI.uri(of: path)).get()) == path)
    }
}
