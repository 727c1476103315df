import Foundation
import Testing

struct ConvertAndFormatTests {
    @Test func convertToYAMLSaysCommentsAreLeftOut() throws {
        let result = try execute(["convert", "routines/morning.rt", "--to", "yaml"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("routine: Morning\nstart: [water]\nnodes:\n- habit: water\n"))
        #expect(result.stderr == "routine: note: 8 comments in 'routines/morning.rt' cannot be carried into YAML and were left out\n")
    }

    @Test func convertBackAndForthThroughFiles() throws {
        let dir = try temporaryDirectory()
        let yaml = dir.appendingPathComponent("w.yaml").path
        let rt = dir.appendingPathComponent("w.rt").path
        #expect(try execute(["convert", "routines/workout.rt", "--to", "yaml", "-o", yaml]).status == 0)
        #expect(try execute(["convert", yaml, "--to", "rt", "-o", rt]).status == 0)
        let original = try execute(["paths", "routines/workout.rt"]).stdout
        #expect(try execute(["paths", rt]).stdout == original)
        #expect(try execute(["paths", yaml]).stdout == original)
    }

    @Test func yamlOnStandardInput() throws {
        let yaml = try String(contentsOf: packageRoot.appendingPathComponent("routines/morning.yaml"), encoding: .utf8)
        let result = try execute(["check", "--input-format", "yaml", "-"], stdin: yaml)
        #expect(result.status == 0 && result.stderr == "")
    }

    /// fmt reads only .rt: its help offers no input format, and one given is a usage error.
    @Test func fmtOffersOnlyWhatItDoes() throws {
        let help = try execute(["fmt", "--help"])
        #expect(help.status == 0)
        #expect(!help.stdout.contains("yaml") && !help.stdout.contains("--input-format"))
        let refused = try execute(["fmt", "--input-format", "yaml", "-"], stdin: "routine: R\n")
        #expect(refused.status == 64)
    }

    /// The exit codes `routine --help` lists (made from the executable's one table of them) are
    /// those of the manual's table (docs/limits.md), in the same order.
    @Test func helpListsTheExitCodesOfTheManual() throws {
        let help = try execute(["--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let manual = try String(contentsOf: packageRoot.appendingPathComponent("docs/limits.md"), encoding: .utf8)
        let section = manual.components(separatedBy: "\n## Exit codes\n")[1].components(separatedBy: "\n## ")[0]
        let documented = section.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("| "), let code = line.dropFirst(2).split(separator: " ").first else { return nil }
            return Int(code)
        }
        let paragraph = try #require(help.components(separatedBy: "Exit codes: ").dropFirst().first?.components(separatedBy: ". Shell").first)
        let listed = paragraph.components(separatedBy: "; ").map { Int($0.prefix { $0.isNumber }) ?? -1 }
        #expect(documented.count >= 8)
        #expect(listed == documented, "--help lists \(listed), docs/limits.md \(documented)")
        #expect(help.contains("74 an output cannot be written (standard output, an output file, the history)"))
    }

    @Test func fmtCheckListsFilesThatWouldChange() throws {
        let result = try execute(["fmt", "--check", "routines/morning.rt", "routines/workout.rt"])
        #expect(result.status == 1)
        #expect(result.stdout == "routines/morning.rt\n")
    }

    @Test func fmtWriteRewritesInPlaceKeepingComments() throws {
        let dir = try temporaryDirectory()
        let file = dir.appendingPathComponent("messy.rt")
        try "# top\nroutine   \"R\"\nhabit a \"A\"   ->   b   # note\n\n\n\nhabit b \"B\"\n  for 90m\n".write(
            to: file, atomically: true, encoding: .utf8)
        let result = try execute(["fmt", "--write", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == "# top\nroutine \"R\"\nhabit a \"A\" -> b  # note\n\nhabit b \"B\" for 1h30m\n")
        #expect(try execute(["fmt", "--check", file.path]).status == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(leftovers == ["messy.rt"], "no temporary file is left behind")
    }

    @Test func fmtNeverRewritesAFileWithErrors() throws {
        let dir = try temporaryDirectory()
        let file = dir.appendingPathComponent("broken.rt")
        let bytes = Data("routine \"R\"\n# keep me\nhabit a \"A\"  ->   nowhere\n".utf8)
        try bytes.write(to: file)
        let result = try execute(["fmt", "--write", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("unknown target 'nowhere'"))
        #expect(try Data(contentsOf: file) == bytes)
    }

    @Test func fmtWriteRespectsAReadOnlyFile() throws {
        let dir = try temporaryDirectory()
        let file = dir.appendingPathComponent("locked.rt")
        let bytes = Data("routine   \"R\"\nhabit a \"A\"\n".utf8)
        try bytes.write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file.path)
        let result = try execute(["fmt", "--write", file.path])
        #expect(result.status == 74)
        #expect(result.stderr.contains("cannot write '\(file.path)': the file is read-only"))
        #expect(try Data(contentsOf: file) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["locked.rt"])
    }

    @Test func writingIntoAMissingFolderFailsCleanly() throws {
        let result = try execute(["convert", "routines/morning.rt", "--to", "rt", "-o", "/nonexistent/dir/x.rt"])
        #expect(result.status == 74)
        #expect(result.stderr.contains("cannot write '/nonexistent/dir/x.rt': no such file or directory"))
    }

    @Test func fmtRefusesYAML() throws {
        let result = try execute(["fmt", "routines/morning.yaml"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("fmt formats .rt files"))
    }
}
