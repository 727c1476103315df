import Foundation
import Testing

/// `history import --from loop` of Loop's CSV export as Loop writes it (``LoopExport``): its
/// words mapped, numeric habits' amounts kept, the habits' folders and the top-level file
/// checked against each other, once however often imported; what is not so is refused whole.
@Suite(.serialized)
struct LoopCSVImportTests {
    /// Seven habits of every kind, their days as Loop computes them (a 2-in-3 habit's days done
    /// by the frequency, one even after the export's day), notes with commas and quotes, a
    /// name with a comma and one whose folder loses its letters.
    static let export = LoopExport(
        habits: [
            LoopExport.Habit(
                name: "Meditate", question: "Did you meditate this morning?",
                entries: [("2024-03-01", 2, ""), ("2024-03-02", 2, ""), ("2024-03-03", 0, ""), ("2024-03-04", -1, "travel")]),
            LoopExport.Habit(
                name: "Wake up early", question: "Did you wake up before 6am?", numerator: 2, denominator: 3,
                entries: [
                    ("2024-03-01", 2, ""), ("2024-03-02", 0, "Sick"), ("2024-03-03", 1, "Forgot to do it, really"), ("2024-03-04", 2, ""),
                    ("2024-03-05", 1, "\"Vacation\""), ("2024-03-06", 1, ""),
                ]),
            LoopExport.Habit(
                name: "Water", numeric: true, question: "How many glasses?", description: "Sip, don't gulp\nall day", unit: "glasses",
                target: 8, entries: [("2024-03-01", 6500, ""), ("2024-03-02", 8000, ""), ("2024-03-03", 3, ""), ("2024-03-04", 0, "")]),
            LoopExport.Habit(name: "No smoking", numeric: true, unit: "cigarettes", atMost: true, target: 0, entries: [("2024-03-02", 0, "")]),
            LoopExport.Habit(name: "Read, slowly", entries: [("2024-03-05", 2, "")]),
            LoopExport.Habit(name: "Café ☕", denominator: 7, entries: [("2024-02-28", 2, "")]),
            LoopExport.Habit(name: "Old", archived: true, entries: [("2024-03-01", 2, "")]),
        ], today: "2024-03-05")

    /// Imports `folder` (or archive); TMPDIR is `dir/tmp`, where nothing may be left after.
    func importing(_ folder: String, in dir: URL, history: String, _ more: [String] = []) throws -> Execution {
        let tmp = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        return try execute(
            ["history", "import", "--from", "loop", folder, "--routine", "loop.rt", "--history", history] + more,
            environment: ["TMPDIR": tmp.path], in: dir)
    }

