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
                loader.builder.setStart(try loader.readTargets("start"), span: keySpan)
            default:
                sawNodes = true
                try loader.readNodes()
            }
        }
        if !sawName { diagnostics.append(.missingKey("routine", in: "the routine", at: mappingSpan, note: "name the routine: 'routine: Morning'")) }
        if !sawNodes { diagnostics.append(.missingKey("nodes", in: "the routine", at: mappingSpan, note: "list the habits and questions under 'nodes:'")) }
    }

    private mutating func readNodes() throws(Stop) {
        guard event.kind == .sequenceStart else {
            diagnostics.append(.wrongType("nodes", expected: "a list of habits and questions", found: describe(), at: event.span))
            try skipValue()
            return
        }
        try advance()
        while event.kind != .sequenceEnd {
            if event.kind == .mappingStart {
                try readNode()
            } else {
                diagnostics.append(.wrongType("each node", expected: "a mapping such as '- habit: water'", found: describe(), at: event.span))
                try skipValue()
            }
        }
        try advance()
    }

    private mutating func readNode() throws(Stop) {
        let mappingSpan = event.span
        let firstDiagnostic = diagnostics.count
        var node = RoutineNode(kind: .habit, id: "", title: "")
        var kindSpan: Span?
        var sawKindKey = false
        var unitSpan: Span?
        var sawTitle = false
        let keys = try forEachKey(among: YAMLKey.node, place: "a node") { loader, key, keySpan throws(Stop) in
            switch key {
            case .habit, .question:
                let kind: RoutineNode.Kind = key == .habit ? .habit : .question
                sawKindKey = true
                guard let (id, span) = try loader.readID(key.rawValue) else { return }
                if let first = kindSpan {
                    loader.diagnostics.append(.conflictingKind(node.id, at: keySpan, first: first))
                    return
                }
                kindSpan = keySpan
                node.kind = kind
                node.id = id
                node.idSpan = span
            case .title, .prompt:
                sawTitle = true
                if let (title, span) = try loader.readString(key.rawValue) {
                    node.title = title
                    node.titleSpan = span
                } else {
                    // Reported already; a placeholder keeps "title is empty" from following.
                    node.title = "?"
                }
            case .for:
                guard let (text, span) = try loader.readString("for") else { return }
                switch AttributeValues.duration(Substring(text), span: span) {
                case .success(let seconds): node.duration = seconds
                case .failure(let diagnostic): loader.diagnostics.append(diagnostic)
                }
            case .target:
                if let (amount, _) = try loader.readTarget() { node.target = TargetValue(amount: amount, unit: node.target?.unit) }
            case .unit:
                unitSpan = keySpan
                if let (unit, _) = try loader.readString("unit") { node.target = TargetValue(amount: node.target?.amount ?? 0, unit: unit) }
            case .on:
                var days = Weekdays()
                let start = loader.event.span
                try loader.readWords("on") { loader in
                    AttributeValues.addDay(Substring(loader.event.text), span: loader.event.span, to: &days, diagnostics: &loader.diagnostics)
                }
                if !days.isEmpty {
                    node.days = days
                    node.daysSpan = start
                }
            case .note:
                if let (note, _) = try loader.readString("note") { node.note = note }
            case .next:
                node.next = try loader.readTargets("next")
                node.arrowSpan = keySpan
            default:
                node.options = try loader.readOptions()
            }
        }
        guard kindSpan != nil else {
            // An ID that could not be read has been reported already.
            if sawKindKey { return }
            diagnostics.append(.missingKey("habit' or 'question", in: "a node", at: mappingSpan, note: "start each node with 'habit: ID' or 'question: ID'"))
            return
        }
        // A misspelt key ("titel") or a second kind has been reported; "missing 'title'" would repeat it.
        let reported = diagnostics[firstDiagnostic...]
        let explained = reported.contains { $0.code == .conflictingKind }
            || reported.contains { $0.code == .unknownKey && ["title", "prompt"].contains($0.fixIt?.replacement ?? "") }
        checkKinds(&node, sawTitle: sawTitle, explained: explained, keys: keys, unitSpan: unitSpan)
        _ = builder.declare(node)
    }

    /// Keys that belong to the other kind of node, and what each kind requires.
    private mutating func checkKinds(
        _ node: inout RoutineNode, sawTitle: Bool, explained: Bool, keys: KeysRead, unitSpan: Span?
    ) {
        var place: String { "\(node.kind.rawValue) '\(node.id)'" }
        let wanted: YAMLKey = node.isHabit ? .title : .prompt
        if !sawTitle {
            if !explained { diagnostics.append(.missingKey(wanted.rawValue, in: place, at: node.idSpan)) }
            // A placeholder, so that "title is empty" does not follow.
            node.title = node.id
        }
        for key in YAMLKey.kindSpecific where keys.contains(key) {
            let span = keySpan(key, of: keys)
            switch (node.kind, key) {
            case (.habit, .prompt):
                diagnostics.append(.misplacedKey("prompt", at: span, instead: "title", reason: "a habit has a 'title'"))
            case (.question, .title):
                diagnostics.append(.misplacedKey("title", at: span, instead: "prompt", reason: "a question has a 'prompt'"))
            case (.habit, .options):
                diagnostics.append(.misplacedKey("options", at: span, instead: "next", reason: "only a question has options"))
            case (.question, .for), (.question, .target), (.question, .unit), (.question, .on):
                diagnostics.append(.attributeOnQuestion(key.rawValue, node: node.id, at: span))
            default:
                break
            }
        }
        if node.isQuestion {
            node.duration = nil
            node.target = nil
            node.days = nil
        } else if let target = node.target, target.amount == 0 {
            if let unitSpan, !keys.contains(.target) {
                diagnostics.append(.missingKey("target", in: place, at: unitSpan, note: "'unit' names the unit of a 'target'"))
            }
            node.target = nil
        }
    }

    private mutating func readOptions() throws(Stop) -> [QuestionOption] {
        guard event.kind == .sequenceStart else {
            diagnostics.append(.wrongType("options", expected: "a list of answers", found: describe(), at: event.span))
            try skipValue()
            return []
        }
        var options: [QuestionOption] = []
        try advance()
        while event.kind != .sequenceEnd {
            guard event.kind == .mappingStart else {
                diagnostics.append(.wrongType("each option", expected: "a mapping such as '- answer: Yes'", found: describe(), at: event.span))
                try skipValue()
                continue
            }
            let mappingSpan = event.span
            var option = QuestionOption(text: "")
            var sawAnswer = false
            try forEachKey(among: YAMLKey.option, place: "an option") { loader, key, keySpan throws(Stop) in
                if key == .answer {
                    sawAnswer = true
                    if let (text, span) = try loader.readString("answer") {
                        option.text = text
                        option.textSpan = span
                    }
                } else {
                    option.next = try loader.readTargets("next")
                    option.arrowSpan = keySpan
                }
            }
            if sawAnswer {
                options.append(option)
            } else {
                diagnostics.append(.missingKey("answer", in: "an option", at: mappingSpan))
            }
        }
        try advance()
        return options
    }
}
