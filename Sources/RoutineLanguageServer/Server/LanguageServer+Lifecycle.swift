import RoutineKit

extension LanguageServer {
    static let commands = ["routine.showGraph", "routine.convert"]

    func initialize(_ params: JSON) -> JSON {
        initialized = true
        let offered = params["capabilities"]?["general"]?["positionEncodings"]?.array?.compactMap(\.string) ?? []
        // UTF-8 saves converting every position; UTF-16 is what every client must accept.
        encoding = offered.contains("utf-8") ? .utf8 : .utf16
        canShowDocuments = params["capabilities"]?["window"]?["showDocument"]?["support"]?.bool ?? false
        if let url = params["initializationOptions"]?["documentation"]?.string { documentation = url }
        let capabilities: JSON = [
            "positionEncoding": .string(encoding.rawValue),
            // Incremental: a keystroke sends its few bytes, not the whole text.
            "textDocumentSync": ["openClose": true, "change": 2],
            "definitionProvider": true,
            "referencesProvider": true,
            "documentHighlightProvider": true,
            "renameProvider": ["prepareProvider": true],
            "completionProvider": ["triggerCharacters": [">", ",", " "]],
            "hoverProvider": true,
            "documentSymbolProvider": true,
            "foldingRangeProvider": true,
            "documentFormattingProvider": true,
            "semanticTokensProvider": [
                "legend": [
                    "tokenTypes": .array(SemanticTokenLegend.types.map { .string($0) }),
                    "tokenModifiers": .array(SemanticTokenLegend.modifiers.map { .string($0) }),
                ],
                "full": true,
            ],
            "codeActionProvider": ["codeActionKinds": ["quickfix", "source"]],
            "codeLensProvider": ["resolveProvider": false],
            "executeCommandProvider": ["commands": .array(Self.commands.map { .string($0) })],
        ]
        return ["capabilities": capabilities, "serverInfo": ["name": "routine", "version": "1.0"]]
    }

    /// Applies an open, change or close, and publishes the document's diagnostics unless
    /// `publish` is false (a later change to it is already waiting).
    public func documentChanged(_ method: String, _ params: JSON, publish: Bool) throws(ResponseError) {
        guard let uri = params["textDocument"]?["uri"]?.string else { throw .invalidParams("no textDocument.uri") }
        let version = params["textDocument"]?["version"]?.int
        let isTest = ScenarioSnapshot.isTestFile(uri: uri, languageId: params["textDocument"]?["languageId"]?.string) || testDocuments[uri] != nil
        var format: SourceFormat?
        let text: [UInt8]
        var positions: PositionMap?
        switch method {
        case "textDocument/didOpen":
            guard let opened = params["textDocument"]?["text"]?.string else { throw .invalidParams("no textDocument.text") }
            text = Array(opened.utf8)
            format = params["textDocument"]?["languageId"]?.string == "yaml" ? .yaml : nil
        case "textDocument/didChange":
            let open = documents[uri]
            let openTest = testDocuments[uri]
            guard let openText = open?.file.bytes ?? openTest?.file.bytes else { throw .invalidParams("document '\(uri)' is not open") }
            guard let changes = params["contentChanges"]?.array else { throw .invalidParams("no contentChanges") }
            var edited = openText
            // The lines of `edited` when known: those of the open version, carried through each
            // ranged change, so that a keystroke does not scan the whole text for its position.
            var map: PositionMap?
            var isOpenText = true
            for change in changes {
                guard let replacement = change["text"]?.string else { throw .invalidParams("a change without text") }
                if let range = change["range"] {
                    // Each ranged change is in the positions of the text the previous one left.
                    let lines =
                        map ?? (isOpenText ? open?.positions ?? openTest?.positions : nil)
                        ?? PositionMap(SourceFile(name: "", bytes: edited), encoding: encoding)
                    let span = try lines.span(range)
                    let inserted = Array(replacement.utf8)
                    edited.replaceSubrange(span.lowerBound..<span.upperBound, with: inserted)
                    map = lines.replacing(span, insertedCount: inserted.count, giving: edited)
                } else {
                    edited = Array(replacement.utf8)
                    map = nil
                }
                isOpenText = false
            }
            text = edited
            positions = map
            if let old = documents[uri] { format = old.file.formatFromExtension == nil ? old.format : nil }
        default:
            documents[uri] = nil
            testDocuments[uri] = nil
            send(Outgoing.notification("textDocument/publishDiagnostics", ["uri": .string(uri), "diagnostics": []]))
            return
        }
        if isTest {
            testDocuments[uri] = ScenarioSnapshot(
                uri: uri, version: version, text: text, encoding: encoding, routine: { self.routineForTest(at: $0) })
            if publish, let test = testDocuments[uri] { publishDiagnostics(test) }
            return
        }
        // The version replaced is let go of only once the new one's diagnostics are sent: freeing
        // a large routine's arrays and strings then overlaps with the client reading them.
        let replaced = documents[uri]
        documents[uri] = Snapshot(
            uri: uri, version: version, text: text, format: format, encoding: encoding, positions: positions, previous: replaced)
        if publish, let snapshot = documents[uri] {
            publishDiagnostics(snapshot)
            // The open test files of this routine are checked again against what it now says.
            for test in testDocuments.values where test.routinePath == snapshot.file.name {
                testDocuments[test.uri] = test.rechecked(routine: snapshot.loaded)
                publishDiagnostics(testDocuments[test.uri]!)
            }
        }
        withExtendedLifetime(replaced) {}
    }

