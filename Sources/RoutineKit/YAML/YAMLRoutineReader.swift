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
    case perWeek = "per-week"
    case atMost = "at-most"

    static let top: YAMLKeySet = [.routine, .start, .nodes]
    static let node: YAMLKeySet = [.habit, .question, .title, .prompt, .for, .target, .unit, .on, .perWeek, .note, .next, .options, .atMost]
    static let option: YAMLKeySet = [.answer, .next]
    /// Keys that only one kind of node may have.
    static let kindSpecific: [YAMLKey] = [.title, .prompt, .for, .target, .unit, .on, .perWeek, .options, .atMost]

    /// How many keys there are: one span of each per mapping being read.
    static let rowWidth = 17

    /// The key spelt by `bytes`, if it is one of `keys`.
    static func match(_ bytes: UnsafeBufferPointer<UInt8>, among keys: YAMLKeySet) -> YAMLKey? {
        guard bytes.count >= 2, bytes.count <= 8, let key = YAMLKey(packed: Lexer.packed(bytes)) else { return nil }
        return keys.contains(key) ? key : nil
    }

    /// The key whose spelling ``Lexer/packed(_:)`` gives as `packed`: literals rather than a
    /// table built at first use, which costs a lazy-initialisation check per key read.
    private init?(packed: UInt64) {
        switch packed {
        case 0x65_6E69_7475_6F72: self = .routine
        case 0x74_7261_7473: self = .start
        case 0x73_6564_6F6E: self = .nodes
        case 0x74_6962_6168: self = .habit
        case 0x6E6F_6974_7365_7571: self = .question
        case 0x65_6C74_6974: self = .title
        case 0x7470_6D6F_7270: self = .prompt
        case 0x72_6F66: self = .for
        case 0x7465_6772_6174: self = .target
        case 0x7469_6E75: self = .unit
        case 0x6E6F: self = .on
        case 0x6574_6F6E: self = .note
        case 0x7478_656E: self = .next
        case 0x73_6E6F_6974_706F: self = .options
        case 0x7265_7773_6E61: self = .answer
        case 0x6B65_6577_2D72_6570: self = .perWeek
        case 0x74_736F_6D2D_7461: self = .atMost
        default: return nil
        }
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
        case .perWeek: 15
        case .atMost: 16
        }
    }
}

/// A set of schema keys, one bit per key.
struct YAMLKeySet: OptionSet {
    var rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    init(_ key: YAMLKey) { rawValue = 1 << UInt32(key.ordinalFast) }

    init(arrayLiteral keys: YAMLKey...) {
        rawValue = 0
        for key in keys { rawValue |= 1 << UInt32(key.ordinalFast) }
    }

    func contains(_ key: YAMLKey) -> Bool { rawValue & (1 << UInt32(key.ordinalFast)) != 0 }

    /// The keys' names, in schema order, for messages.
    var names: [String] { YAMLKey.allCases.filter(contains).map(\.rawValue) }
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
    var diagnostics = DiagnosticList()
    var event = YAMLEvent(kind: .streamStart, span: Span(at: 0))
    private var depth = 0
    /// The span of each key of the mappings being read, by depth, for duplicate-key labels.
    private var keySpans: [Span] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        reader = YAMLEventReader(bytes)
        builder = RoutineBuilder(sourceSize: bytes.count, bytesPerNode: 64)
        // Room for every text at once, so the bytes are never copied as they grow; room
        // never written costs address space, not memory.
        builder.routine.text.own.reserveCapacity(bytes.count)
    }

    consuming func finish(complete: Bool) -> ParsedRoutine {
        if !complete, let last = diagnostics.last, let span = last.span {
            // A plain value that runs on over the next line before a syntax error is that
            // error's doing (a key indented too far), not an ID of its own. The error may
            // point back at the line that is wrong, its label at where libyaml stopped.
            let stop = last.secondary.map(\.span.lowerBound).max().map { max($0, span.lowerBound) } ?? span.lowerBound
            let bytes = reader.bytes
            diagnostics.removeAll { diagnostic in
                guard diagnostic.code == .unexpectedCharacter, let span = diagnostic.span, span.upperBound <= stop
                else { return false }
                return bytes[span.lowerBound..<span.upperBound].contains(0x0A)
            }
        }
        var parsed = ParsedRoutine(routine: builder.finish(), diagnostics: diagnostics + builder.diagnostics, comments: [])
        parsed.isComplete = complete
        return parsed
    }

    /// Moves to the next event. Aliases, anchors and excessive depth stop the load.
    mutating func advance() throws(Stop) {
        guard reader.read(into: &event) else {
            diagnostics.append(reader.syntaxError())
            throw Stop()
        }
        if event.kind == .alias || event.hasAnchor {
            diagnostics.append(.yamlAlias(at: event.span))
            throw Stop()
        }
        if event.tag != nil, let tag = event.unsupportedTag { diagnostics.append(.yamlTag(tag, at: event.span)) }
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
            try refuse("the top level", expected: "a mapping with 'routine' and 'nodes'")
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

    /// Reports that the value at the current event is not `expected`, once the value has been
    /// skipped: a value that a syntax error cuts short gets that error alone.
    mutating func refuse(_ subject: String, expected: String) throws(Stop) {
        let diagnostic = Diagnostic.wrongType(subject, expected: expected, found: describe(), at: event.span)
        try skipValue()
        diagnostics.append(diagnostic)
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
        among keys: YAMLKeySet, place: String, _ body: (inout YAMLLoader, YAMLKey, Span) throws(Stop) -> Void
    ) throws(Stop) -> KeysRead {
        // Keys seen so far as bits; their spans live in the loader, one row per depth.
        var seen: UInt32 = 0
        let row = depth * YAMLKey.rowWidth
        if keySpans.count < row + YAMLKey.rowWidth {
            keySpans += Array(repeating: Span(at: 0), count: row + YAMLKey.rowWidth - keySpans.count)
        }
        try advance()
        while event.kind != .mappingEnd {
            guard event.kind == .scalar else {
                try refuse("a key", expected: "a string")
                try skipValue()
                continue
            }
            let span = event.span
            guard let key = YAMLKey.match(event.bytes, among: keys) else {
                diagnostics.append(.unknownKey(event.text, in: place, at: span, known: keys.names))
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
