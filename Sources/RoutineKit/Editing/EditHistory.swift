/// Text-level undo and redo: each entry turns a file's text after one op back into the text
/// before it, exactly, whatever the op was.
///
/// An entry keeps only the bytes the op changed (and a fingerprint of each whole text), not
/// two copies of the file: an op changes a few bytes of a file that may be tens of kilobytes,
/// so a long session's undo history stays a few kilobytes rather than megabytes.
public struct EditHistory: Sendable {
    struct Entry: Sendable {
        /// Where the change starts; the bytes before it and after it are the same in both texts.
        var start: Int
        var before: [UInt8]
        var after: [UInt8]
        var beforeText: Fingerprint
        var afterText: Fingerprint
    }

    /// A text's length and FNV-1a hash: enough to tell that the file is still the text an
    /// entry left, before the entry's bytes are put back.
    struct Fingerprint: Equatable, Sendable {
        var count: Int
        var hash: UInt64

        init(_ bytes: [UInt8]) {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            count = bytes.count
            self.hash = hash
        }
    }

    private var undoStack: [Entry] = []
    private var redoStack: [Entry] = []
    /// Entries kept; older ones are forgotten, so a long session's memory stays bounded.
    public let limit: Int

    public init(limit: Int = 200) { self.limit = limit }

    public var canUndo: Bool { !undoStack.isEmpty }
    /// The bytes the entries hold, for tests of the history's size.
    var keptBytes: Int { (undoStack + redoStack).reduce(0) { $0 + $1.before.count + $1.after.count } }
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Records an op that turned `before` into `after`; a new op forgets what was undone.
    public mutating func record(before: [UInt8], after: [UInt8]) {
        var start = 0
        while start < before.count, start < after.count, before[start] == after[start] { start += 1 }
        var end = 0
        while end < before.count - start, end < after.count - start, before[before.count - 1 - end] == after[after.count - 1 - end] { end += 1 }
        undoStack.append(
            Entry(
                start: start, before: Array(before[start..<before.count - end]), after: Array(after[start..<after.count - end]),
                beforeText: Fingerprint(before), afterText: Fingerprint(after)))
        if undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
        redoStack.removeAll()
    }

    /// The text that undoes the last op, when `current` is still what that op left.
    public func undoText(current: [UInt8]) -> Result<[UInt8], Diagnostic> {
        guard let entry = undoStack.last else { return .failure(.nothingTo("undo")) }
        guard let text = Self.replace(entry.after, with: entry.before, at: entry.start, in: current, expecting: entry.afterText) else {
            return .failure(.nothingTo("undo: the file changed since the last edit"))
        }
        return .success(text)
    }

    public func redoText(current: [UInt8]) -> Result<[UInt8], Diagnostic> {
        guard let entry = redoStack.last else { return .failure(.nothingTo("redo")) }
        guard let text = Self.replace(entry.before, with: entry.after, at: entry.start, in: current, expecting: entry.beforeText) else {
            return .failure(.nothingTo("redo: the file changed since the undo"))
        }
        return .success(text)
    }

    /// `text` with `old` at `start` replaced by `new`, when `text` is the one `fingerprint` and
    /// `old` describe; nil when it is not.
    static func replace(_ old: [UInt8], with new: [UInt8], at start: Int, in text: [UInt8], expecting fingerprint: Fingerprint) -> [UInt8]? {
        guard text.count == fingerprint.count, start + old.count <= text.count, text[start..<start + old.count].elementsEqual(old),
            Fingerprint(text) == fingerprint
        else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count - old.count + new.count)
        out += text[..<start]
        out += new
        out += text[(start + old.count)...]
        return out
    }

    /// Call once the text from ``undoText(current:)`` is written.
    public mutating func didUndo() { if let entry = undoStack.popLast() { redoStack.append(entry) } }

    public mutating func didRedo() { if let entry = redoStack.popLast() { undoStack.append(entry) } }
}
