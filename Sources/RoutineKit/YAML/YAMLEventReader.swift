import CYAML

/// One libyaml parse event, with its place as a byte span of the input.
struct YAMLEvent {
    enum Kind { case streamStart, streamEnd, documentStart, documentEnd, mappingStart, mappingEnd, sequenceStart, sequenceEnd, scalar, alias }

    var kind: Kind
    var span: Span
    /// A scalar's bytes, valid until the next event is read.
    var bytes: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
    /// Whether a scalar was written plain (unquoted), which is where YAML's null lives.
    var isPlain = false
    var hasAnchor = false
    /// The event's tag, valid until the next event is read. Kept as a pointer so that an
    /// event stays a plain value: copying it costs no reference counting.
    var tag: UnsafePointer<yaml_char_t>?

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// A plain scalar that YAML reads as null: empty, `~`, `null`, `Null`, `NULL`.
    var isNull: Bool {
        guard kind == .scalar, isPlain else { return false }
        guard bytes.count <= 4 else { return false }
        if bytes.isEmpty { return true }
        switch Lexer.packed(bytes) {
        case 0x7E, 0x6C6C_756E, 0x6C6C_754E, 0x4C4C_554E: return true
        default: return false
        }
    }

    /// Whether the scalar is `word`, which is at most eight bytes.
    func equals(_ word: StaticString) -> Bool {
        bytes.count == word.utf8CodeUnitCount && bytes.count <= 8
            && Lexer.packed(bytes) == word.withUTF8Buffer { Lexer.packed($0) }
    }

    /// This event made from libyaml's `raw`, its marks turned into byte offsets by `offsets`.
    /// Its bytes and tag point into `raw`, valid until it is deleted.
    @inline(__always)
    mutating func fill(from raw: UnsafePointer<yaml_event_t>, offsets: inout CharacterOffsets) {
        span = Span(
            start: offsets.byteOffset(ofCharacter: raw.pointee.start_mark.index),
            end: offsets.byteOffset(ofCharacter: raw.pointee.end_mark.index))
        kind = Self.kind(of: raw.pointee.type)
        hasAnchor = false
        tag = nil
        switch kind {
        case .scalar:
            bytes = UnsafeBufferPointer(start: raw.pointee.data.scalar.value, count: raw.pointee.data.scalar.length)
            isPlain = raw.pointee.data.scalar.style == YAML_PLAIN_SCALAR_STYLE
            hasAnchor = raw.pointee.data.scalar.anchor != nil
            tag = UnsafePointer(raw.pointee.data.scalar.tag)
        case .mappingStart:
            hasAnchor = raw.pointee.data.mapping_start.anchor != nil
            tag = UnsafePointer(raw.pointee.data.mapping_start.tag)
        case .sequenceStart:
            hasAnchor = raw.pointee.data.sequence_start.anchor != nil
            tag = UnsafePointer(raw.pointee.data.sequence_start.tag)
        default: break
        }
    }

    /// This event made from a piped one, whose bytes are in `storage`, valid while its chunk is
    /// read.
    @inline(__always)
    mutating func fill(from piped: UnsafePointer<PipedEvent>, storage: UnsafeMutablePointer<UInt8>, offsets: inout CharacterOffsets) {
        let event = piped.pointee
        span = Span(
            start: offsets.byteOffset(ofCharacter: Int(event.start)),
            end: offsets.byteOffset(ofCharacter: Int(event.end)))
        hasAnchor = event.hasAnchor
        tag = event.tag < 0 ? nil : UnsafePointer(storage + Int(event.tag))
        kind = Self.kind(of: yaml_event_type_t(rawValue: UInt32(event.type)))
        if kind == .scalar {
            bytes = UnsafeBufferPointer(start: storage + Int(event.value), count: Int(event.length))
            isPlain = event.isPlain
        }
    }

    @inline(__always) static func kind(of type: yaml_event_type_t) -> Kind {
        switch type {
        case YAML_SCALAR_EVENT: .scalar
        case YAML_MAPPING_START_EVENT: .mappingStart
        case YAML_MAPPING_END_EVENT: .mappingEnd
        case YAML_SEQUENCE_START_EVENT: .sequenceStart
        case YAML_SEQUENCE_END_EVENT: .sequenceEnd
        case YAML_STREAM_START_EVENT: .streamStart
        case YAML_DOCUMENT_START_EVENT: .documentStart
        case YAML_DOCUMENT_END_EVENT: .documentEnd
        case YAML_ALIAS_EVENT: .alias
        default: .streamEnd
        }
    }

    /// The tag, when it is not one of YAML's standard ones, as written.
    var unsupportedTag: String? {
        guard let tag else { return nil }
        let text = String(cString: tag)
        return Self.standardTags.contains(text) ? nil : text
    }

    private static let standardTags = ["str", "int", "float", "bool", "null", "seq", "map"].map { "tag:yaml.org,2002:" + $0 }
}

/// Drives libyaml's event parser over bytes that outlive it. A large input is parsed on a
/// thread of its own, a chunk of events ahead of the reader (``YAMLEventPipe``): libyaml's
/// parse is most of the work of reading a routine, and building the routine from its events
/// then takes the other core instead of adding to it.
struct YAMLEventReader: ~Copyable {
    /// Inputs from this size on are parsed on a side thread; below it, starting a thread
    /// costs more than it saves (an editor checks a routine on every keystroke).
    static let pipedFrom = 1 << 20

