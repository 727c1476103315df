/// What an op did to a file: the new text, and what the author should be told.
public struct EditOutcome: Sendable {
    public var bytes: [UInt8]
    /// Said after the edit, such as the arrows a delete removed.
    public var message: String?
}

/// Turns ops into the smallest text edits of a `.rt` file, the way the language server's rename
/// and quick fixes edit: only the bytes the op is about change, and comments, blank lines and
/// order elsewhere stay as they were. A file that `fmt --check` passed passes it after the edit.
///
/// An op that would make the routine worse (a cycle, a taken ID, an unknown target: any error
/// the file did not have) is refused with that error.
public enum RoutineEditor {
    public static func apply(_ op: RoutineEditOp, to file: SourceFile) -> Result<EditOutcome, Diagnostic> {
        if case .together(let ops) = op { return applyTogether(ops, to: file) }
        let before = RoutineLoader.load(file, format: .rt)
        if let split = withAttributesApart(op, in: before.routine) { return applyTogether(split, to: file) }
        let source = EditableSource(file.bytes, routine: before.routine)
        let isEmpty = source.tokens.count == 1
        if !isEmpty, let broken = before.diagnostics.first(where: { $0.severity == .error && isSyntax($0.code) }) {
            return .failure(.editOnBrokenFile(broken))
        }
        var message: String?
        let edits: [TextEdit]
        do { edits = try source.edits(for: op, fileName: file.name, message: &message) } catch { return .failure(error) }
        var bytes = TextEdit.apply(edits, to: file.bytes)
        // Removals next to each other (a start line and a declaration) can leave two blank
        // lines where the author never wrote two.
        if !hasBlankRun(file.bytes) { bytes = withoutBlankRuns(bytes) }
        var after = RoutineLoader.load(SourceFile(name: file.name, bytes: bytes), format: .rt)
        if !isEmpty, isCanonical(before) {
            let printed = Array(RoutinePrinter.print(after.routine, layout: SourceLayout(file: after.file, comments: after.comments)).utf8)
            if printed != bytes, !after.diagnostics.contains(where: { isSyntax($0.code) && $0.severity == .error }) {
                bytes = printed
                after = RoutineLoader.load(SourceFile(name: file.name, bytes: bytes), format: .rt)
            }
        }
        let known = Set(before.diagnostics.filter { $0.severity == .error }.map { "\($0.code.rawValue) \($0.message)" })
        if let worse = after.diagnostics.first(where: { $0.severity == .error && !known.contains("\($0.code.rawValue) \($0.message)") }) {
            return .failure(worse)
        }
        return .success(EditOutcome(bytes: bytes, message: message))
    }

    /// Each op on the text the one before it left; the first refusal refuses them all, so
    /// that nothing of a half-made change reaches the file.
    static func applyTogether(_ ops: [RoutineEditOp], to file: SourceFile) -> Result<EditOutcome, Diagnostic> {
        guard !ops.isEmpty else { return .failure(.nothingTo("change")) }
        var current = file
        var messages: [String] = []
        for op in ops {
            switch apply(op, to: current) {
            case .failure(let diagnostic): return .failure(diagnostic)
            case .success(let outcome):
                current = SourceFile(name: file.name, bytes: outcome.bytes)
                if let message = outcome.message { messages.append(message) }
            }
        }
        return .success(EditOutcome(bytes: current.bytes, message: messages.isEmpty ? nil : messages.joined(separator: "; ")))
    }

    /// A new node with attributes as the add and then the attributes set on the ID it gets,
    /// so that they are written as a change of the node would write them; nil for any other op.
    static func withAttributesApart(_ op: RoutineEditOp, in routine: Routine) -> [RoutineEditOp]? {
        let none = AttributeChanges()
        switch op {
        case .addHabit(let id, let title, let after, let attributes) where attributes != none:
            let made = id ?? makeID(from: title, kind: .habit, taken: Set(routine.indexByID().keys))
            return [.addHabit(id: made, title: title, after: after), .setAttributes(id: made, attributes)]
        case .addQuestion(let id, let text, let options, let after, let attributes) where attributes != none:
            let made = id ?? makeID(from: text, kind: .question, taken: Set(routine.indexByID().keys))
            return [.addQuestion(id: made, text: text, options: options, after: after), .setAttributes(id: made, attributes)]
        default:
            return nil
        }
    }

    /// Whether two blank lines follow each other somewhere in `bytes`.
    static func hasBlankRun(_ bytes: [UInt8]) -> Bool { withoutBlankRuns(bytes).count != bytes.count }

    /// `bytes` with every run of blank lines cut to one.
    static func withoutBlankRuns(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var lineStart = 0
        var blankLines = 0
        var i = 0
        while i < bytes.count {
            var end = i
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            let line = bytes[lineStart..<min(end + 1, bytes.count)]
            let blank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
            blankLines = blank ? blankLines + 1 : 0
            if blankLines < 2 || end >= bytes.count { out.append(contentsOf: line) }
            i = end + 1
            lineStart = i
        }
        return out
    }

    /// Whether the file is as `fmt` prints it.
    static func isCanonical(_ loaded: LoadedRoutine) -> Bool {
        guard !loaded.diagnostics.contains(where: { $0.severity == .error && isSyntax($0.code) }) else { return false }
        let printed = RoutinePrinter.print(loaded.routine, layout: SourceLayout(file: loaded.file, comments: loaded.comments))
        return Array(printed.utf8) == loaded.file.bytes
    }

    /// Reading, lexing and syntax errors: after them the tree is partial and its spans cannot be edited.
    static func isSyntax(_ code: DiagnosticCode) -> Bool {
        code.rawValue.hasPrefix("E0") || code.rawValue.hasPrefix("E1")
    }

    /// An ID made from `title`: lowercase words joined by '-', unique among `taken`.
    public static func makeID(from title: String, kind: RoutineNode.Kind, taken: Set<String>) -> String {
        var words: [String] = []
        var word = ""
        for ch in title.lowercased().unicodeScalars {
            if ch.isASCII, ch.properties.isAlphabetic || ("0"..."9").contains(ch) {
                word.unicodeScalars.append(ch)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        var base = ""
        for w in words where base.count + w.count < 24 || base.isEmpty {
            base += (base.isEmpty ? "" : "-") + w
        }
        if base.isEmpty { base = kind.rawValue }
        if let first = base.unicodeScalars.first, ("0"..."9").contains(first) { base = "_" + base }
        if base.count > 32 { base = String(base.prefix(32)) }
        var id = base
        var n = 2
        while taken.contains(id) || Identifiers.keywords.contains(id) || !Identifiers.isValid(id) || id == "then" {
            id = "\(base)\(n)"
            n += 1
        }
        return id
    }
}
