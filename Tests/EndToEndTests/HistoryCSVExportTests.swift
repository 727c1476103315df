import Foundation
import Testing

/// `history export --format csv` writes a text that starts like a formula so that a
/// spreadsheet reads it as text (OWASP's advice against CSV injection), and leaves any other
/// text, and the fields routine writes itself, as they are.
@Suite(.serialized)
struct HistoryCSVExportTests {
    /// A log whose routine, title and unit are `text`, as JSON Lines.
    static func run(_ text: String) -> String {
        let json = String(decoding: try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
        return
            #"{"date":"2026-11-20","routine":\#(json),"result":"completed","reachedEnd":true,"started":"2026-11-20T06:00:00.000Z","ended":"2026-11-20T06:01:00.000Z","utcOffset":"-05:30","path":"/p.rt","sourceHash":"h","kind":"log","steps":[{"step":1,"node":"a","kind":"habit","title":\#(json),"result":"done","value":3,"target":8,"unit":\#(json),"at":"2026-11-20T06:00:30.000Z","seconds":null}]}"#
    }

    static let cells: [(String, String)] = [
        ("=HYPERLINK(\"http://x\",\"y\")", #""'=HYPERLINK(""http://x"",""y"")""#),
        ("+1+1", #""'+1+1""#),
        ("-2+3", #""'-2+3""#),
        ("@SUM(A1)", #""'@SUM(A1)""#),
        ("\tx", "\"'\tx\""),
        ("\rx", "\"'\rx\""),
        ("a=b", "a=b"),
        ("Drink, water", #""Drink, water""#),
    ]

    @Test(arguments: cells)
    func aCellThatStartsLikeAFormulaIsText(_ text: String, _ cell: String) throws {
        let file = try temporaryDirectory().appendingPathComponent("runs.jsonl")
        try Data((Self.run(text) + "\n").utf8).write(to: file)
        let history = freshHistoryPath()
        let imported = try execute(["history", "import", file.path, "--history", history])
        #expect(imported.status == 0, "\(imported.stderr)")
        let csv = try execute(["history", "export", "--format", "csv", "--history", history])
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        try #require(rows.count == 2, "\(csv.stdout)")
        // The routine, the title and the unit, each as the cell; the offset as routine wrote it.
        #expect(
            rows[1]
                == "2026-11-20,\(cell),completed,true,2026-11-20T06:00:00.000Z,2026-11-20T06:01:00.000Z,-05:30,/p.rt,h,1,a,habit,\(cell),done,3,8,\(cell),,,2026-11-20T06:00:30.000Z,,log",
            "\(rows[1])")
    }
}