    private var parser: YAMLEventSource?
    private let pipe: YAMLEventPipe?
    /// The input.
    let bytes: UnsafeBufferPointer<UInt8>

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.init(bytes, piped: bytes.count >= Self.pipedFrom && bytes.count <= SourceFile.maximumSize)
    }

    /// A reader piped or not (tests pipe small inputs).
    init(_ bytes: UnsafeBufferPointer<UInt8>, piped: Bool) {
        self.bytes = bytes
        pipe = piped ? YAMLEventPipe.start(bytes) : nil
        parser = pipe == nil ? YAMLEventSource(bytes) : nil
    }

    deinit { pipe?.stop() }

    /// Reads the next event into `event`; false on a syntax error, which ``syntaxError()``
    /// then describes.
    mutating func read(into event: inout YAMLEvent) -> Bool {
        if let pipe { return pipe.read(into: &event) }
        return parser!.read(into: &event)
    }

    /// The error that made ``read(into:)`` return false, with a hint for the common causes.
    mutating func syntaxError() -> Diagnostic {
        if let pipe { return pipe.error ?? .yamlSyntax("invalid YAML", at: Span(at: 0), contextAt: nil) }
        return parser!.syntaxError()
    }
}

/// libyaml's parser over one input, read on whichever thread calls it.
final class YAMLEventSource {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let eventStorage: UnsafeMutablePointer<yaml_event_t>
    private var hasEvent = false
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Made at the first event or error: a piped parse converts its events on the reader's
    /// side, and the parse thread should not wait for a scan of the whole input to start.
    private lazy var offsets = CharacterOffsets(bytes)

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        parser = .allocate(capacity: 1)
        eventStorage = .allocate(capacity: 1)
        eventStorage.initialize(to: yaml_event_t())
        yaml_parser_initialize(parser)
        yaml_parser_set_input_string(parser, bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!, bytes.count)
    }

    deinit {
        if hasEvent { yaml_event_delete(eventStorage) }
        yaml_parser_delete(parser)
        parser.deallocate()
        eventStorage.deallocate()
    }

    /// Reads the next event into `event`; false on a syntax error. The event is filled in
    /// place and its fields read straight from libyaml's: this runs once per event, and a
    /// copy of either struct per event costs a measurable share of a parse. A scalar's bytes
    /// stay valid until the next call.
    func read(into event: inout YAMLEvent) -> Bool {
        if hasEvent {
            yaml_event_delete(eventStorage)
            hasEvent = false
        }
        guard yaml_parser_parse(parser, eventStorage) != 0 else { return false }
        hasEvent = true
        event.fill(from: eventStorage, offsets: &offsets)
        return true
    }

    /// Parses the next event into `raw` as libyaml gives it, for the caller to convert and
    /// then to delete (`yaml_event_delete`); false on a syntax error, which leaves nothing to delete.
    func parse(into raw: UnsafeMutablePointer<yaml_event_t>) -> Bool {
        yaml_parser_parse(parser, raw) != 0
    }

    /// The error that made ``read(into:)`` or ``parse(into:)`` return false, with a hint for the
    /// common causes.
    func syntaxError() -> Diagnostic {
        let p = parser.pointee
        let problem = p.problem.map { String(cString: $0) } ?? "invalid YAML"
        let offset = offsets.byteOffset(ofCharacter: p.problem_mark.index)
        var message = problem
        let contextText = p.context.map { String(cString: $0) }
        if let contextText { message = contextText + ": " + problem }
        if p.error == YAML_READER_ERROR { message = problem + " at byte \(p.problem_offset)" }
        let context = p.context == nil ? nil : offsets.byteOffset(ofCharacter: p.context_mark.index)
        var diagnostic = Diagnostic.yamlSyntax(message, at: Span(start: offset, end: offset + 1), contextAt: context == offset ? nil : context)
        YAMLSyntaxHint(bytes: offsets.bytes, problem: problem, context: contextText, at: offset, contextAt: context)
            .apply(to: &diagnostic)
        return diagnostic
    }
}

/// Maps libyaml's character indexes (a CRLF counts two) to byte offsets. Before the first
/// non-ASCII byte a character is a byte, so most files map by addition; past it, a cursor
/// moves from one mark to the next, and as marks come nearly in order, all cost one pass.
struct CharacterOffsets {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the input starts for libyaml, which does not count a byte order mark.
    private let origin: Int
    /// Characters before the first non-ASCII byte after `origin`.
    private let asciiPrefix: Int
    private var character = 0
    private var byte: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        origin = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        byte = origin
        asciiPrefix = Self.asciiLength(bytes, from: origin)
    }

    private static func asciiLength(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let raw = UnsafeRawBufferPointer(bytes)
        var i = start
        while i + 8 <= bytes.count, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
        while i < bytes.count, bytes[i] < 0x80 { i += 1 }
        return i - start
    }

    @inline(__always)
    mutating func byteOffset(ofCharacter index: Int) -> Int {
        if index <= asciiPrefix { return origin + index }
        return slowByteOffset(ofCharacter: index)
    }

    private mutating func slowByteOffset(ofCharacter index: Int) -> Int {
        // Eight ASCII bytes are eight characters.
        let raw = UnsafeRawBufferPointer(bytes)
        while character + 8 <= index, byte + 8 <= bytes.count,
            raw.loadUnaligned(fromByteOffset: byte, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
        {
            byte += 8
            character += 8
        }
        while character < index, byte < bytes.count {
            byte += 1
            while byte < bytes.count, bytes[byte] & 0xC0 == 0x80 { byte += 1 }
            character += 1
        }
        while character > index, byte > origin {
            byte -= 1
            while byte > origin, bytes[byte] & 0xC0 == 0x80 { byte -= 1 }
            character -= 1
        }
        return byte
    }
}
