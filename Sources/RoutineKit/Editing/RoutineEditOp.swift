/// One change an author makes to a routine from a visual editor. Each becomes the smallest
/// text edit of the file (``RoutineEditor``); `undo` and `redo` are kept by ``EditHistory``.
public enum RoutineEditOp: Sendable, Equatable {
    /// A new habit, declared after `after` (or at the end), with `attributes` set; its ID is
    /// made from the title when nil.
    case addHabit(id: String?, title: String, after: String?, attributes: AttributeChanges = AttributeChanges())
    /// A new question with its answers, declared after `after` (or at the end); of the
    /// attributes, a question takes only a note.
    case addQuestion(id: String?, text: String, options: [String], after: String?, attributes: AttributeChanges = AttributeChanges())
    /// An arrow from a habit, from answer `option` of a question, or from a question's gather (option nil).
    case connect(from: String, option: Int?, to: String)
    case disconnect(from: String, option: Int?, to: String)
    case setTitle(id: String, title: String)
    case setAttributes(id: String, AttributeChanges)
    case addOption(id: String, text: String)
    case removeOption(id: String, option: Int)
    /// Moves answer `option` so that it becomes answer `to`.
    case moveOption(id: String, option: Int, to: Int)
    /// A new ID for a node, and for every arrow and start entry that names it.
    case rename(id: String, newID: String)
    /// Removes a node and every arrow to it.
    case delete(id: String)
    /// The routine's name: the string of its `routine` line (written first in an empty file).
    case setName(String)
    /// Ops applied in order as one edit: all of them are written, or none (the first refusal
    /// says why), and one undo takes them back. A dialog's Save is one of these.
    indirect case together([RoutineEditOp])
}

/// What to do with one attribute: leave it, remove it, or give it a value.
public enum AttributeChange<Value: Sendable & Equatable>: Sendable, Equatable {
    case keep
    case remove
    case set(Value)
}

/// The attributes `setAttributes` changes; each is kept unless said otherwise.
public struct AttributeChanges: Sendable, Equatable {
    /// In seconds.
    public var duration: AttributeChange<Int> = .keep
    public var target: AttributeChange<Double> = .keep
    /// Only with a target; set together with it or on its own.
    public var unit: AttributeChange<String> = .keep
    public var days: AttributeChange<Weekdays> = .keep
    public var perWeek: AttributeChange<Int> = .keep
    public var note: AttributeChange<String> = .keep
    /// Whether the target is a limit ("at most"); nil keeps what the node has.
    public var atMost: Bool? = nil

    public init(
        duration: AttributeChange<Int> = .keep, target: AttributeChange<Double> = .keep, unit: AttributeChange<String> = .keep,
        days: AttributeChange<Weekdays> = .keep, perWeek: AttributeChange<Int> = .keep, note: AttributeChange<String> = .keep,
        atMost: Bool? = nil
    ) {
        self.duration = duration
        self.target = target
        self.unit = unit
        self.days = days
        self.perWeek = perWeek
        self.note = note
        self.atMost = atMost
    }
}

/// A replacement of one byte range of the source.
public struct TextEdit: Sendable, Equatable {
    public var span: Span
    public var replacement: String

    public init(_ span: Span, _ replacement: String) {
        self.span = span
        self.replacement = replacement
    }

    /// `edits` applied to `bytes`; edits must not overlap, and edits at one offset apply in the given order.
    public static func apply(_ edits: [TextEdit], to bytes: [UInt8]) -> [UInt8] {
        let ordered = edits.enumerated().sorted { a, b in
            a.element.span.start != b.element.span.start ? a.element.span.start < b.element.span.start : a.offset < b.offset
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 64)
        var position = 0
        for (_, edit) in ordered {
            out.append(contentsOf: bytes[position..<edit.span.lowerBound])
            out.append(contentsOf: Array(edit.replacement.utf8))
            position = max(position, edit.span.upperBound)
        }
        out.append(contentsOf: bytes[position...])
        return out
    }
}
