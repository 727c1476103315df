extension YAMLLoader {
    /// A string value; null, lists and mappings are reported.
    mutating func readString(_ key: String) throws(Stop) -> (String, Span)? {
        guard event.kind == .scalar, !event.isNull else {
            try refuse("'\(key)'", expected: "a string")
            return nil
        }
        let value = (event.text, event.span)
        try advance()
        return value
    }

    /// Scalar values, from one scalar or a list of scalars, each given to `body` as its bytes
    /// and span. A plain scalar with commas (`on: mon, wed`) is reported with its list
    /// spelling and read as that list, so that nothing else follows from it.
    mutating func readWords(
        _ key: String, _ body: (inout YAMLLoader, UnsafeBufferPointer<UInt8>, Span) -> Void
    ) throws(Stop) {
        if event.kind == .scalar, !event.isNull {
            if event.isPlain, event.bytes.contains(UInt8(ascii: ",")) {
                readCommaString(key, body)
            } else {
                body(&self, event.bytes, event.span)
            }
            try advance()
            return
        }
        guard event.kind == .sequenceStart else {
            try refuse("'\(key)'", expected: "a string or a list of strings")
            return
        }
        try advance()
        while event.kind != .sequenceEnd {
            if event.kind == .scalar, !event.isNull {
                body(&self, event.bytes, event.span)
                try advance()
            } else {
                try refuse("each item of '\(key)'", expected: "a string")
            }
        }
        try advance()
    }

    private mutating func readCommaString(_ key: String, _ body: (inout YAMLLoader, UnsafeBufferPointer<UInt8>, Span) -> Void) {
        let bytes = event.bytes
        let span = event.span
        // Parts keep their own spans when the scalar is written on one line as it is read.
        let exact = span.upperBound - span.lowerBound == bytes.count
        var parts: [(UnsafeBufferPointer<UInt8>, Span)] = []
        var start = 0
        for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: ",") {
            var a = start
            var b = end
            while a < b, bytes[a] == 0x20 || bytes[a] == 0x09 { a += 1 }
            while b > a, bytes[b - 1] == 0x20 || bytes[b - 1] == 0x09 { b -= 1 }
            if a < b {
                parts.append((UnsafeBufferPointer(rebasing: bytes[a..<b]), exact ? Span(start: span.lowerBound + a, end: span.lowerBound + b) : span))
            }
            start = end + 1
        }
        let list = "[" + parts.map { String(decoding: $0.0, as: UTF8.self) }.joined(separator: ", ") + "]"
        diagnostics.append(.commaString(key, text: event.text, at: span, list: list))
        for (part, partSpan) in parts { body(&self, part, partSpan) }
    }

    /// A string value, stored in the routine's own bytes without building a `String`.
    mutating func readText(_ key: String) throws(Stop) -> (TextRef, Span)? {
        guard event.kind == .scalar, !event.isNull else {
            try refuse("'\(key)'", expected: "a string")
            return nil
        }
        let value = (builder.routine.text.add(event.bytes), event.span)
        try advance()
        return value
    }

    /// Targets, `end` or node IDs, one or a list, appended to the routine's edges.
    mutating func readTargets(_ key: String) throws(Stop) -> EdgeRange {
        let start = builder.routine.edges.count
        try readWords(key) { loader, bytes, span in
            if bytes.count == 3, bytes[0] == UInt8(ascii: "e"), bytes[1] == UInt8(ascii: "n"), bytes[2] == UInt8(ascii: "d") {
                loader.builder.routine.edges.append(Edge(.end, span: span))
            } else if isIdentifier(bytes) {
                let target = loader.builder.reference(bytes)
                loader.builder.routine.edges.append(Edge(target, span: span))
            } else {
                loader.diagnostics.append(.invalidIdentifier(String(decoding: bytes, as: UTF8.self), at: span, form: .yaml))
            }
        }
        return EdgeRange(start: UInt32(start), count: UInt32(builder.routine.edges.count - start))
    }

    /// A node ID for `habit:` or `question:`, stored in the routine's own bytes.
    mutating func readID(_ key: String) throws(Stop) -> (TextRef, Span)? {
        guard event.kind == .scalar, !event.isNull else { return try readText(key) }
        guard isIdentifier(event.bytes) else {
            diagnostics.append(.invalidIdentifier(event.text, at: event.span, form: .yaml))
            try advance()
            return nil
        }
        return try readText(key)
    }

    /// Reads the number of `target` or `at-most` (`key`).
    mutating func readTarget(_ key: String) throws(Stop) -> (Double, Span)? {
        guard event.kind == .scalar, !event.isNull else {
            try refuse("'\(key)'", expected: "a number")
            return nil
        }
        let text = Substring(event.text)
        let span = event.span
        try advance()
        guard
            NumberText.parse(text) != nil || text.contains(where: { $0 == "e" || $0 == "E" })
                || AttributeValues.numberAndWord(text) != nil
        else {
            diagnostics.append(.wrongType("'\(key)'", expected: "a number", found: "'\(text.prefix(40))'", at: span))
            return nil
        }
        switch AttributeValues.targetAmount(text, span: span, form: .yaml, atMost: key == "at-most") {
        case .success(let amount): return (amount, span)
        case .failure(let diagnostic):
            diagnostics.append(diagnostic)
            return nil
        }
    }
}

/// Whether `bytes` is a valid node ID: `[A-Za-z_][A-Za-z0-9_-]*` and not a keyword, the same
/// rule as in `.rt` files, so every YAML routine can be written as `.rt`.
func isIdentifier(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = bytes.first, Lexer.isIdentifierStart(first), bytes.allSatisfy(Lexer.isIdentifierByte) else { return false }
    return Lexer.keyword(bytes) == nil
}

func isIdentifier(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { isIdentifier($0) }
}
