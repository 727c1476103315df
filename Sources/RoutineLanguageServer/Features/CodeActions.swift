import Glibc
import RoutineKit

extension LanguageServer {
    /// Quick fixes for the diagnostics in the range (every fix-it, and "create habit" for an
    /// unknown target), and the conversion to the other form as a source action.
    func codeActions(_ params: JSON) throws(ResponseError) -> JSON {
        let snapshot = try document(params)
        let range = try snapshot.positions.span(params["range"])
        let only = params["context"]?["only"]?.array?.compactMap(\.string)
        func wanted(_ kind: String) -> Bool { only.map { $0.contains { kind == $0 || kind.hasPrefix($0 + ".") } } ?? true }
        var actions: [JSON] = []
        let uri = JSON.string(snapshot.uri)
        func edit(_ span: Span, _ text: String) -> JSON {
            ["changes": .object([snapshot.uri: [["range": snapshot.positions.range(span), "newText": .string(text)]]])]
        }
        if wanted("quickfix") {
            for diagnostic in snapshot.loaded.diagnostics {
                guard let span = diagnostic.span, span.lowerBound <= range.upperBound, range.lowerBound <= span.upperBound else { continue }
                let shown = lspDiagnostic(diagnostic, in: snapshot)
                for (i, fix) in ([diagnostic.fixIt].compactMap { $0 } + diagnostic.alternatives).enumerated() {
                    actions.append([
                        "title": .string(fix.message), "kind": "quickfix", "diagnostics": [shown],
                        "isPreferred": .bool(i == 0 && diagnostic.fixIt != nil), "edit": edit(fix.span, fix.replacement),
                    ])
                }
                if diagnostic.code == .unknownTarget || diagnostic.code == .unknownStart, snapshot.format == .rt {
                    let name = String(decoding: snapshot.file.bytes[span.lowerBound..<span.upperBound], as: UTF8.self)
                    if Identifiers.isValid(name) {
                        actions.append([
                            "title": .string("create habit '\(name)'"), "kind": "quickfix", "diagnostics": [shown],
                            "edit": edit(Span(at: snapshot.file.bytes.count), Self.newHabit(name, after: snapshot.file.bytes)),
                        ])
                    }
                }
            }
        }
        if !snapshot.loaded.hasErrors, (try? FileURI.path(snapshot.uri).get()) != nil {
            let to = snapshot.format == .rt ? "yaml" : "rt"
            let kind = "source.convert"
            if wanted(kind) {
                actions.append([
                    "title": .string(to == "yaml" ? "convert to YAML" : "convert to .rt"), "kind": .string(kind),
                    "command": ["title": .string("convert to \(to)"), "command": "routine.convert", "arguments": [uri, .string(to)]],
                ])
            }
        }
        return .array(actions)
    }

    /// A habit declaration for `id`, titled after it, to append to a file ending in `bytes`.
    static func newHabit(_ id: String, after bytes: [UInt8]) -> String {
        var title = id.replacingDashes
        if let first = title.first { title = first.uppercased() + title.dropFirst() }
        let lead = bytes.isEmpty || bytes.last == 0x0A || bytes.last == 0x0D ? "" : "\n"
        return lead + "habit \(id) \"\(title)\"\n"
    }

    func executeCommand(_ params: JSON, id: RequestID) throws(ResponseError) -> JSON? {
        guard let command = params["command"]?.string, Self.commands.contains(command) else {
            throw .invalidParams("unknown command '\(params["command"]?.string ?? "")'")
        }
        let arguments = params["arguments"]?.array ?? []
        guard let uri = arguments.first?.string, let snapshot = documents[uri] else {
            throw .invalidParams("the command's first argument must be the URI of an open document")
        }
        // Decoded before anything else, so that no file is touched under a name the URI does not spell.
        let path: String
        switch FileURI.path(uri) {
        case .success(let decoded): path = decoded
        case .failure(let refusal): throw .requestFailed(refusal.reason)
        }
        if command == "routine.convert" {
            guard snapshot.loaded.hasErrors == false else { throw .requestFailed("the routine has errors; fix them before converting it") }
            let to: SourceFormat = arguments.count > 1 && arguments[1].string == "rt" ? .rt : .yaml
            return later(id) { () throws(ResponseError) -> JSON in try self.convert(snapshot, to: to, path: path) }
        }
        return later(id) { () throws(ResponseError) -> JSON in try self.showGraph(snapshot, path: path) }
    }