    @Test func loopsExportImportsWholeAndOnce() throws {
        let dir = try temporaryDirectory()
        try Self.export.write(to: dir.appendingPathComponent("Loop Habits CSV 2024-03-05"))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("Loop Habits CSV 2024-03-05").path).sorted()
        #expect(
            files == [
                "001 Meditate", "002 Wake up early", "003 Water", "004 No smoking", "005 Read slowly", "006 Caf", "007 Old", "Checkmarks.csv",
                "Habits.csv", "Scores.csv",
            ], "\(files)")
        let history = dir.appendingPathComponent("h.sqlite").path
        let result = try importing("Loop Habits CSV 2024-03-05", in: dir, history: history)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "6 habits, 11 days; 1 unknown day left out; 3 days only implied by a frequency left out; "
                    + "1 archived habit left out (--archived imports them); 4 day notes left out; 1 frequency approximated\n"),
            "\(result.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("loop.rt"), encoding: .utf8)
        for line in [
            "start -> meditate, wake-up-early, water, no-smoking, read-slowly, caf\n",
            "habit wake-up-early \"Wake up early\" 5 per week\n", "habit water \"Water\" target 8 glasses\n  note \"Sip, don't gulp\\nall day\"\n",
            "habit no-smoking \"No smoking\" target at most 0.001 cigarettes\n", "habit read-slowly \"Read, slowly\"\n",
            "habit caf \"Café ☕\" 1 per week\n",
        ] {
            #expect(text.contains(line), "\(line) in:\n\(text)")
        }
        #expect(try execute(["check", "loop.rt"], in: dir).status == 0)
        let export = try execute(["history", "export", "--history", history]).stdout
        let lines = export.split(separator: "\n")
        #expect(lines.count == 11, "\(export)")
        func day(_ date: String, _ node: String) -> String? {
            lines.first { $0.contains(#""date":"\#(date)""#) && $0.contains(#""node":"\#(node)""#) }.map(String.init)
        }
        for (date, node, result) in [
            ("2024-03-01", "meditate", #""result":"done""#), ("2024-03-02", "meditate", #""result":"done""#),
            ("2024-03-01", "wake-up-early", #""result":"done""#), ("2024-03-04", "wake-up-early", #""result":"done""#),
            ("2024-03-01", "water", #""result":"done","value":6.5,"target":8,"unit":"glasses""#),
            ("2024-03-02", "water", #""result":"done","value":8,"#), ("2024-03-03", "water", #""result":"skipped""#),
            ("2024-03-04", "water", #""result":"done","value":0,"#), ("2024-03-02", "no-smoking", #""result":"done","value":0,"#),
            ("2024-03-05", "read-slowly", #""result":"done""#), ("2024-02-28", "caf", #""result":"done""#),
        ] {
            #expect(day(date, node)?.contains(result) == true, "\(date) \(node): \(day(date, node) ?? "no log")")
        }
        for (date, node) in [
            ("2024-03-03", "meditate"), ("2024-03-04", "meditate"), ("2024-03-03", "wake-up-early"), ("2024-03-06", "wake-up-early"),
        ] {
            #expect(day(date, node) == nil, "\(date) \(node) was logged")
        }

        let again = try importing("Loop Habits CSV 2024-03-05", in: dir, history: history)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("imported 0 days into") && again.stderr.contains("11 were already there"), "\(again.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent("loop.rt"), encoding: .utf8) == text)
        #expect(try execute(["history", "export", "--history", history]).stdout == export)
    }

    /// Loop's export of one habit (from the habit's screen): every habit in Habits.csv, one
    /// folder, one column. The others become habits of the routine without days.
    @Test func anExportOfOneHabit() throws {
        let dir = try temporaryDirectory()
        var export = Self.export
        for k in export.habits.indices where k != 1 { export.habits[k].exported = false }
        try export.write(to: dir.appendingPathComponent("export"))
        #expect(
            try String(contentsOf: dir.appendingPathComponent("export/Checkmarks.csv"), encoding: .utf8).hasPrefix(
                "Date,Wake up early,\n2024-03-05,YES_AUTO,\n"))
        let history = dir.appendingPathComponent("h.sqlite").path
        let result = try importing("export", in: dir, history: history)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("6 habits, 2 days; 3 days only implied by a frequency left out;"), "\(result.stderr)")
    }

    struct Damage: CustomTestStringConvertible, Sendable {
        var name: String
        /// A file of the export and a text in it replaced by another; an empty file name removes the folder named by `from`.
        var file: String
        var from: String
        var to: String
        var code = "E031"
        var message: String
        var testDescription: String { name }
    }

    static let damages: [Damage] = [
        Damage(
            name: "a top-level day that differs from the habit's file", file: "Checkmarks.csv", from: "2024-03-04,UNKNOWN,",
            to: "2024-03-04,YES_MANUAL,",
            message: "Checkmarks.csv' line 3: 'Meditate' on 2024-03-04 is 'YES_MANUAL' here, but 'UNKNOWN' in '"),
        Damage(
            name: "a day the habit's file lacks", file: "002 Wake up early/Checkmarks.csv", from: "2024-03-04,YES_MANUAL,\n", to: "",
            message: "Checkmarks.csv' line 3: 'Wake up early' on 2024-03-04 is 'YES_MANUAL' here, but 'UNKNOWN' (no line of '"),
        Damage(
            name: "an amount that differs", file: "003 Water/Checkmarks.csv", from: "6500", to: "6000",
            message: "'Water' on 2024-03-01 is '6500' here, but '6000' in '"),
        Damage(
            name: "a habit's folder missing", file: "", from: "001 Meditate", to: "",
            message: "Checkmarks.csv' line 1: the column 'Meditate' has no folder of its days beside it"),
        Damage(
            name: "a column renamed", file: "Checkmarks.csv", from: "Date,Meditate,", to: "Date,Meditation,",
            message: "Checkmarks.csv' line 1: no column names 'Meditate', though the folder '001 Meditate' holds its days"),
        Damage(
            name: "a yes/no habit's value as a number", file: "001 Meditate/Checkmarks.csv", from: "2024-03-01,YES_MANUAL", to: "2024-03-01,2",
            message: "Checkmarks.csv' line 5: '2' is none of Loop's values (YES_MANUAL, YES_AUTO, NO, SKIP, UNKNOWN)"),
        Damage(
            name: "a word Loop never writes", file: "Checkmarks.csv", from: "2024-03-01,YES_MANUAL", to: "2024-03-01,DONE",
            message: "'DONE' is none of Loop's values"),
        Damage(
            name: "a date that is none", file: "Checkmarks.csv", from: "2024-03-03,NO,", to: "2024-03-0X,NO,",
            message: "Checkmarks.csv' line 4: '2024-03-0X' is not a date"),
        Damage(
            name: "a day left out of the top-level file", file: "Checkmarks.csv",
            from: "2024-03-03,NO,YES_AUTO,SKIP,UNKNOWN,UNKNOWN,UNKNOWN,UNKNOWN,\n",
            to: "", message: "Checkmarks.csv' line 4: 2024-03-02 is not the day before 2024-03-04: Loop writes every day, newest first"),
        Damage(
            name: "days out of order in a habit's file", file: "001 Meditate/Checkmarks.csv", from: "2024-03-03,NO", to: "2024-03-09,NO",
            message: "Checkmarks.csv' line 3: 2024-03-09 is not before 2024-03-04: Loop writes the days newest first"),
        Damage(
            name: "a type as a number", file: "Habits.csv", from: ",YES_NO,Did you meditate", to: ",0,Did you meditate",
            message: "Habits.csv' line 2: 'Type' is '0', not 'YES_NO' or 'NUMERICAL'"),
        Damage(
            name: "a target type as a number", file: "Habits.csv", from: "glasses,AT_LEAST,8.0", to: "glasses,0,8.0",
            message: "Habits.csv' line 4: 'Target Type' is '0', not 'AT_LEAST' or 'AT_MOST'"),
    ]

    /// Refused whole: both places named, no routine file, nothing in the history.
    @Test(arguments: damages)
    func aDamagedExportIsRefusedAndNothingWritten(_ c: Damage) throws {
        let dir = try temporaryDirectory()
        let folder = dir.appendingPathComponent("export")
        try Self.export.write(to: folder)
        if c.file.isEmpty {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(c.from))
        } else {
            let url = folder.appendingPathComponent(c.file)
            let text = try String(contentsOf: url, encoding: .utf8)
            try #require(text.contains(c.from), "\(c.name): \(c.file) has no \(c.from)")
            try Data(text.replacingOccurrences(of: c.from, with: c.to).utf8).write(to: url)
        }
        let history = dir.appendingPathComponent("h.sqlite").path
        let result = try importing("export", in: dir, history: history)
        #expect(result.status == 1, "\(c.name): \(result.stderr)")
        #expect(result.stderr.contains("error[\(c.code)]") && result.stderr.contains(c.message), "\(c.name): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("loop.rt").path), "\(c.name): the routine was written")
        #expect(try execute(["history", "export", "--history", history]).stdout == "", "\(c.name): something was imported")
    }

    /// Zips `folder` into `archive` as Loop's exporter does (Java's `ZipOutputStream`): its
    /// files in the order written, `Habits.csv` first and the top-level files last, no folder
    /// entries, each deflated with its sizes after it (written to a pipe, so that Python's
    /// `zipfile` cannot seek back either). `names` replaces the entries' names, when given.
    static func zip(_ folder: URL, to archive: URL, names: [String: String] = [:]) throws {
        let script = """
            import json, os, sys, zipfile
            folder, names = sys.argv[1], json.loads(sys.argv[2])
            habits = sorted(d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d)))
            order = ["Habits.csv"] + [h + "/" + f for h in habits for f in ("Scores.csv", "Checkmarks.csv")] + ["Scores.csv", "Checkmarks.csv"]
            with zipfile.ZipFile(sys.stdout.buffer, "w", zipfile.ZIP_DEFLATED) as z:
                for name in order:
                    if os.path.exists(os.path.join(folder, name)):
                        z.writestr(names.get(name, name), open(os.path.join(folder, name), "rb").read())
            """
        let renames = String(decoding: try JSONSerialization.data(withJSONObject: names), as: UTF8.self)
        let zipped = try shell(
            "python3 -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))' '\(folder.path)' '\(renames)' | cat > '\(archive.path)'")
        try #require(zipped.status == 0, "\(zipped.stderr)")
    }

    /// Loop's "Export as CSV" hands over a zip: imported as the folder it holds is, once.
    @Test func loopsZipImportsAsItsFolderDoes() throws {
        let dir = try temporaryDirectory()
        let folder = dir.appendingPathComponent("Loop Habits CSV 2024-03-05")
        try Self.export.write(to: folder)
        try Self.zip(folder, to: dir.appendingPathComponent("Loop Habits CSV 2024-03-05.zip"))
        let fromFolder = dir.appendingPathComponent("folder.sqlite").path
        #expect(try importing(folder.lastPathComponent, in: dir, history: fromFolder).status == 0)
        let routine = try String(contentsOf: dir.appendingPathComponent("loop.rt"), encoding: .utf8)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("loop.rt"))
        try FileManager.default.removeItem(at: folder)
        let history = dir.appendingPathComponent("h.sqlite").path
        let result = try importing("Loop Habits CSV 2024-03-05.zip", in: dir, history: history)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("6 habits, 11 days;"), "\(result.stderr)")
        #expect(
            try String(contentsOf: dir.appendingPathComponent("loop.rt"), encoding: .utf8)
                == routine.replacingOccurrences(of: "2024-03-05'", with: "2024-03-05.zip'"))
        let export = try execute(["history", "export", "--history", history]).stdout
        // The same days; only the routine's hash differs, its header naming the archive.
        func unhashed(_ text: String) -> String { text.replacing(/"sourceHash":"[^"]*"/, with: "") }
        #expect(unhashed(export) == unhashed(try execute(["history", "export", "--history", fromFolder]).stdout))
        #expect(export.split(separator: "\n").count == 11)
        let again = try importing("Loop Habits CSV 2024-03-05.zip", in: dir, history: history)
        #expect(again.stderr.contains("imported 0 days into") && again.stderr.contains("11 were already there"), "\(again.stderr)")
        #expect(try execute(["history", "export", "--history", history]).stdout == export)
        // Nothing unpacked is left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("tmp").path)
        #expect(left.isEmpty, "\(left)")
    }

    /// An archive that is not a whole Loop export, each refused whole, with the place named.
    enum ZipDamage: String, CaseIterable {
        case cut, escapingName, deepName, flippedByte, badDay
    }

    @Test(arguments: ZipDamage.allCases)
    func aDamagedZipIsRefusedAndNothingWritten(_ damage: ZipDamage) throws {
        let dir = try temporaryDirectory()
        let folder = dir.appendingPathComponent("export")
        try Self.export.write(to: folder)
        if damage == .badDay {
            let url = folder.appendingPathComponent("Checkmarks.csv")
            let text = try String(contentsOf: url, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "2024-03-03,NO,", with: "2024-03-0X,NO,").utf8).write(to: url)
        }
        let archive = dir.appendingPathComponent("export.zip")
        let names = [
            ZipDamage.escapingName: ["Scores.csv": "../Scores.csv"], .deepName: ["Scores.csv": "a/b/Scores.csv"],
        ]
        try Self.zip(folder, to: archive, names: names[damage] ?? [:])
        var bytes = [UInt8](try Data(contentsOf: archive))
        switch damage {
        case .cut: bytes = Array(bytes.prefix(bytes.count / 2))
        case .flippedByte: bytes[60] ^= 0x55
        default: break
        }
        try Data(bytes).write(to: archive)
        let history = dir.appendingPathComponent("h.sqlite").path
        let result = try importing("export.zip", in: dir, history: history)
        let message: String =
            switch damage {
            case .cut: "'export.zip': it is not a whole zip archive (no central directory)"
            case .escapingName: "'export.zip': it holds '../Scores.csv', which is not a file of a Loop export"
            case .deepName: "'export.zip': it holds 'a/b/Scores.csv', which is not a file of a Loop export"
            case .flippedByte: "'export.zip': 'Habits.csv' is damaged in the archive"
            case .badDay: "'export.zip/Checkmarks.csv' line 4: '2024-03-0X' is not a date"
            }
        #expect(result.status == 1 && result.stderr.contains(message), "\(damage): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("loop.rt").path), "\(damage): the routine was written")
        #expect(try execute(["history", "export", "--history", history]).stdout == "", "\(damage): something was imported")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("tmp").path)
        #expect(left.isEmpty, "\(damage): \(left)")
    }
}
