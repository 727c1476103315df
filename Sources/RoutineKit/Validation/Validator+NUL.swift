#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Validator {
    /// Reports every text holding NUL, whether written as `\u{0}`, as a zero byte or in YAML:
    /// SQLite's text ends at a NUL, so a run would record such a title or answer cut short.
    /// One scan of the routine's bytes first, so that a routine without NUL costs nothing more.
    static func checkNUL(_ routine: Routine, into diagnostics: inout DiagnosticList) {
        let text = routine.text
        if routine.name.utf8.contains(0) {
            diagnostics.append(.nulInText("the routine's name", at: routine.nameSpan))
        }
        guard hasNUL(text.source) || hasNUL(text.own) else { return }
        func holdsNUL(_ ref: TextRef) -> Bool {
            !ref.isNone && text.withBytes(ref) { $0.count > 0 && memchr($0.baseAddress!, 0, $0.count) != nil }
        }
        for record in routine.records {
            let id = text.string(record.id)
            let kind = record.kind == .habit ? "habit" : "question"
            if holdsNUL(record.title) {
                let what = record.kind == .habit ? "the title of habit '\(id)'" : "the prompt of question '\(id)'"
                diagnostics.append(.nulInText(what, at: record.titleSpan))
            }
            if holdsNUL(record.note) {
                diagnostics.append(.nulInText("the note of \(kind) '\(id)'", at: record.noteSpan ?? record.idSpan))
            }
            if holdsNUL(record.unit) {
                diagnostics.append(.nulInText("the unit of habit '\(id)'", at: record.idSpan))
            }
            for k in record.options where holdsNUL(routine.optionRecords[k].text) {
                diagnostics.append(.nulInText("an answer of question '\(id)'", at: routine.optionRecords[k].textSpan))
            }
        }
    }

    private static func hasNUL(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { $0.count > 0 && memchr($0.baseAddress!, 0, $0.count) != nil }
    }
}
