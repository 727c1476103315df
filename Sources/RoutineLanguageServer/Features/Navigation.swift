import RoutineKit

extension LanguageServer {
    func location(_ span: Span, in snapshot: Snapshot) -> JSON {
        ["uri": .string(snapshot.uri), "range": snapshot.positions.range(span)]
    }

    /// A target goes to its node's declaration; a declaration to itself.
    func definition(_ params: JSON) throws(ResponseError) -> JSON {
        let (snapshot, offset) = try located(params)
        guard let node = snapshot.index.occurrence(at: offset)?.node else { return .null }
        return location(snapshot.routine.idSpan(of: node), in: snapshot)
    }

    /// Every arrow and start entry naming the node, and its declaration when the client asks.
    func references(_ params: JSON) throws(ResponseError) -> JSON {
        let (snapshot, offset) = try located(params)
        guard let node = snapshot.index.occurrence(at: offset)?.node else { return [] }
        let withDeclaration = params["context"]?["includeDeclaration"]?.bool ?? true
        let spans = snapshot.index.spans(of: node).filter { withDeclaration || !$0.isDeclaration }
        return .array(spans.map { location($0.span, in: snapshot) })
    }

    /// The ID under the cursor everywhere in the file: its declaration written, references read.
    func highlights(_ params: JSON) throws(ResponseError) -> JSON {
        let (snapshot, offset) = try located(params)
        guard let occurrence = snapshot.index.occurrence(at: offset) else { return .null }
        let spans: [(span: Span, isDeclaration: Bool)]
        if let node = occurrence.node {
            spans = snapshot.index.spans(of: node)
        } else {
            // `end`, or a name no node declares: its other mentions.
            spans = snapshot.index.occurrences.filter { $0.node == nil && $0.name == occurrence.name }.map { ($0.span, false) }
        }
        return .array(spans.map { ["range": snapshot.positions.range($0.span), "kind": JSON($0.isDeclaration ? 3 : 2)] })
    }

    /// The ID that would be renamed, or an error saying why there is none.
    private func renameTarget(_ snapshot: Snapshot, _ offset: Int) throws(ResponseError) -> SymbolIndex.Occurrence {
        guard snapshot.format == .rt else { throw .requestFailed("rename works in .rt files; this one is YAML") }
        guard let occurrence = snapshot.index.occurrence(at: offset) else { throw .requestFailed("there is no node ID here to rename") }
        guard occurrence.node != nil else {
            throw .requestFailed(occurrence.name == "end" ? "'end' is a keyword, not a node" : "no node is named '\(occurrence.name)'")
        }
        return occurrence
    }

    func prepareRename(_ params: JSON) throws(ResponseError) -> JSON {
        let (snapshot, offset) = try located(params)
        let occurrence = try renameTarget(snapshot, offset)
        return ["range": snapshot.positions.range(occurrence.span), "placeholder": .string(occurrence.name)]
    }

    func rename(_ params: JSON) throws(ResponseError) -> JSON {
        let (snapshot, offset) = try located(params)
        let occurrence = try renameTarget(snapshot, offset)
        guard let newName = params["newName"]?.string else { throw .invalidParams("rename needs a newName") }
        if newName == occurrence.name { return ["changes": [:]] }
        if Identifiers.keywords.contains(newName) {
            throw .requestFailed("'\(newName)' is a keyword and cannot be a node ID")
        }
        guard Identifiers.isValid(newName) else {
            throw .requestFailed("'\(newName)' is not a valid ID: an ID starts with a letter or '_' and holds letters, digits, '_' and '-'")
        }
        if snapshot.index.occurrences.contains(where: { $0.isDeclaration && $0.name == newName }) {
            throw .requestFailed("a node is already named '\(newName)'")
        }
        let edits = snapshot.index.spans(of: occurrence.node!).map { span, _ in
            ["range": snapshot.positions.range(span), "newText": .string(newName)] as JSON
        }
        return ["changes": .object([snapshot.uri: .array(edits)])]
    }
}
