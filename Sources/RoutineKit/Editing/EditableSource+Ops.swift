/// Each op as edits of the source.
extension EditableSource {
    func edits(for op: RoutineEditOp, fileName: String, message: inout String?) throws(Diagnostic) -> [TextEdit] {
        switch op {
        case .addHabit(let id, let title, let after, _):
            let id = try newID(id, title: title, kind: .habit)
            return try adding("habit \(id) \(StringLiteral.encode(title))", after: after, fileName: fileName)
        case .addQuestion(let id, let text, let options, let after, _):
            let id = try newID(id, title: text, kind: .question)
            var lines = "question \(id) \(StringLiteral.encode(text))"
            for option in options { lines += newline + "  " + StringLiteral.encode(option) }
            return try adding(lines, after: after, fileName: fileName)
        case .connect(let from, let option, let to):
            return try connecting(from, option: option, to: to)
        case .disconnect(let from, let option, let to):
            let index = try node(from)
            let list = arrows(of: index, option: try answer(option, of: index))
            let names = list.edges.map { routine.name(of: $0.target) }
            guard let k = names.firstIndex(of: to) else { throw .doesNotLead(from, to: to) }
            return removing([k], from: list)
        case .setTitle(let id, let title):
            return [TextEdit(routine.nodes[try node(id)].titleSpan, StringLiteral.encode(title))]
        case .setAttributes(let id, let changes):
            return try settingAttributes(of: try node(id), changes)
        case .addOption(let id, let text):
            let index = try question(id)
            let last = routine.nodes[index].options.last!
            let end = answerEnd(last)
            let indent =
                lineStart(last.textSpan.lowerBound) == lineStart(routine.idSpan(of: index).lowerBound)
                ? "  " : indent(at: last.textSpan.lowerBound)
            return [TextEdit(Span(at: lineEnd(end)), newline + indent + StringLiteral.encode(text))]
        case .removeOption(let id, let option):
            let index = try question(id)
            let option = try answer(option, of: index)!
            let lines = answerLines(routine.nodes[index].options[option])
            return [TextEdit(Span(start: lines.lowerBound, end: lines.upperBound), "")]
        case .moveOption(let id, let option, let to):
            let index = try question(id)
            let from = try answer(option, of: index)!
            let to = try answer(to, of: index)!
            guard from != to else { return [] }
            let options = routine.nodes[index].options
            let moved = answerLines(options[from])
            let there = answerLines(options[to])
            var block = String(decoding: bytes[moved], as: UTF8.self)
            var removed = Span(start: moved.lowerBound, end: moved.upperBound)
            let endsOpen = bytes.last != 0x0A && bytes.last != 0x0D
            if endsOpen, moved.upperBound == bytes.count {
                // The file's last line has no line break: the break before it goes with it.
                block += newline
                removed = Span(start: moved.lowerBound - newline.utf8.count, end: moved.upperBound)
            }
            let insertAt = to < from ? there.lowerBound : there.upperBound
            var prefix = ""
            if endsOpen, to > from, there.upperBound == bytes.count {
                prefix = newline
                block = String(block.dropLast())
            }
            return [TextEdit(removed, ""), TextEdit(Span(at: insertAt), prefix + block)]
        case .rename(let id, let newID):
            let index = try node(id)
            if newID == id { return [] }
            try checkNewID(newID)
            var edits = [TextEdit(routine.idSpan(of: index), newID)]
            var lists: [[Edge]] = [routine.explicitStart]
            for node in routine.nodes {
                lists.append(node.next)
                for option in node.options { lists.append(option.next) }
            }
            for list in lists {
                for edge in list where edge.target == .node(index) { edits.append(TextEdit(edge.span, newID)) }
            }
            return edits
        case .delete(let id):
            return try deleting(try node(id), message: &message)
        case .setName(let name):
            guard !name.allSatisfy(\.isWhitespace) else { throw .emptyRoutineName() }
            if tokens.count == 1 {
                let head = bytes.isEmpty || bytes.last == 0x0A || bytes.last == 0x0D ? "" : newline
                return [TextEdit(Span(at: bytes.count), head + "routine " + StringLiteral.encode(name) + newline)]
            }
            return [TextEdit(routine.nameSpan, StringLiteral.encode(name))]
        case .together:
            // Each op of a group sees the text the one before it left: ``RoutineEditor`` applies them one by one.
            throw .refused("a group of edits cannot be one text edit")
        }
    }

    // MARK: Lookups that refuse

    func node(_ id: String) throws(Diagnostic) -> Int {
        guard let index = byID[id] else { throw .unknownNode(id) }
        return index
    }

    func question(_ id: String) throws(Diagnostic) -> Int {
        let index = try node(id)
        guard routine.isQuestion(index) else { throw .habitHasNoAnswers(id) }
        return index
    }

