/// Reading a version of a document from the one before, when the edit between them cannot have
/// changed what the parser saw: an editor asks again at every keystroke, and most keystrokes type
/// inside a title, a prompt, an answer or a note.
extension RoutineParser {
    /// The parse of `file` taken from `previous`, the parse of `old`, when the two texts differ
    /// only inside one string literal that the parser read as a node's title, prompt, note or
    /// answer, or as the routine's name, and neither the removed nor the inserted bytes end or
    /// escape a string: the tokens are then the same, the literal's value is its new bytes, and
    /// every position after it moves by the edit's length. Nil when that is not so, or when the
    /// old parse had any syntax diagnostic (a message may quote the text); the caller parses.
    static func reparse(_ file: SourceFile, old: [UInt8], previous: Routine, comments: [Span]) -> ParsedRoutine? {
        let new = file.bytes
        guard let edit = ByteEdit(from: old, to: new) else { return nil }
        guard let literal = previous.stringLiteral(containing: edit.removed, in: old) else { return nil }
        let inserted = edit.inserted
        let clean = new.withUnsafeBufferPointer { bytes in
            let piece = UnsafeBufferPointer(rebasing: bytes[inserted])
            return !piece.contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x0A || $0 == 0x0D }
                && firstInvalidUTF8Offset(piece) == nil
        }
        guard clean else { return nil }
        let shift = PositionShift(from: literal.span.upperBound, by: inserted.count - edit.removed.count)
        var routine = previous
        routine.text.source = new
        routine.moveSpans(shift, editing: literal)
        if literal.isName {
            routine.name = String(decoding: new[(literal.span.lowerBound + 1)..<(shift(literal.span).upperBound - 1)], as: UTF8.self)
        }
        return ParsedRoutine(routine: routine, diagnostics: DiagnosticList(), comments: comments.map(shift.callAsFunction))
    }
}

/// How one text differs from another: the bytes between their longest common prefix and
/// suffix, widened to whole UTF-8 characters.
struct ByteEdit {
    /// The bytes of the old text that were replaced.
    var removed: Range<Int>
    /// The bytes of the new text that replaced them.
    var inserted: Range<Int>

    /// Nil when the texts are the same.
    init?(from old: [UInt8], to new: [UInt8]) {
        let limit = min(old.count, new.count)
        var prefix = 0
        var suffix = 0
        old.withUnsafeBytes { a in
            new.withUnsafeBytes { b in
                // Eight bytes at a time, then byte by byte: a keystroke compares the whole text.
                while prefix + 8 <= limit,
                    a.loadUnaligned(fromByteOffset: prefix, as: UInt64.self) == b.loadUnaligned(fromByteOffset: prefix, as: UInt64.self)
                {
                    prefix += 8
                }
                while prefix < limit, a[prefix] == b[prefix] { prefix += 1 }
                let room = limit - prefix
                while suffix + 8 <= room,
                    a.loadUnaligned(fromByteOffset: old.count - suffix - 8, as: UInt64.self)
                        == b.loadUnaligned(fromByteOffset: new.count - suffix - 8, as: UInt64.self)
                {
                    suffix += 8
                }
                while suffix < room, a[old.count - suffix - 1] == b[new.count - suffix - 1] { suffix += 1 }
            }
        }
        if prefix == old.count, prefix == new.count { return nil }
        func continues(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
        // A character both texts begin alike (é for è) is replaced whole.
        while prefix > 0, prefix < old.count, continues(old[prefix]) { prefix -= 1 }
        while suffix > 0, continues(old[old.count - suffix]) || continues(new[new.count - suffix]) { suffix -= 1 }
        removed = prefix..<(old.count - suffix)
        inserted = prefix..<(new.count - suffix)
    }
}

/// Moves the positions at or after `from` (in the old text) by `delta` bytes.
struct PositionShift {
    var from: Int
    var delta: Int

    init(from: Int, by delta: Int) {
        self.from = from
        self.delta = delta
    }

    func callAsFunction(_ offset: Int) -> Int { offset >= from ? offset + delta : offset }

    func callAsFunction(_ span: Span) -> Span {
        span == .absent ? span : Span(start: self(span.lowerBound), end: self(span.upperBound))
    }

