/// Reads YAML routines (schema in grammar.md) with libyaml's event parser, straight into the
/// same graph the `.rt` parser builds: no intermediate YAML tree.
enum YAMLRoutineReader {
    /// Deeper than any routine needs (5 levels), shallow enough to stop at once on a file
    /// built to exhaust memory.
    static let depthLimit = 64

    static func read(_ file: SourceFile) -> ParsedRoutine {
        file.bytes.withUnsafeBufferPointer { bytes in
            var loader = YAMLLoader(bytes)
            let complete: Bool
            do {
                try loader.load()
                complete = true
            } catch {
                complete = false
            }
            return loader.finish(complete: complete)
        }
    }
}

/// The schema's keys, matched on bytes.
enum YAMLKey: String, CaseIterable {
    case routine, start, nodes
    case habit, question, title, prompt, `for`, target, unit, on, note, next, options
    case answer

    static let top: [YAMLKey] = [.routine, .start, .nodes]
    static let node: [YAMLKey] = [.habit, .question, .title, .prompt, .for, .target, .unit, .on, .note, .next, .options]
    static let option: [YAMLKey] = [.answer, .next]
    /// Keys that only one kind of node may have.
    static let kindSpecific: [YAMLKey] = [.title, .prompt, .for, .target, .unit, .on, .options]

    /// Each key's spelling packed into one integer (all keys are at most eight bytes).
    private static let bits: [UInt64] = allCases.map { key in
        var name = key.rawValue
        return name.withUTF8 { Lexer.packed($0) }
    }

    static func match(_ bytes: UnsafeBufferPointer<UInt8>, among keys: [YAMLKey]) -> YAMLKey? {
        guard bytes.count <= 8 else { return nil }
        let packed = Lexer.packed(bytes)
        for key in keys where bits[key.ordinalFast] == packed { return key }
        return nil
    }

    /// The case's position, without searching `allCases`.
    var ordinalFast: Int {
        switch self {
        case .routine: 0
        case .start: 1
        case .nodes: 2
        case .habit: 3
        case .question: 4
        case .title: 5
        case .prompt: 6
        case .for: 7
        case .target: 8
        case .unit: 9
        case .on: 10
        case .note: 11
        case .next: 12
        case .options: 13
        case .answer: 14
        }
    }
}

/// The keys one mapping held, each first occurrence's span kept in the loader.
struct KeysRead {
    var mask: UInt32
    /// Where the spans live in ``YAMLLoader/keySpans``.
    var row: Int

    func contains(_ key: YAMLKey) -> Bool { mask & (1 << UInt32(key.ordinalFast)) != 0 }
}

struct YAMLLoader: ~Copyable {
    struct Stop: Error {}

    var reader: YAMLEventReader
    var builder: RoutineBuilder
    var diagnostics: [Diagnostic] = []
    var event = YAMLEvent(kind: .streamStart, span: Span(at: 0))
    private var depth = 0
    /// The span of each key of the mappings being read, by depth, for duplicate-key labels.
    private var keySpans: [Span] = []
    var edgeScratch: [Edge] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        reader = YAMLEventReader(bytes)
        builder = RoutineBuilder(sourceSize: bytes.count, bytesPerNode: 64)
    }

    consuming func finish(complete: Bool) -> ParsedRoutine {
        var parsed = ParsedRoutine(routine: builder.finish(), diagnostics: diagnostics + builder.diagnostics, comments: [])
        parsed.isComplete = complete
        return parsed
    }

    /// Moves to the next event. Aliases, anchors and excessive depth stop the load.
    mutating func advance() throws(Stop) {
        guard let next = reader.next() else {
            diagnostics.append(reader.syntaxError())
            throw Stop()
        }
        event = next
        if event.kind == .alias || event.hasAnchor {
            diagnostics.append(.yamlAlias(at: event.span))
            throw Stop()
        }
        if let tag = event.unsupportedTag { diagnostics.append(.yamlTag(tag, at: event.span)) }
        switch event.kind {
        case .mappingStart, .sequenceStart:
            depth += 1
            if depth > YAMLRoutineReader.depthLimit {
                diagnostics.append(.yamlTooDeep(at: event.span, limit: YAMLRoutineReader.depthLimit))
                throw Stop()
            }
        case .mappingEnd, .sequenceEnd:
            depth -= 1
        default:
            break
        }
    }

    mutating func load() throws(Stop) {
        try advance()  // stream start
        try advance()
        guard event.kind == .documentStart else {
            diagnostics.append(.missingKey("routine", in: "the file", at: event.span, note: "the file is empty"))
            return
        }
        try advance()
        if event.kind == .mappingStart {
            try readTop()
        } else {
            diagnostics.append(.wrongType("the top level", expected: "a mapping with 'routine' and 'nodes'", found: describe(), at: event.span))
            try skipValue()
        }
        try advance()  // document end
        if event.kind == .documentStart {
            diagnostics.append(.yamlSecondDocument(at: event.span))
            throw Stop()
        }
    }

    /// What the current event is, for messages.
    func describe() -> String {
        switch event.kind {
        case .scalar: event.isNull ? "null" : "'\(String(event.text.prefix(40)))'"
        case .sequenceStart: "a list"
        case .mappingStart: "a mapping"
        default: "nothing"
        }
    }

    /// Skips the value starting at the current event, leaving the event after it current.
    mutating func skipValue() throws(Stop) {
        guard event.kind == .mappingStart || event.kind == .sequenceStart else {
            try advance()
            return
        }
        let level = depth
        repeat { try advance() } while depth >= level
        try advance()
    }

    /// The span of `key`'s first occurrence in the mapping `keys` describes; valid until
    /// another mapping at the same depth is read.
    func keySpan(_ key: YAMLKey, of keys: KeysRead) -> Span { keySpans[keys.row + key.ordinalFast] }

    /// Reads the keys of the mapping starting at the current event, calling `body` with each
    /// key and its span with the value current; `body` must consume the value. Non-string
    /// keys and duplicates are reported and their values skipped.
    @discardableResult
    mutating func forEachKey(
        among keys: [YAMLKey], place: String, _ body: (inout YAMLLoader, YAMLKey, Span) throws(Stop) -> Void
    ) throws(Stop) -> KeysRead {
        // Keys seen so far as bits; their spans live in the loader, one row per depth.
        var seen: UInt32 = 0
        let row = depth * 16
        if keySpans.count < row + 16 { keySpans += Array(repeating: Span(at: 0), count: row + 16 - keySpans.count) }
        try advance()
        while event.kind != .mappingEnd {
            guard event.kind == .scalar else {
                diagnostics.append(.wrongType("a key", expected: "a string", found: describe(), at: event.span))
                try skipValue()
                try skipValue()
                continue
            }
            let span = event.span
            guard let key = YAMLKey.match(event.bytes, among: keys) else {
                diagnostics.append(.unknownKey(event.text, in: place, at: span, known: keys.map(\.rawValue)))
                try advance()
                try skipValue()
                continue
            }
            try advance()
            let bit: UInt32 = 1 << UInt32(key.ordinalFast)
            if seen & bit != 0 {
                diagnostics.append(.duplicateKey(key.rawValue, at: span, first: keySpans[row + key.ordinalFast]))
                try skipValue()
                continue
            }
            seen |= bit
            keySpans[row + key.ordinalFast] = span
            try body(&self, key, span)
        }
        try advance()
        return KeysRead(mask: seen, row: row)
    }
}