    /// `option` checked against node `index`'s answers; nil stays nil.
    func answer(_ option: Int?, of index: Int) throws(Diagnostic) -> Int? {
        guard let option else { return nil }
        guard routine.isQuestion(index) else { throw .habitHasNoAnswers(routine.id(of: index)) }
        let count = routine.optionCount(of: index)
        guard (0..<count).contains(option) else { throw .noSuchAnswer(option, of: routine.id(of: index), count: count) }
        return option
    }

    func checkNewID(_ name: String) throws(Diagnostic) {
        if Identifiers.keywords.contains(name) { throw .keywordAsID(name) }
        guard Identifiers.isValid(name) else { throw .invalidNewID(name) }
        if byID[name] != nil { throw .takenID(name) }
    }

    func newID(_ given: String?, title: String, kind: RoutineNode.Kind) throws(Diagnostic) -> String {
        if let given {
            try checkNewID(given)
            return given
        }
        return RoutineEditor.makeID(from: title, kind: kind, taken: Set(byID.keys))
    }

    // MARK: Ops with more to them

    /// A new declaration after node `after`'s, or at the end; an empty file gets its routine line first.
    func adding(_ declaration: String, after: String?, fileName: String) throws(Diagnostic) -> [TextEdit] {
        if let after {
            let range = self.declaration(try node(after))
            let end = lineEnd(tokens[range.upperBound - 1].span.upperBound)
            return [TextEdit(Span(at: end), newline + declaration)]
        }
        if tokens.count == 1 {
            var name = fileName.split(separator: "/").last.map(String.init) ?? "Routine"
            if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
            if name.isEmpty { name = "Routine" }
            let head = bytes.isEmpty || bytes.last == 0x0A || bytes.last == 0x0D ? "" : newline
            return [TextEdit(Span(at: bytes.count), head + "routine " + StringLiteral.encode(name) + newline + newline + declaration + newline)]
        }
        // At the end: after a blank line, unless the last two declarations were written together.
        var head = bytes.last == 0x0A || bytes.last == 0x0D ? "" : newline
        if routine.nodeCount < 2 || isSeparated(routine.nodeCount - 1) { head += newline }
        return [TextEdit(Span(at: bytes.count), head + declaration + newline)]
    }

    /// Whether a blank line stands before node `index`'s declaration.
    func isSeparated(_ index: Int) -> Bool {
        let start = tokens[declaration(index).lowerBound].span.lowerBound
        let line = lineStart(start)
        return line == 0 || isBlankLine(at: line - 1)
    }

    func connecting(_ from: String, option: Int?, to: String) throws(Diagnostic) -> [TextEdit] {
        let index = try node(from)
        let option = try answer(option, of: index)
        if to != "end" { _ = try node(to) }
        let list = arrows(of: index, option: option)
        if list.edges.contains(where: { routine.name(of: $0.target) == to }) { throw .alreadyLeads(from, to: to) }
        if let last = list.edges.last { return [TextEdit(Span(at: last.span.upperBound), ", " + to)] }
        if option == nil, routine.isQuestion(index), let answer = routine.nodes[index].options.last {
            let end = lineEnd(answerEnd(answer))
            let indent =
                lineStart(answer.textSpan.lowerBound) == lineStart(routine.idSpan(of: index).lowerBound)
                ? "  " : indent(at: answer.textSpan.lowerBound)
            return [TextEdit(Span(at: end), newline + indent + "then -> " + to)]
        }
        return [TextEdit(Span(at: list.insertAt), " -> " + to)]
    }

    /// Removes node `index`'s declaration and every arrow to it; `message` lists those arrows.
    func deleting(_ index: Int, message: inout String?) throws(Diagnostic) -> [TextEdit] {
        var edits: [TextEdit] = []
        var gone: [String] = []
        func drop(_ list: ArrowList, _ describe: String) {
            let hits = Set(list.edges.indices.filter { list.edges[$0].target == .node(index) })
            if hits.isEmpty { return }
            edits += removing(hits, from: list)
            gone.append(describe)
        }
        let id = routine.id(of: index)
        if let start = startList() { drop(start, "start -> \(id)") }
        for source in routine.nodes.indices where source != index {
            let node = routine.nodes[source]
            drop(arrows(of: source, option: nil), node.isQuestion ? "\(node.id) then -> \(id)" : "\(node.id) -> \(id)")
            for k in node.options.indices {
                drop(arrows(of: source, option: k), "\(node.id) \(StringLiteral.encode(node.options[k].text)) -> \(id)")
            }
        }
        let range = declaration(index)
        let start = lineStart(tokens[range.lowerBound].span.lowerBound)
        edits.append(removalOfLines(from: start, to: nextLineStart(tokens[range.upperBound - 1].span.upperBound)))
        message = gone.isEmpty ? "deleted '\(id)'" : "deleted '\(id)' and the arrows " + gone.joined(separator: ", ")
        return edits
    }
}
