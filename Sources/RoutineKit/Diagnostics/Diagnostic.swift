/// How serious a diagnostic is.
public enum Severity: String, Sendable, Comparable {
    case error, warning, note

    private var rank: Int {
        switch self {
        case .error: 2
        case .warning: 1
        case .note: 0
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// A span with a short text shown under it.
public struct Label: Hashable, Sendable {
    public var span: Span
    public var message: String

    public init(_ span: Span, _ message: String) {
        self.span = span
        self.message = message
    }
}

/// A remark after the main message, optionally pointing at a place of its own.
public struct Note: Hashable, Sendable {
    public var message: String
    public var span: Span?
    /// Whether the note sums up the diagnostic's ``Diagnostic/related`` places for text
    /// output; the language server lists those places instead.
    public var summarizesRelated = false

    public init(_ message: String, at span: Span? = nil) {
        self.message = message
        self.span = span
    }
}

/// A suggested edit: replace `span` with `replacement`.
public struct FixIt: Hashable, Sendable {
    public var message: String
    public var span: Span
    public var replacement: String

    public init(_ message: String, replacing span: Span, with replacement: String) {
        self.message = message
        self.span = span
        self.replacement = replacement
    }
}

/// One problem found in a routine or its input, from any stage: reading, lexing, parsing,
/// loading YAML or validating.
public struct Diagnostic: Hashable, Sendable, Error {
    public var severity: Severity
    public var code: DiagnosticCode
    public var message: String
    /// Where the problem is; `nil` for problems of the whole input (it cannot be read).
    public var span: Span?
    /// The text under the primary span.
    public var label: String?
    public var secondary: [Label]
    public var notes: [Note]
    public var fixIt: FixIt?
    /// Other fixes, when the mistake can be read two ways; the likelier one is ``fixIt``.
    public var alternatives: [FixIt]
    /// Further places the one mistake covers (the other nodes of an unreachable region): the
    /// language server lists each, text output sums them up in one note.
    public var related: [Label] = []
    /// How many diagnostics this one stands for: 1, or the count of a capped code's closing
    /// "and N more" (``DiagnosticList``), so that totals stay true.
    public var count = 1

    public init(
        _ code: DiagnosticCode, _ message: String, at span: Span?, label: String? = nil,
        secondary: [Label] = [], notes: [Note] = [], fixIt: FixIt? = nil, alternatives: [FixIt] = []
    ) {
        self.severity = code.severity
        self.code = code
        self.message = message
        self.span = span
        self.label = label
        self.secondary = secondary
        self.notes = notes
        self.fixIt = fixIt
        self.alternatives = alternatives
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// Sorted by position, errors and warnings at one place in the order they were found.
    public func sortedByPosition() -> [Diagnostic] {
        enumerated().sorted { a, b in
            let pa = a.element.span?.start ?? 0
            let pb = b.element.span?.start ?? 0
            return pa != pb ? pa < pb : a.offset < b.offset
        }.map(\.element)
    }
}
