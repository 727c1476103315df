extension YAMLLoader {
    /// The top-level mapping: `routine`, `start`, `nodes`.
    mutating func readTop() throws(Stop) {
        let mappingSpan = event.span
        var sawName = false
        var sawNodes = false
        try forEachKey(among: YAMLKey.top, place: "the routine") { loader, key, keySpan throws(Stop) in
            switch key {
            case .routine:
                sawName = true
                if let (name, span) = try loader.readString("routine") { loader.builder.setName(name, span: span) }
            case .start:
                let edges = try loader.readTargets("start")
                loader.builder.setStart(Array(loader.builder.routine.edges[edges.range]), span: keySpan)
                loader.builder.routine.edges.removeSubrange(edges.range)
            default:
                sawNodes = true
                try loader.readNodes()
            }
        }
        if !sawName { diagnostics.append(.missingKey("routine", in: "the routine", at: mappingSpan, note: "name the routine: 'routine: Morning'")) }
        if !sawNodes {
            diagnostics.append(.missingKey("nodes", in: "the routine", at: mappingSpan, note: "list the habits and questions under 'nodes:'"))
        }
    }

    private mutating func readNodes() throws(Stop) {
        guard event.kind == .sequenceStart else {
            try refuse("'nodes'", expected: "a list of habits and questions")
            return
        }
        try advance()
        while event.kind != .sequenceEnd {
            if event.kind == .mappingStart {
                try readNode()
            } else {
                try refuse("each node", expected: "a mapping such as '- habit: water'")
            }
        }
        try advance()
    }

    /// Reads one node straight into a record: its texts go to the routine's own bytes, its
    /// options and arrows to the routine's arrays as they are read, and a node that turns out
    /// to have no kind takes them back.
    private mutating func readNode() throws(Stop) {
        let mappingSpan = event.span
        let firstDiagnostic = diagnostics.count
        let optionMark = builder.routine.optionRecords.count
        let edgeMark = builder.routine.edges.count
        var node = NodeRecord(
            id: .none, title: .none, firstOption: UInt32(optionMark), idSpan: mappingSpan, titleSpan: mappingSpan,
            kind: .habit)
        var kindSpan: Span?
        var sawKindKey = false
        var unitSpan: Span?
        var sawTitle = false
        var emptyOptions: Span?
        let keys = try forEachKey(among: YAMLKey.node, place: "a node") { loader, key, keySpan throws(Stop) in
            switch key {
            case .habit, .question:
                sawKindKey = true
                guard let (id, span) = try loader.readID(key.rawValue) else { return }
                if let first = kindSpan {
                    let id = loader.builder.routine.text.string(node.id)
                    loader.diagnostics.append(.conflictingKind(id, at: keySpan, first: first))
                    return
                }
                kindSpan = keySpan
                node.kind = key == .habit ? .habit : .question
                node.id = id
                node.idSpan = span
            case .title, .prompt:
                sawTitle = true
                if let (title, span) = try loader.readText(key.rawValue) {
                    node.title = title
                    node.titleSpan = span
                } else {
                    // Reported already; a placeholder keeps "title is empty" from following.
                    node.title = loader.builder.routine.text.add("?")
                }
            case .for:
                guard let (text, span) = try loader.readString("for") else { return }
                switch AttributeValues.duration(Substring(text), span: span) {
                case .success(let seconds): node.duration = seconds
                case .failure(let diagnostic): loader.diagnostics.append(diagnostic)
                }
            case .target, .atMost:
                if let (amount, _) = try loader.readTarget(key.rawValue) {
                    node.amount = amount
                    node.atMost = key == .atMost
                }
            case .unit:
                unitSpan = keySpan
                if let (unit, _) = try loader.readText("unit") { node.unit = unit }
            case .on:
                var days = Weekdays()
                let start = loader.event.span
                try loader.readWords("on") { loader, bytes, span in
                    AttributeValues.addDay(Substring(decoding: bytes, as: UTF8.self), span: span, to: &days, diagnostics: &loader.diagnostics)
                }
                if !days.isEmpty {
                    node.days = days
                    node.daysSpan = start
                }
            case .perWeek:
                guard let (text, span) = try loader.readString("per-week") else { return }
                if let count = Int(text), (1...7).contains(count) {
                    node.perWeek = UInt8(count)
                } else {
                    loader.diagnostics.append(.perWeekOutOfRange(text, at: span))
                }
            case .note:
                if let (note, _) = try loader.readText("note") { node.note = note }
            case .next:
                node.next = try loader.readTargets("next")
                node.arrowSpan = keySpan
            default:
                let list = loader.event.span
                let (count, items) = try loader.readOptions()
                node.optionCount = count
                if items == 0 { emptyOptions = list }
            }
        }
        // A misspelt key ("titel", "habbit") has been reported with the right spelling, so
        // "missing 'title'" would say it again.
        let reported = diagnostics[firstDiagnostic...]
        func explained(_ key: String) -> Bool {
            reported.contains { $0.code == .conflictingKind }
                || reported.contains { $0.code == .unknownKey && $0.fixIt?.replacement == key }
        }
        guard kindSpan != nil else {
            builder.routine.optionRecords.removeSubrange(optionMark...)
            builder.routine.edges.removeSubrange(edgeMark...)
            // An ID that could not be read has been reported already.
            if sawKindKey || explained("habit") || explained("question") { return }
            diagnostics.append(
                .missingKey("habit' or 'question", in: "a node", at: mappingSpan, note: "start each node with 'habit: ID' or 'question: ID'"))
            return
        }
        if node.kind == .question, !keys.contains(.options), !explained("options") {
            diagnostics.append(
                .missingKey(
                    "options", in: "question '\(builder.routine.text.string(node.id))'", at: node.idSpan,
                    note: "list the answers under 'options:', each as '- answer: Yes' with its 'next:'"))
        } else if node.kind == .question, let emptyOptions {
            diagnostics.append(.emptyOptions(builder.routine.text.string(node.id), at: emptyOptions))
        }
        checkKinds(&node, sawTitle: sawTitle, explained: explained("title") || explained("prompt"), keys: keys, unitSpan: unitSpan)
        _ = builder.declare(node)
    }

    /// Keys that belong to the other kind of node, and what each kind requires.
    private mutating func checkKinds(
        _ node: inout NodeRecord, sawTitle: Bool, explained: Bool, keys: KeysRead, unitSpan: Span?
    ) {
        let kind = node.kind
        let id = node.id
        var place: String { "\(kind.rawValue) '\(builder.routine.text.string(id))'" }
        let wanted: YAMLKey = kind == .habit ? .title : .prompt
        if !sawTitle {
            if !explained { diagnostics.append(.missingKey(wanted.rawValue, in: place, at: node.idSpan)) }
            // A placeholder, so that "title is empty" does not follow.
            node.title = node.id
        }
        for key in YAMLKey.kindSpecific where keys.contains(key) {
            let span = keySpan(key, of: keys)
            switch (kind, key) {
            case (.habit, .prompt):
                diagnostics.append(.misplacedKey("prompt", at: span, instead: "title", reason: "a habit has a 'title'"))
            case (.question, .title):
                diagnostics.append(.misplacedKey("title", at: span, instead: "prompt", reason: "a question has a 'prompt'"))
            case (.habit, .options):
                diagnostics.append(.misplacedKey("options", at: span, instead: "next", reason: "only a question has options"))
            case (.question, .for), (.question, .target), (.question, .unit), (.question, .on), (.question, .perWeek),
                (.question, .atMost):
                diagnostics.append(.attributeOnQuestion(key.rawValue, node: builder.routine.text.string(id), at: span))
            default:
                break
            }
        }
        if kind == .habit, keys.contains(.target), keys.contains(.atMost) {
            // A habit has one target, and which of the two was meant is not known.
            let spans = [keySpan(.target, of: keys), keySpan(.atMost, of: keys)].sorted { $0.start < $1.start }
            diagnostics.append(.twoTargets(at: spans[1], first: spans[0]))
            node.amount = nil
            node.atMost = false
        }
        if kind == .question {
            node.duration = nil
            node.amount = nil
            node.atMost = false
            node.unit = .none
            node.days = nil
            node.perWeek = 0
        } else if node.amount == nil, !node.unit.isNone {
            if let unitSpan, !keys.contains(.target), !keys.contains(.atMost) {
                diagnostics.append(.missingKey("target", in: place, at: unitSpan, note: "'unit' names the unit of a 'target'"))
            }
            node.unit = .none
        }
    }

    /// Reads a list of options straight into the routine's option records and returns how many
    /// it read and how many items the list had. An option without an answer is reported and
    /// its arrows taken back.
    private mutating func readOptions() throws(Stop) -> (read: UInt32, items: Int) {
        guard event.kind == .sequenceStart else {
            try refuse("'options'", expected: "a list of answers")
            return (0, -1)
        }
        var count: UInt32 = 0
        var items = 0
        try advance()
        while event.kind != .sequenceEnd {
            items += 1
            guard event.kind == .mappingStart else {
                try refuse("each option", expected: "a mapping such as '- answer: Yes'")
                continue
            }
            let mappingSpan = event.span
            let edgeMark = builder.routine.edges.count
            var option = OptionRecord(text: .none, textSpan: Span(at: 0))
            var sawAnswer = false
            try forEachKey(among: YAMLKey.option, place: "an option") { loader, key, keySpan throws(Stop) in
                if key == .answer {
                    sawAnswer = true
                    if let (text, span) = try loader.readText("answer") {
                        option.text = text
                        option.textSpan = span
                    }
                } else {
                    option.next = try loader.readTargets("next")
                    option.arrowSpan = keySpan
                }
            }
            if sawAnswer {
                builder.routine.optionRecords.append(option)
                count += 1
            } else {
                builder.routine.edges.removeSubrange(edgeMark...)
                diagnostics.append(.missingKey("answer", in: "an option", at: mappingSpan))
            }
        }
        try advance()
        return (count, items)
    }
}