    /// Writes the routine in the other form next to its file, never over an existing file.
    private func convert(_ snapshot: Snapshot, to: SourceFormat, path: String) throws(ResponseError) -> JSON {
        let target = Self.replacingExtension(of: path, with: to == .yaml ? "yaml" : "rt")
        let loaded = snapshot.loaded
        let text =
            to == .yaml
            ? YAMLWriter.write(loaded.routine)
            : RoutinePrinter.print(loaded.routine, layout: loaded.format == .rt ? SourceLayout(file: loaded.file, comments: loaded.comments) : nil)
        // Created, never replaced: a file of that name, even one made while this was written, is kept.
        if case .failure(let diagnostic) = AtomicFile.write(Array(text.utf8), to: target, purpose: .create) {
            throw .requestFailed(diagnostic.message)
        }
        if to == .yaml, !loaded.comments.isEmpty {
            let n = loaded.comments.count
            showMessage("\(n) comment\(n == 1 ? "" : "s") cannot be carried into YAML and \(n == 1 ? "was" : "were") left out", type: 3)
        }
        let uri = FileURI.uri(of: target)
        showDocument(uri, external: false)
        return ["uri": .string(uri)]
    }

    /// Renders the buffer with Graphviz into an SVG next to its file and asks the client to
    /// open it. The SVG is new, or one this server drew before (it carries `drawingMark`);
    /// never the document, a file someone else made, or a file behind a symbolic link.
    private func showGraph(_ snapshot: Snapshot, path: String) throws(ResponseError) -> JSON {
        let target = Self.replacingExtension(of: path, with: "svg")
        guard target != path else {
            throw .requestFailed("cannot write the drawing '\(target)': it would replace the document itself; rename the routine's file")
        }
        let loaded = snapshot.loaded
        var view = GraphView(loaded.routine, showProblems: loaded.hasErrors)
        view.comment = Self.drawingMark
        if loaded.hasErrors { view.markInvalidAttributes(loaded.diagnostics, in: loaded.file) }
        let purpose = AtomicFile.Purpose.replaceOwn(marker: Self.drawingMarkInSVG, sparing: FileIdentity.of(path))
        let (failure, _) = DOTWriter.writeBytes(view).withBytes { GraphvizRenderer.render($0, as: "svg", to: target, purpose: purpose) }
        if let failure { throw .requestFailed(failure.message) }
        let uri = FileURI.uri(of: target)
        showDocument(uri, external: true)
        return ["uri": .string(uri)]
    }

    /// Written into every drawing as a comment, by which a later drawing knows it may replace it.
    static let drawingMark = "drawn by the routine language server; it redraws this file"
    /// The mark as Graphviz writes it into an SVG.
    static let drawingMarkInSVG = Array("<!-- \(drawingMark) -->".utf8)

    func showMessage(_ text: String, type: Int) {
        send(Outgoing.notification("window/showMessage", ["type": JSON(type), "message": .string(text)]))
    }

    private func showDocument(_ uri: String, external: Bool) {
        guard canShowDocuments else {
            showMessage("wrote \((try? FileURI.path(uri).get()) ?? uri)", type: 3)
            return
        }
        let id = nextRequestID.withLock { n in
            n += 1
            return n
        }
        send(Outgoing.request(id, "window/showDocument", ["uri": .string(uri), "external": .bool(external), "takeFocus": true]))
    }

    static func replacingExtension(of path: String, with ext: String) -> String {
        // By bytes: a slash or a dot followed by a combining mark is one Character, but still a slash or a dot.
        let bytes = path.utf8
        let slash = bytes.lastIndex(of: UInt8(ascii: "/")).map { bytes.index(after: $0) } ?? bytes.startIndex
        if let dot = bytes[slash...].lastIndex(of: UInt8(ascii: ".")), dot > slash { return String(path[..<dot]) + "." + ext }
        return path + "." + ext
    }
}

extension String {
    var replacingDashes: String { String(map { $0 == "-" || $0 == "_" ? " " : $0 }) }
}
