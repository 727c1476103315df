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

    /// Targets: `end` or node IDs, one or a list.
    mutating func readTargets(_ key: String) throws(Stop) -> [Edge] {
        // Collected in a reused buffer, so each list is allocated once at its final size.
        edgeScratch.removeAll(keepingCapacity: true)
        try readWords(key) { loader in
            let span = loader.event.span
            if loader.event.equals("end") {
                loader.edgeScratch.append(Edge(.end, span: span))
            } else if isIdentifier(loader.event.bytes) {
                loader.edgeScratch.append(Edge(loader.builder.reference(loader.event.bytes), span: span))
            } else {
                loader.diagnostics.append(.invalidIdentifier(loader.event.text, at: span))
            }
        }
        return Array(edgeScratch)
    }

    /// A node ID for `habit:` or `question:`.
    mutating func readID(_ key: String) throws(Stop) -> (String, Span)? {
        guard let (id, span) = try readString(key) else { return nil }
        guard isIdentifier(id) else {
            diagnostics.append(.invalidIdentifier(id, at: span))
            return nil
        }
        return (id, span)
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
        guard NumberText.parse(text) != nil || text.contains(where: { $0 == "e" || $0 == "E" }) else {
            diagnostics.append(.wrongType("target", expected: "a number", found: "'\(text.prefix(40))'", at: span))
            return nil
        }
        switch AttributeValues.targetAmount(text, span: span) {
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
