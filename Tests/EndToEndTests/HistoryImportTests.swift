import Foundation
import Testing

/// `history import` keeps or refuses every byte and value: strings whole or refused, CR LF
/// read as LF, counts and values checked by the runner's rules, times only in the form export
/// writes, and the file read as a stream.
@Suite(.serialized)
struct HistoryImportTests {
    /// One exported run of a routine with a target, as a JSON Lines line (no line end).
    static let exported: String = {
        let history = freshHistoryPath()
        let dir = try! temporaryDirectory()
        let routine = dir.appendingPathComponent("m.rt").path
        try! "routine \"M\"\nhabit a \"A\" target 8 glasses -> q\nquestion q \"Q?\"\n  \"Yes\"\n  \"No\"\n"
            .write(toFile: routine, atomically: true, encoding: .utf8)
        _ = try! execute(["run", routine, "--history", history, "--date", "2026-11-20", "--answers", "-"], stdin: "3\n2\n")
        return try! execute(["history", "export", "--history", history]).stdout.trimmingCharacters(in: .newlines)
    }()

    func importing(_ text: String) throws -> (Execution, String) {
        let file = try temporaryDirectory().appendingPathComponent("runs.jsonl").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let history = freshHistoryPath()
        return (try execute(["history", "import", file, "--history", history]), history)
    }

    @Test func crlfLineEndsAreReadAsLF() throws {
        let line = Self.exported
        #expect(line.contains("\"value\":3") && line.contains("\"index\":2"), "\(line)")
        let (result, history) = try importing("\r\n" + line + "\r\n\r\n" + line.replacingOccurrences(of: "2026-11-20", with: "2026-11-21") + "\r\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("imported 2 runs"), "\(result.stderr)")
        #expect(try execute(["history", "export", "--history", history]).stdout.hasPrefix(line + "\n"))
    }

    @Test func exportThenImportThenExportIsByteForByte() throws {
        let (result, history) = try importing(Self.exported + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try execute(["history", "export", "--history", history]).stdout == Self.exported + "\n")
    }

    static let refusals: [(String, String, String, String)] = [
        ("NUL in the routine", #""routine":"M""#, #""routine":"Morn\u0000ing""#, "'routine' holds a NUL character"),
        ("NUL in a title", #""title":"A""#, #""title":"A\u0000B""#, "step 1: 'title' holds a NUL character"),
        ("NUL in an option", #""option":"No""#, #""option":"N\u0000o""#, "step 2: 'option' holds a NUL character"),
        ("a step of 1.5", #""step":1,"#, #""step":1.5,"#, "step 1: 'step' must be a whole number"),
        ("a step of 2^63 + 5", #""step":1,"#, #""step":9223372036854775813,"#, "step 1: 'step' must be a whole number"),
        ("a step as text", #""step":1,"#, #""step":"1","#, "step 1: 'step' must be a whole number"),
        ("an index of 2^63 + 5", #""index":2"#, #""index":9223372036854775813"#, "step 2: 'index' must be a whole number"),
        ("a negative value", #""value":3"#, #""value":-5"#, "step 1: 'value' must be a number from 0 to 1000000000"),
        ("a value of 1e300", #""value":3"#, #""value":1e300"#, "step 1: 'value' must be a number from 0 to 1000000000"),
        ("a target of 0", #""target":8"#, #""target":0"#, "step 1: 'target' must be a number above 0"),
        ("negative seconds", #""seconds":"#, #""seconds":-1,"x":"#, "step 1: 'seconds' must be a number of seconds from 0"),
        ("a second of 60", #""started":"2026-"#, #""started":"2026-11-20T06:59:60.000Z","x":"2026-"#, "'started' is not a UTC time"),
        ("no milliseconds", #""started":"2026-"#, #""started":"2026-11-20T06:59:00Z","x":"2026-"#, "'started' is not a UTC time"),
        ("a signed offset", #""utcOffset":"+00:00""#, #""utcOffset":"+-1:-5""#, "'utcOffset' is not an offset"),
        ("a negative zero offset", #""utcOffset":"+00:00""#, #""utcOffset":"-00:00""#, "'utcOffset' is not an offset"),
        (
            "a date before 1900", #""date":"2026-11-20""#, #""date":"0000-01-01""#,
            "'date' '0000-01-01' is outside the years routine supports, 1900 to 2199"
        ),
        (
            "a date after 2199", #""date":"2026-11-20""#, #""date":"2200-01-01""#,
            "'date' '2200-01-01' is outside the years routine supports, 1900 to 2199"
        ),
    ]

    @Test(arguments: refusals)
    func aValueNoRunCouldRecordIsRefused(_ name: String, _ from: String, _ to: String, _ reason: String) throws {
        let line = Self.exported
        try #require(line.contains(from), "\(name): the exported line has no \(from)")
        let (result, history) = try importing(line.replacingOccurrences(of: from, with: to) + "\n")
        #expect(result.status == 1, "\(name)")
        #expect(result.stderr.contains("error[E010]: ") && result.stderr.contains("line 1: " + reason), "\(name): \(result.stderr)")
        #expect(try execute(["history", "export", "--history", history]).stdout == "", "\(name): something was imported")
    }

    /// Peak memory of an import of `blank` bytes of empty lines and one run, in kilobytes.
    func peakMemory(blank: Int) throws -> Int {
        let file = try temporaryDirectory().appendingPathComponent("blank.jsonl")
        var bytes = [UInt8](repeating: 0x0A, count: blank)
        bytes += Array((Self.exported + "\r\n").utf8)
        try Data(bytes).write(to: file)
        let script = """
            import resource, subprocess, sys
            done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let result = try shell("python3 -c '\(script)' \"$ROUTINE\" history import '\(file.path)' --history '\(freshHistoryPath())'")
        let fields = result.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(fields.count == 2 && fields[0] == 0, "\(result.stdout) \(result.stderr)")
        return fields[1]
    }

    /// Memory about one line: four times the blank lines cost no more than a small fraction
    /// of the bytes added (reading the file whole would cost all of them, and more).
    @Test func blankLinesCostNoMemory() throws {
        let n = 4 << 20
        let small = try peakMemory(blank: n)
        let large = try peakMemory(blank: 4 * n)
        #expect(large - small < 3 * n / 1024 / 4, "N: \(small) KB, 4N: \(large) KB")
    }
}
