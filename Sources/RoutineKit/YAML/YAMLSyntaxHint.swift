/// What most likely caused one of libyaml's syntax errors, said in the author's terms: its
/// messages describe the parser's state, not the mistake.
struct YAMLSyntaxHint {
    let bytes: UnsafeBufferPointer<UInt8>
    let problem: String
    let context: String?
    /// Byte offsets of the problem and of the construct it interrupted.
    let offset: Int
    let contextOffset: Int?

    init(bytes: UnsafeBufferPointer<UInt8>, problem: String, context: String?, at offset: Int, contextAt contextOffset: Int?) {
        self.bytes = bytes
        self.problem = problem
        self.context = context
        self.offset = offset
        self.contextOffset = contextOffset
    }

    func apply(to diagnostic: inout Diagnostic) {
        if let tab = tabInIndentation() {
            diagnostic.notes.append(Note("YAML indents with spaces, never tabs"))
            diagnostic.fixIt = FixIt("replace the tab with two spaces", replacing: Span(start: tab, end: tab + 1), with: "  ")
            return
        }
        let context = context ?? ""
        switch problem {
        case "mapping values are not allowed in this context":
            if let wrong = lineIndentedLessThanItsNeighbours() {
                // `next: desk` indented as the question's key between two options: the next
                // line is then read as the value's continuation, and libyaml notices the
                // mistake only there. The line that is wrong is the one to point at.
                diagnostic.secondary = [Label(diagnostic.span ?? Span(at: offset), "read as part of its value")]
                diagnostic.span = wrong
                diagnostic.notes.append(Note("this line is indented less than the lines beside it, so the next line continues its value"))
                return
            }
            diagnostic.notes.append(
                Note(
                    "a value that holds ': ' goes in quotes ('title: \"Wake: up\"'), and a key is indented as far as the keys beside it"))
        case "could not find expected ':'":
            if let colon = colonWithoutSpace() {
                diagnostic.notes.append(Note("a key is followed by a colon and a space"))
                diagnostic.fixIt = FixIt("put a space after the colon", replacing: Span(at: colon + 1), with: " ")
            } else {
                diagnostic.notes.append(Note("each line inside a mapping is 'key: value', indented as far as the keys beside it"))
            }
        case "found unexpected end of stream" where context.contains("quoted scalar"):
            diagnostic.notes.append(Note("the quote opened here is never closed: end the value with the same quote"))
            relabel(&diagnostic, "this quote is not closed")
        case "did not find expected ',' or ']'":
            diagnostic.notes.append(Note("a list in brackets ends with ']' on the line where its last item is"))
            relabel(&diagnostic, "this '[' is not closed")
        case "did not find expected ',' or '}'":
            diagnostic.notes.append(Note("a mapping in braces ends with '}' on the line where its last entry is"))
            relabel(&diagnostic, "this '{' is not closed")
        case "did not find expected key", "did not find expected '-' indicator":
            diagnostic.notes.append(Note("this line is indented differently from the lines beside it"))
        default:
            break
        }
    }

    private func relabel(_ diagnostic: inout Diagnostic, _ text: String) {
        if !diagnostic.secondary.isEmpty { diagnostic.secondary[0].message = text }
    }

    /// A tab at the problem, or among the indentation of its line.
    private func tabInIndentation() -> Int? {
        guard offset <= bytes.count else { return nil }
        if offset < bytes.count, bytes[offset] == 0x09 { return offset }
        var start = min(offset, bytes.count)
        while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
        var i = start
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 {
            if bytes[i] == 0x09 { return i }
            i += 1
        }
        return nil
    }

    /// The key of the line before the problem's, when it is a `key: plain value` line indented
    /// less than the lines on either side of it: the problem's line then carried its value on.
    private func lineIndentedLessThanItsNeighbours() -> Span? {
        func lineStart(_ i: Int) -> Int {
            var i = i
            while i > 0, bytes[i - 1] != 0x0A, bytes[i - 1] != 0x0D { i -= 1 }
            return i
        }
        func indentation(_ start: Int) -> Int {
            var i = start
            while i < bytes.count, bytes[i] == 0x20 { i += 1 }
            return i - start
        }
        /// The start of the nearest line before `start` that holds more than spaces or a comment.
        func previousLine(_ start: Int) -> Int? {
            var end = start
            while end > 0 {
                let begin = lineStart(end - 1)
                let first = begin + indentation(begin)
                if first < end - 1, bytes[first] != UInt8(ascii: "#"), bytes[first] != 0x0A, bytes[first] != 0x0D { return begin }
                end = begin
            }
            return nil
        }
        guard offset < bytes.count else { return nil }
        let here = lineStart(offset)
        guard let line = previousLine(here), let before = previousLine(line) else { return nil }
        let indent = indentation(line)
        guard indent < indentation(here), indent < indentation(before) else { return nil }
        // `key: value` with a plain value: no quote, and not a key that opens a block.
        var i = line + indent
        while i < bytes.count, bytes[i] != UInt8(ascii: ":"), bytes[i] != 0x0A, bytes[i] != 0x0D { i += 1 }
        guard i + 2 < bytes.count, bytes[i] == UInt8(ascii: ":"), bytes[i + 1] == 0x20 else { return nil }
        var value = i + 1
        while value < bytes.count, bytes[value] == 0x20 { value += 1 }
        guard value < bytes.count,
            ![
                UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "{"), 0x0A, 0x0D,
                UInt8(ascii: "#"),
            ].contains(bytes[value])
        else { return nil }
        return Span(start: line + indent, end: i)
    }

    /// `title:Wake` on the line where the unfinished key began: the colon without its space.
    private func colonWithoutSpace() -> Int? {
        guard let start = contextOffset, start < bytes.count else { return nil }
        var i = start
        while i + 1 < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D {
            if bytes[i] == UInt8(ascii: ":"), bytes[i + 1] != 0x20, bytes[i + 1] != 0x0A, bytes[i + 1] != 0x0D { return i }
            if bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") { return nil }
            i += 1
        }
        return nil
    }
}
