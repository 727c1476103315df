import RoutineKit

/// What may be typed at a place in a `.rt` line, told from the text before the cursor.
enum CompletionContext: Equatable {
    case target
    case day
    /// The start of a line: declarations, and the items of the declaration it is in.
    case lineStart(in: RoutineNode.Kind?)
    /// After a habit header or one of its attributes, on the same line.
    case habitAttribute
    case none
}

extension LanguageServer {
    func completion(_ params: JSON) throws(ResponseError) -> JSON {
        let (snapshot, offset) = try located(params)
        guard snapshot.format == .rt else { return [] }
        let bytes = snapshot.file.bytes
        var wordStart = offset
        while wordStart > 0, Identifiers.isIDByte(bytes[wordStart - 1]) { wordStart -= 1 }
        let replace = snapshot.positions.range(Span(start: wordStart, end: offset))
        func item(_ label: String, kind: Int, detail: String? = nil) -> JSON {
            var fields: [String: JSON] = ["label": .string(label), "kind": JSON(kind), "textEdit": ["range": replace, "newText": .string(label)]]
            if let detail { fields["detail"] = .string(detail) }
            return .object(fields)
        }
        switch Self.completionContext(bytes, wordStart: wordStart) {
        case .target:
            let routine = snapshot.routine
            var items = (0..<routine.nodeCount).map { i in
                item(routine.id(of: i), kind: routine.isQuestion(i) ? 13 : 3, detail: routine.title(of: i))
            }
            items.append(item("end", kind: 14, detail: "finish the routine"))
            return .array(items)
        case .day:
            return .array(Weekdays.names.map { item($0, kind: 20) })
        case .habitAttribute:
            return .array(["for", "target", "target at most", "on", "note"].map { item($0, kind: 14) })
        case .lineStart(let kind):
            var words = ["habit", "question"]
            if snapshot.routine.startSpan == nil { words.append("start") }
            if kind == .habit { words += ["for", "target", "target at most", "on", "note"] }
            if kind == .question { words += ["then", "note"] }
            if snapshot.loaded.diagnostics.contains(where: { $0.code == .missingRoutine }) { words.insert("routine", at: 0) }
            return .array(words.map { item($0, kind: 14) })
        case .none:
            return []
        }
    }

    /// The context at `wordStart`, the start of the word being typed.
    static func completionContext(_ bytes: [UInt8], wordStart: Int) -> CompletionContext {
        var lineStart = wordStart
        while lineStart > 0, bytes[lineStart - 1] != 0x0A, bytes[lineStart - 1] != 0x0D { lineStart -= 1 }
        let line = String(decoding: bytes[lineStart..<wordStart], as: UTF8.self)
        // Inside a comment or a string nothing is completed.
        var quotes = 0
        var escaped = false
        for c in line {
            if escaped {
                escaped = false
                continue
            }
            if c == "\\" { escaped = true } else if c == "\"" { quotes += 1 } else if c == "#", quotes % 2 == 0 { return .none }
        }
        if quotes % 2 == 1 { return .none }
        let before = line.trimmingTrailingSpaces()
        if before.hasSuffix("->") { return .target }
        if before.hasSuffix(",") { return .target }
        let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if let on = words.lastIndex(of: "on"), words[(on + 1)...].allSatisfy({ Weekdays.names.contains(String($0)) }),
            line.last == " " || line.last == "\t"
        {
            return .day
        }
        let header = enclosingHeader(bytes, before: lineStart)
        if before.isEmpty {
            // A line after one ending in a comma continues that arrow.
            if let previous = previousLine(bytes, before: lineStart), previous.trimmingTrailingSpaces().hasSuffix(",") { return .target }
            return .lineStart(in: header)
        }
        let isHabitLine = words.first == "habit" || (header == .habit && !words.isEmpty)
        if isHabitLine, line.last == " " || line.last == "\t",
            let last = words.last, !["habit", "for", "target", "on", "note", "->"].contains(String(last)),
            words.first != "habit" || words.count >= 3 || before.hasSuffix("\"")
        {
            return .habitAttribute
        }
        return .none
    }

    /// The kind of the declaration whose header is the nearest above `offset`.
    private static func enclosingHeader(_ bytes: [UInt8], before offset: Int) -> RoutineNode.Kind? {
        var end = offset
        while end > 0 {
            var start = end - 1
            while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
            let text = String(decoding: bytes[start..<end], as: UTF8.self).drop { $0 == " " || $0 == "\t" }
            if text.hasPrefix("habit ") { return .habit }
            if text.hasPrefix("question ") { return .question }
            if text.hasPrefix("start ") || text.hasPrefix("routine ") { return nil }
            end = start
        }
        return nil
    }

    private static func previousLine(_ bytes: [UInt8], before offset: Int) -> String? {
        var end = offset
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        guard end > 0 else { return nil }
        var start = end
        while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
