import ArgumentParser
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

/// `routine test --record FILE --answers ANSWERS`: a scripted run written as a case, added to
/// the test file (created when missing) through the safe writer.
struct TestRecording {
    let testFile: String
    let routine: String?
    let answers: String
    let date: String?
    let name: String?
    let input: InputOptions

    func write() throws {
        let colors = input.colorsOnStandardError
        let existing: SourceFile?
        switch InputReader.read(testFile) {
        case .success(let read): existing = read
        case .failure where access(testFile, F_OK) != 0: existing = nil
        case .failure(let diagnostic):
            report(diagnostic, colors: colors)
            throw Exit.unreadable
        }
        // The routine: the one named, else the one the file names, else the file's own name.
        let parsed = existing.map { ScenarioParser.parse($0).file }
        guard let routinePath = routine ?? (parsed ?? ScenarioFile()).routinePath(forTestAt: testFile) else {
            StandardError.write(
                visible:
                    "routine: error: '\(testFile)' does not say which routine it tests: name it NAME.rt.test, or give the routine: routine test --record \(testFile) ROUTINE.rt --answers \(answers)\n"
            )
            throw Exit.usage
        }
        let loaded = try input.loadValid(routinePath)
        let lines: [String]
        switch InputReader.read(answers) {
        case .success(let read):
            lines = String(decoding: read.bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map {
                String($0.hasSuffix("\r") ? $0.dropLast() : $0)
            }
        case .failure(let diagnostic):
            report(diagnostic, colors: colors)
            throw Exit.unreadable
        }
        let day = date.flatMap(CalendarDate.init) ?? .today()
        let taken = Set(parsed?.cases.map(\.name) ?? [])
        var script = lines
        if script.last == "" { script.removeLast() }
        let (text, result) = ScenarioRecorder.record(
            routine: loaded.routine, date: day, answers: script, name: name ?? "recorded \(day)", taken: taken)
        var bytes = existing?.bytes ?? []
        if bytes.isEmpty {
            // A file whose name does not say its routine names it on its first line.
            let derived = ScenarioFile().routinePath(forTestAt: testFile)
            if routine != nil, derived != routinePath {
                let folder = ScenarioFile.resolve("", besideTestAt: testFile)
                let relative = folder.isEmpty || !routinePath.hasPrefix(folder) ? routinePath : String(routinePath.dropFirst(folder.count))
                bytes += Array("routine \(ScenarioText.argument(relative))\n\n".utf8)
            }
        } else {
            if bytes.last != 0x0A { bytes.append(0x0A) }
            bytes.append(0x0A)
        }
        bytes += Array(text.utf8)
        if case .failure(let diagnostic) = AtomicFile.write(bytes, to: testFile, purpose: existing == nil ? .create : .rewrite(expecting: nil)) {
            report(diagnostic, colors: colors)
            throw Exit.outputFailed
        }
        let caseName = text.split(separator: "\n").first.map { String($0.dropFirst(5)) } ?? ""
        let note = result == .incomplete ? "; the answers ran out before the routine ended" : ""
        StandardError.write(visible: "recorded case '\(caseName)' in '\(testFile)' (\(result.rawValue)\(note))\n")
    }
}