    func callAsFunction(_ text: TextRef) -> TextRef {
        guard !text.isNone, text.start & TextRef.ownFlag == 0 else { return text }
        return TextRef(start: UInt32(self(Int(text.start))), count: text.count)
    }
}

/// The string literal an edit falls inside: where it is written, and what reads it.
struct EditedLiteral {
    enum Owner {
        case name
        case title(Int)
        case note(Int)
        case option(Int)
    }

    var span: Span
    var owner: Owner
    var isName: Bool {
        if case .name = owner { return true }
        return false
    }
}

extension Routine {
    /// The literal of this routine, read from `source`, whose content holds `removed` (an empty
    /// range may sit at either end of it), when its value is that content unescaped.
    func stringLiteral(containing removed: Range<Int>, in source: [UInt8]) -> EditedLiteral? {
        func holds(_ span: Span, _ value: TextRef?) -> Bool {
            guard span != .absent, span.upperBound - span.lowerBound >= 2, span.upperBound <= source.count,
                span.lowerBound < removed.lowerBound, removed.upperBound < span.upperBound,
                source[span.lowerBound] == UInt8(ascii: "\""), source[span.upperBound - 1] == UInt8(ascii: "\"")
            else { return false }
            // The value a range of the source, not the routine's own bytes: it had no escapes.
            guard let value else { return true }
            return value.start & TextRef.ownFlag == 0 && Int(value.start) == span.lowerBound + 1
                && Int(value.count) == span.upperBound - span.lowerBound - 2
        }
        if holds(nameSpan, nil) {
            let content = source[(nameSpan.lowerBound + 1)..<(nameSpan.upperBound - 1)]
            return content.contains(UInt8(ascii: "\\")) ? nil : EditedLiteral(span: nameSpan, owner: .name)
        }
        // Records are in the order of the source: the last that starts before the edit holds it.
        var low = 0
        var high = records.count
        while low < high {
            let middle = (low + high) / 2
            if records[middle].idSpan.lowerBound < removed.lowerBound { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let index = low - 1
        let record = records[index]
        if holds(record.titleSpan, record.title) { return EditedLiteral(span: record.titleSpan, owner: .title(index)) }
        if let note = record.noteSpan, holds(note, record.note) { return EditedLiteral(span: note, owner: .note(index)) }
        for option in record.options where holds(optionRecords[option].textSpan, optionRecords[option].text) {
            return EditedLiteral(span: optionRecords[option].textSpan, owner: .option(option))
        }
        return nil
    }

    /// Moves every position by `shift`, and gives the edited literal its new length.
    mutating func moveSpans(_ shift: PositionShift, editing literal: EditedLiteral) {
        nameSpan = shift(nameSpan)
        startSpan = startSpan.map(shift.callAsFunction)
        for k in explicitStart.indices { explicitStart[k].span = shift(explicitStart[k].span) }
        for k in edges.indices { edges[k].span = shift(edges[k].span) }
        for k in records.indices {
            var r = records[k]
            r.id = shift(r.id)
            r.title = shift(r.title)
            r.note = shift(r.note)
            r.unit = shift(r.unit)
            r.idSpan = shift(r.idSpan)
            r.titleSpan = shift(r.titleSpan)
            r.arrowSpan = r.arrowSpan.map(shift.callAsFunction)
            r.daysSpan = r.daysSpan.map(shift.callAsFunction)
            r.noteSpan = r.noteSpan.map(shift.callAsFunction)
            records[k] = r
        }
        for k in optionRecords.indices {
            optionRecords[k].text = shift(optionRecords[k].text)
            optionRecords[k].textSpan = shift(optionRecords[k].textSpan)
            optionRecords[k].arrowSpan = optionRecords[k].arrowSpan.map(shift.callAsFunction)
        }
        // The literal's value starts before the edit and ends after it: only its length moves.
        let delta = Int32(shift.delta)
        func grow(_ text: inout TextRef) { text.count = UInt32(Int32(text.count) + delta) }
        switch literal.owner {
        case .name: break
        case .title(let index): grow(&records[index].title)
        case .note(let index): grow(&records[index].note)
        case .option(let index): grow(&optionRecords[index].text)
        }
    }
}
