/// Where one text of a routine lives: a range of the source it was read from, or of the
/// routine's own text bytes (texts that had escapes, or came from YAML or from code).
/// Keeping texts as ranges means reading a routine builds no `String` per title.
struct TextRef: Equatable, Sendable {
    /// The offset; the top bit selects the routine's own bytes over the source.
    var start: UInt32
    var count: UInt32

    static let ownFlag: UInt32 = 1 << 31
    /// No text at all, as opposed to an empty one.
    static let none = TextRef(start: .max, count: 0)

    var isNone: Bool { start == .max }
}

/// A contiguous run of a routine's edges (``Routine/edges``).
struct EdgeRange: Equatable, Sendable {
    var start: UInt32
    var count: UInt32

    static let empty = EdgeRange(start: 0, count: 0)

    var range: Range<Int> { Int(start)..<Int(start + count) }
}

/// A node as stored: plain values and ranges, no references, so that reading or copying one
/// touches no reference counts and a routine of a million nodes is one allocation of them.
///
/// Optional values are kept as sentinels (NaN, `Int.min`, an impossible span) behind
/// optional properties: `Double?`, `Int?` and `Span?` each round up to twice their size, and
/// the records of a large routine are its largest memory.
struct NodeRecord: Sendable {
    var id: TextRef
    var title: TextRef
    var note = TextRef.none
    var unit = TextRef.none
    private var storedAmount = Double.nan
    private var storedDuration = Int.min
    var firstOption: UInt32
    var optionCount: UInt32 = 0
    var next = EdgeRange.empty
    var idSpan: Span
    var titleSpan: Span
    private var storedArrowSpan = Span.absent
    private var storedDaysSpan = Span.absent
    private var storedNoteSpan = Span.absent
    var days: Weekdays?
    /// How many times a week a habit is due (`3 per week`); 0 for none.
    var perWeek: UInt8 = 0
    /// Whether the target is a limit (`target at most 2`).
    var atMost = false
    var kind: RoutineNode.Kind

    init(id: TextRef, title: TextRef, firstOption: UInt32, idSpan: Span, titleSpan: Span, kind: RoutineNode.Kind) {
        self.id = id
        self.title = title
        self.firstOption = firstOption
        self.idSpan = idSpan
        self.titleSpan = titleSpan
        self.kind = kind
    }

    /// A habit's target amount; never NaN, which no reader accepts.
    var amount: Double? {
        get { storedAmount.isNaN ? nil : storedAmount }
        set { storedAmount = newValue ?? .nan }
    }

    var duration: Int? {
        get { storedDuration == .min ? nil : storedDuration }
        set { storedDuration = newValue ?? .min }
    }

    var arrowSpan: Span? {
        get { storedArrowSpan.unlessAbsent }
        set { storedArrowSpan = newValue ?? .absent }
    }

    var daysSpan: Span? {
        get { storedDaysSpan.unlessAbsent }
        set { storedDaysSpan = newValue ?? .absent }
    }

    var noteSpan: Span? {
        get { storedNoteSpan.unlessAbsent }
        set { storedNoteSpan = newValue ?? .absent }
    }

    var options: Range<Int> { Int(firstOption)..<Int(firstOption + optionCount) }
}

extension Span {
    /// A span no source has (its start is past the largest input), standing for none.
    static let absent = Span(start: Int(UInt32.max), end: Int(UInt32.max))

    /// The span, or nil when it is ``absent``.
    var unlessAbsent: Span? { self == .absent ? nil : self }
}

/// One answer of a question, as stored.
struct OptionRecord: Sendable {
    var text: TextRef
    var next = EdgeRange.empty
    var textSpan: Span
    private var storedArrowSpan = Span.absent

    init(text: TextRef, next: EdgeRange = .empty, textSpan: Span, arrowSpan: Span? = nil) {
        self.text = text
        self.next = next
        self.textSpan = textSpan
        self.arrowSpan = arrowSpan
    }

    var arrowSpan: Span? {
        get { storedArrowSpan.unlessAbsent }
        set { storedArrowSpan = newValue ?? .absent }
    }
}

/// The bytes a routine's texts refer to: its source, and its own bytes for the rest.
struct TextStorage: Sendable {
    var source: [UInt8] = []
    var own: [UInt8] = []

    /// Stores `text` in the routine's own bytes.
    mutating func add(_ text: String) -> TextRef {
        var text = text
        return text.withUTF8 { add($0) }
    }

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) -> TextRef {
        let start = own.count
        own.append(contentsOf: bytes)
        return TextRef(start: UInt32(start) | TextRef.ownFlag, count: UInt32(bytes.count))
    }

    func string(_ ref: TextRef) -> String {
        if ref.isNone { return "" }
        return withBytes(ref) { String(decoding: $0, as: UTF8.self) }
    }

    func optionalString(_ ref: TextRef) -> String? { ref.isNone ? nil : string(ref) }

    func withBytes<R>(_ ref: TextRef, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if ref.isNone { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        let start = Int(ref.start & ~TextRef.ownFlag)
        let range = start..<(start + Int(ref.count))
        let storage = ref.start & TextRef.ownFlag != 0 ? own : source
        return try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    func equal(_ a: TextRef, _ b: TextRef) -> Bool {
        guard a.count == b.count else { return false }
        return withBytes(a) { x in withBytes(b) { y in x.hasSameBytes(as: y) } }
    }
}
