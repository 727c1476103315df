import RoutineKit

/// The token types and modifiers semantic tokens are numbered by.
enum SemanticTokenLegend {
    static let types = ["keyword", "function", "string", "number", "enumMember", "type", "comment", "operator"]
    static let modifiers = ["declaration", "duration"]

    /// (type index, modifier bits) for a class of source.
    static func encode(_ kind: SyntaxClass) -> (type: Int, modifiers: Int) {
        switch kind {
        case .keyword: (0, 0)
        case .declaration: (1, 1)
        case .reference: (1, 0)
        case .string: (2, 0)
        case .number: (3, 0)
        case .duration: (3, 2)
        case .day: (4, 0)
        case .unit: (5, 0)
        case .comment: (6, 0)
        case .punctuation: (7, 0)
        }
    }
}

extension LanguageServer {
    /// Habits and questions, with each question's options as its children.
    func documentSymbols(_ params: JSON) throws(ResponseError) -> JSON {
        let snapshot = try document(params)
        let index = snapshot.index
        let positions = snapshot.positions
        let routine = snapshot.routine
        // Written as JSON serializes an object, keys sorted: children, detail, kind, name,
        // range, selectionRange.
        var out = ByteWriter(capacity: routine.nodeCount * 400)
        out.byte(UInt8(ascii: "["))
        for i in 0..<routine.nodeCount {
            if i > 0 { out.byte(UInt8(ascii: ",")) }
            out.write("{\"children\":[")
            for (k, option) in index.options[i].enumerated() {
                if k > 0 { out.byte(UInt8(ascii: ",")) }
                out.write("{\"kind\":22,\"name\":")
                JSONValue.quote(option.text.isEmpty ? "\"\"" : option.text, into: &out)
                out.write(",\"range\":")
                positions.write(range: option.span, into: &out)
                out.write(",\"selectionRange\":")
                positions.write(range: option.textSpan, into: &out)
                out.byte(UInt8(ascii: "}"))
            }
            out.write("],")
            let title = routine.title(of: i)
            if !title.isEmpty {
                out.write("\"detail\":")
                JSONValue.quote(title, into: &out)
                out.byte(UInt8(ascii: ","))
            }
            out.write("\"kind\":")
            out.write(routine.isQuestion(i) ? 10 : 12)
            out.write(",\"name\":")
            JSONValue.quote(routine.id(of: i), into: &out)
            out.write(",\"range\":")
            positions.write(range: index.declarations[i], into: &out)
            out.write(",\"selectionRange\":")
            positions.write(range: routine.idSpan(of: i), into: &out)
            out.byte(UInt8(ascii: "}"))
        }
        out.byte(UInt8(ascii: "]"))
        return .raw(out.bytes)
    }

    /// One range per declaration that spans more than a line.
    func foldingRanges(_ params: JSON) throws(ResponseError) -> JSON {
        let snapshot = try document(params)
        let positions = snapshot.positions
        var ranges: [JSON] = []
        for span in snapshot.index.declarations {
            let start = positions.position(span.lowerBound).line
            let end = positions.position(span.upperBound).line
            if end > start { ranges.append(["startLine": JSON(start), "endLine": JSON(end), "kind": "region"]) }
        }
        return .array(ranges)
    }

    /// Exactly what `routine fmt` writes, as one edit; nothing for a file with errors.
    func formatting(_ params: JSON) throws(ResponseError) -> JSON {
        let snapshot = try document(params)
        let loaded = snapshot.loaded
        guard loaded.format == .rt else {
            throw .requestFailed("formatting works on .rt files; convert YAML with 'routine convert FILE --to rt'")
        }
        let errors = loaded.diagnostics.filter { $0.severity == .error }.count
        guard errors == 0 else {
            throw .requestFailed("not formatted: the file has \(errors) error\(errors == 1 ? "" : "s"); formatting waits until it reads as a routine")
        }
        let formatted = RoutinePrinter.print(loaded.routine, layout: SourceLayout(file: loaded.file, comments: loaded.comments))
        let reparsed = RoutineLoader.load(SourceFile(name: loaded.file.name, text: formatted), format: .rt)
        guard !reparsed.hasErrors, reparsed.routine.isEquivalent(to: loaded.routine), reparsed.comments.count == loaded.comments.count else {
            throw .internalError("formatting would change what the routine means; the file was left alone")
        }
        guard Array(formatted.utf8) != loaded.file.bytes else { return [] }
        let whole = Span(start: 0, end: loaded.file.bytes.count)
        return [["range": snapshot.positions.range(whole), "newText": .string(formatted)]]
    }

    /// Every token of a `.rt` file, relative-encoded as LSP asks; a token over several lines
    /// (none in this language) would be cut at its first line's end.
    func semanticTokens(_ params: JSON) throws(ResponseError) -> JSON {
        let snapshot = try document(params)
        guard snapshot.format == .rt else { return ["data": []] }
        let positions = snapshot.positions
        var out = ByteWriter(capacity: snapshot.file.bytes.count)
        out.write("{\"data\":[")
        var first = true
        var previous = Position(line: 0, character: 0)
        for token in SyntaxClassifier.classify(snapshot.file) {
            let start = positions.position(token.span.lowerBound)
            let end = positions.position(min(token.span.upperBound, positions.lineEnd(start.line)))
            let length = end.line == start.line ? end.character - start.character : 0
            guard length > 0 else { continue }
            let (type, modifiers) = SemanticTokenLegend.encode(token.kind)
            let deltaLine = start.line - previous.line
            let deltaStart = deltaLine == 0 ? start.character - previous.character : start.character
            func number(_ n: Int) {
                if !first { out.byte(UInt8(ascii: ",")) }
                first = false
                out.write(n)
            }
            number(deltaLine)
            number(deltaStart)
            number(length)
            number(type)
            number(modifiers)
            previous = start
        }
        out.write("]}")
        return .raw(out.bytes)
    }
}