    func publishDiagnostics(_ snapshot: Snapshot) {
        publish(snapshot.loaded.diagnostics, uri: snapshot.uri, version: snapshot.version, positions: snapshot.positions)
    }

    func publishDiagnostics(_ test: ScenarioSnapshot) {
        publish(test.diagnostics, uri: test.uri, version: test.version, positions: test.positions)
    }

    /// `positions` are asked for only when there is a diagnostic to place.
    private func publish(_ diagnostics: [Diagnostic], uri: String, version: Int?, positions: @autoclosure () -> PositionMap) {
        let placed: JSON = diagnostics.isEmpty ? [] : .raw(diagnosticBytes(diagnostics, uri: uri, positions: positions()))
        var params: JSON = ["uri": .string(uri), "diagnostics": placed]
        if let version, case .object(var fields) = params {
            fields["version"] = JSON(version)
            params = .object(fields)
        }
        send(Outgoing.notification("textDocument/publishDiagnostics", params))
    }

    /// Past a hundred places a list is not read, and every keystroke would resend it.
    static let relatedListed = 100

    func lspDiagnostic(_ diagnostic: Diagnostic, in snapshot: Snapshot) -> JSON {
        lspDiagnostic(diagnostic, uri: snapshot.uri, positions: snapshot.positions)
    }

    /// A diagnostic as LSP shows it: code, its explanation's address, related places (every
    /// secondary label and located note, so a cycle lists each of its arrows).
    func lspDiagnostic(_ diagnostic: Diagnostic, uri: String, positions: PositionMap) -> JSON {
        let span = diagnostic.span ?? Span(at: 0)
        var fields: [String: JSON] = [
            "range": positions.range(span),
            "severity": JSON(diagnostic.severity == .error ? 1 : diagnostic.severity == .warning ? 2 : 3),
            "code": .string(diagnostic.code.rawValue),
            "source": "routine",
            "message": .string(diagnostic.message),
        ]
        if let documentation { fields["codeDescription"] = ["href": .string(documentation + "#diagnostics")] }
        var related: [JSON] = diagnostic.secondary.map { label in
            ["location": ["uri": .string(uri), "range": positions.range(label.span)], "message": .string(label.message)]
        }
        for note in diagnostic.notes where !note.summarizesRelated {
            related.append(["location": ["uri": .string(uri), "range": positions.range(note.span ?? span)], "message": .string(note.message)])
        }
        if let fix = diagnostic.fixIt {
            related.append(["location": ["uri": .string(uri), "range": positions.range(fix.span)], "message": .string("help: " + fix.message)])
        }
        let listed = Self.relatedListed
        for label in diagnostic.related.prefix(listed) {
            related.append(["location": ["uri": .string(uri), "range": positions.range(label.span)], "message": .string(label.message)])
        }
        if diagnostic.related.count > listed {
            related.append([
                "location": ["uri": .string(uri), "range": positions.range(span)],
                "message": .string("and \(diagnostic.related.count - listed) more"),
            ])
        }
        if !related.isEmpty { fields["relatedInformation"] = .array(related) }
        if diagnostic.code == .unreachableNode { fields["tags"] = [1] }
        return .object(fields)
    }
}
