extension YAMLLoader {
    /// A string value; null, lists and mappings are reported.
    mutating func readString(_ key: String) throws(Stop) -> (String, Span)? {
        guard event.kind == .scalar, !event.isNull else {
            diagnostics.append(.wrongType(key, expected: "a string", found: describe(), at: event.span))
            try skipValue()
            return nil
        }
        let value = (event.text, event.span)
        try advance()
        return value
    }

    /// Scalar values, from one scalar or a list of scalars.
    mutating func readWords(_ key: String, _ body: (inout YAMLLoader) -> Void) throws(Stop) {
        if event.kind == .scalar, !event.isNull {
            body(&self)
            try advance()
            return
        }
        guard event.kind == .sequenceStart else {
            diagnostics.append(.wrongType(key, expected: "a string or a list of strings", found: describe(), at: event.span))
            try skipValue()
            return
        }
        try advance()
        while event.kind != .sequenceEnd {
            if event.kind == .scalar, !event.isNull {
                body(&self)
                try advance()
            } else {
                diagnostics.append(.wrongType("each item of '\(key)'", expected: "a string", found: describe(), at: event.span))
                try skipValue()
            }
        }
        try advance()
    }

    /// A string value, stored in the routine's own bytes without building a `String`.
    mutating func readText(_ key: String) throws(Stop) -> (TextRef, Span)? {
        guard event.kind == .scalar, !event.isNull else {
            diagnostics.append(.wrongType(key, expected: "a string", found: describe(), at: event.span))
            try skipValue()
            return nil
        }
        let value = (builder.routine.text.add(event.bytes), event.span)
        try advance()
        return value
    }

    /// Targets, `end` or node IDs, one or a list, appended to the routine's edges.
    mutating func readTargets(_ key: String) throws(Stop) -> EdgeRange {
        let start = builder.routine.edges.count
        try readWords(key) { loader in
            let span = loader.event.span
            if loader.event.equals("end") {
                loader.builder.routine.edges.append(Edge(.end, span: span))
            } else if isIdentifier(loader.event.bytes) {
                let target = loader.builder.reference(loader.event.bytes)
                loader.builder.routine.edges.append(Edge(target, span: span))
            } else {
                loader.diagnostics.append(.invalidIdentifier(loader.event.text, at: span))
            }
        }
        return EdgeRange(start: UInt32(start), count: UInt32(builder.routine.edges.count - start))
    }

    /// A node ID for `habit:` or `question:`, stored in the routine's own bytes.
    mutating func readID(_ key: String) throws(Stop) -> (TextRef, Span)? {
        guard event.kind == .scalar, !event.isNull else { return try readText(key) }
        guard isIdentifier(event.bytes) else {
            diagnostics.append(.invalidIdentifier(event.text, at: event.span))
            try advance()
            return nil
        }
        return try readText(key)
    }

    mutating func readTarget() throws(Stop) -> (Double, Span)? {
        guard event.kind == .scalar, !event.isNull else {
            diagnostics.append(.wrongType("target", expected: "a number", found: describe(), at: event.span))
            try skipValue()
            return nil
        }
        let text = Substring(event.text)
        let span = event.span
        try advance()
        guard NumberText.parse(text) != nil || text.contains(where: { $0 == "e" || $0 == "E" })
            || AttributeValues.numberAndWord(text) != nil
        else {
            diagnostics.append(.wrongType("target", expected: "a number", found: "'\(text.prefix(40))'", at: span))
            return nil
        }
        switch AttributeValues.targetAmount(text, span: span, form: .yaml) {
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
