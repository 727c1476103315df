import RoutineKit

/// Sync folders' codes (docs/sync.md): E7xx.
extension DiagnosticCode {
    public static let syncBadLine = DiagnosticCode(
        "E701", "a line of a sync journal that is not JSON, is of a newer format, or holds what no history could record; it is skipped")
    public static let syncUnreadable = DiagnosticCode("E702", "a sync journal file that cannot be read")
    public static let syncUnavailable = DiagnosticCode("E703", "a sync folder or this device's journal that cannot be written")
    public static let syncDeviceCopied = DiagnosticCode(
        "E704", "another device writes with this device's id (a copied history): this one takes a new id")
    public static let syncNotMember = DiagnosticCode("E705", "a sync command for a history that is not a member of a sync folder")

    /// Sync's codes.
    public static let syncCodes: [DiagnosticCode] = [
        .syncBadLine, .syncUnreadable, .syncUnavailable, .syncDeviceCopied, .syncNotMember,
    ]
}

/// Sync's catalogue (docs/sync.md). Most are warnings: a journal that cannot be read or written
/// leaves the history whole, and the next command catches up.
extension Diagnostic {
    /// A journal line that is skipped: the rest of the file is read.
    public static func syncBadLine(_ path: String, line: Int, reason: String) -> Diagnostic {
        return warning(.syncBadLine, "'\(path)' line \(line): \(reason); the line is skipped")
    }

    /// The lines of one journal file that are skipped, said once for the file: how many, the
    /// first few, and what is wrong with the first.
    public static func syncBadLines(_ path: String, count: Int, lines: [Int], reason: String) -> Diagnostic {
        if count == 1, let line = lines.first { return syncBadLine(path, line: line, reason: reason) }
        let numbers = lines.map(String.init).joined(separator: ", ") + (count > lines.count ? ", …" : "")
        return warning(.syncBadLine, "'\(path)': \(count) lines are skipped (lines \(numbers)); line \(lines.first ?? 0): \(reason)")
    }

    /// Two events with one id and different content: every device keeps the same one.
    public static func syncDuplicateID(_ id: String, _ path: String, line: Int, other: String) -> Diagnostic {
        return warning(
            .syncBadLine, "the event '\(id)' of '\(path)' line \(line) differs from the one of that id in '\(other)'",
            notes: [Note("every device keeps the one whose line sorts first; the other is not applied")])
    }

    /// A command's record that is in the history, and not yet in the journal.
    public static func syncNotInJournal(_ folder: String, reason: String) -> Diagnostic {
        return warning(
            .syncUnavailable, "cannot write to the sync folder '\(folder)': \(reason)",
            notes: [Note("the record is in the history and not yet in the journal; the next command that can write it does")])
    }

    public static func syncUnreadable(_ path: String, reason: String) -> Diagnostic {
        return warning(.syncUnreadable, "cannot read the journal '\(path)': \(reason)")
    }

    public static func syncUnavailable(_ folder: String, reason: String) -> Diagnostic {
        return warning(
            .syncUnavailable, "cannot sync with '\(folder)': \(reason)",
            notes: [Note("the history keeps what is not written yet; the next command writes it")])
    }

    public static func syncDeviceCopied(_ device: String, file: String, newID: String, rewritten: Int) -> Diagnostic {
        return warning(
            .syncDeviceCopied,
            "another device writes as this one ('\(device)', in '\(file)'): this history takes the new device id '\(newID)'",
            notes: [
                Note(
                    "a history or home folder copied to another machine does this; the other's records are read as another device's, and "
                        + "this one's \(rewritten) record\(rewritten == 1 ? " is" : "s are") written again under the new id"),
                Note("nothing to do"),
            ])
    }

    public static func syncNotMember(_ path: String) -> Diagnostic {
        Diagnostic(
            .syncNotMember, "the history '\(path)' is not a member of a sync folder", at: nil,
            notes: [Note("'routine sync init FOLDER' makes it one")])
    }
}

extension Diagnostic {
    /// A sync diagnostic, said as a warning: the history keeps what a sync could not do, and
    /// the command goes on.
    fileprivate static func warning(_ code: DiagnosticCode, _ message: String, notes: [Note] = []) -> Diagnostic {
        var diagnostic = Diagnostic(code, message, at: nil, notes: notes)
        diagnostic.severity = .warning
        return diagnostic
    }
}
