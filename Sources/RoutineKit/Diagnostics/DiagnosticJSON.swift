extension Diagnostic {
    /// The diagnostic as a JSON object for `--format json`: positions are 1-based, columns count characters.
    public func json(in file: SourceFile, table: inout LineTable) -> JSONValue {
        func position(_ span: Span?) -> [(String, JSONValue)] {
            guard let span else { return [("line", .null), ("column", .null), ("endLine", .null), ("endColumn", .null)] }
            let start = table.locate(span.lowerBound)
            let end = table.locate(span.upperBound)
            return [("line", .int(start.line)), ("column", .int(start.column)), ("endLine", .int(end.line)), ("endColumn", .int(end.column))]
        }
        var members: [(String, JSONValue)] = [("file", .string(file.name))]
        members += position(span)
        members += [("severity", .string(severity.rawValue)), ("code", .string(code.rawValue)), ("message", .string(message))]
        if let label { members.append(("label", .string(label))) }
        members.append(("labels", .array(secondary.map { .object([("message", .string($0.message))] + position($0.span)) })))
        members.append(
            (
                "notes",
                .array(
                    notes.map { note in
                        .object([("message", .string(note.message))] + (note.span.map { position($0) } ?? []))
                    })
            ))
        if !related.isEmpty {
            members.append(("related", .array(related.map { .object([("message", .string($0.message))] + position($0.span)) })))
        }
        func object(_ fix: FixIt) -> JSONValue {
            .object([("message", .string(fix.message)), ("replacement", .string(fix.replacement))] + position(fix.span))
        }
        if let fixIt { members.append(("fixIt", object(fixIt))) }
        if !alternatives.isEmpty { members.append(("alternatives", .array(alternatives.map(object)))) }
        return .object(members)
    }
}
