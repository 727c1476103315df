import RoutineKit

extension LanguageServer {
    /// Completion in a test file: its keywords, node IDs of the kind a line names, results,
    /// and at `answer` the options, those of the question asked at that point first.
    func testCompletion(_ test: ScenarioSnapshot, _ params: JSON) throws(ResponseError) -> JSON {
        guard let position = Position(params["position"]) else { throw .invalidParams("the request has no valid position") }
        let offset = try test.positions.offset(position)
        let bytes = test.file.bytes
        var lineStart = offset
        while lineStart > 0, bytes[lineStart - 1] != 0x0A, bytes[lineStart - 1] != 0x0D { lineStart -= 1 }
        let before = String(decoding: bytes[lineStart..<offset], as: UTF8.self)
        if before.contains("#") { return [] }
        var wordStart = offset
        while wordStart > lineStart, bytes[wordStart - 1] != 0x20, bytes[wordStart - 1] != 0x09 { wordStart -= 1 }
        let words = String(decoding: bytes[lineStart..<wordStart], as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        func items(_ labels: [(String, String?)], from start: Int = wordStart, kind: Int = 14) -> JSON {
            let range = test.positions.range(Span(start: start, end: offset))
            return .array(
                labels.enumerated().map { k, label in
                    var fields: [String: JSON] = [
                        "label": .string(label.0), "kind": JSON(kind), "textEdit": ["range": range, "newText": .string(label.0)],
                        "sortText": .string(String(1000 + k)),
                    ]
                    if let detail = label.1 { fields["detail"] = .string(detail) }
                    return .object(fields)
                })
        }
        let routine = test.routine?.routine
        func ids(_ keep: (Int) -> Bool) -> JSON {
            guard let routine else { return [] }
            return items((0..<routine.nodeCount).filter(keep).map { (routine.id(of: $0), routine.title(of: $0)) }, kind: 6)
        }
        var rest = words.dropFirst()
        switch words.first {
        case nil:
            let keywords =
                test.parsed.cases.isEmpty && test.parsed.routinePath == nil ? ScenarioParser.keywords : Array(ScenarioParser.keywords.dropFirst())
            return items(keywords.map { ($0, nil) })
        case "weekday": return rest.isEmpty ? items(Weekdays.dayNames.map { ($0, nil) }) : []
        case "do":
            return rest.isEmpty ? items([("d", "done"), ("s", "skip"), ("b", "back"), ("q", "quit")]) : []
        case "answer":
            var start = lineStart
            while start < offset, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            start += "answer ".utf8.count
            return start <= offset ? answerItems(test, at: offset, from: start, items: items) : []
        case "expect":
            if rest.first == "next" || rest.first == "eventually" { rest = rest.dropFirst() }
            guard let kind = rest.first else {
                let strict = words.count == 2
                return items((strict ? ["habit", "question", "value", "end"] : Array(ScenarioParser.expectations)).map { ($0, nil) })
            }
            let arguments = rest.dropFirst()
            switch (kind, arguments.count) {
            case ("habit", 0): return ids { !routine!.isQuestion($0) }
            case ("habit", 1): return items(["done", "skipped", "not-scheduled"].map { ($0, nil) })
            case ("habit", 2) where arguments.last == "not-scheduled":
                return items([("done-by-log", "a log had done it that day"), ("done-by-run", "an earlier run had done it that day")])
            case ("value", 0): return ids { routine!.target(of: $0) != nil }
            case ("question", 0): return ids { routine!.isQuestion($0) }
            case ("not-reached", 0): return ids { _ in true }
            case ("end", 0): return items([("completed", nil), ("quit", nil)])
            default: return []
            }
        default:
            return []
        }
    }

    /// The options of every question, the question the case is at on this line first.
    private func answerItems(_ test: ScenarioSnapshot, at offset: Int, from start: Int, items: ([(String, String?)], Int, Int) -> JSON) -> JSON {
        guard let routine = test.routine?.routine else { return [] }
        var asked: Int?
        if let testCase = test.parsed.cases.last(where: { $0.span.lowerBound < offset }) {
            var upTo = testCase
            upTo.steps = testCase.steps.filter { $0.span.upperBound < start }
            upTo.history = nil
            asked = ScenarioRunner.run(upTo, routine: routine).waitingAt
        }
        var order = (0..<routine.nodeCount).filter { routine.isQuestion($0) }
        if let asked, let k = order.firstIndex(of: asked) { order.insert(order.remove(at: k), at: 0) }
        var labels: [(String, String?)] = []
        var seen = Set<String>()
        for node in order {
            for k in 0..<routine.optionCount(of: node) {
                let text = ScenarioText.argument(routine.answer(k, of: node))
                if seen.insert(text).inserted { labels.append((text, "\(routine.id(of: node)): \(routine.title(of: node))")) }
            }
        }
        return items(labels, start, 12)
    }
}
