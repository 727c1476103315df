/// Text-level undo and redo: each entry is a file's text before and after one op, so undoing
/// restores the text exactly as it was, whatever the op was.
public struct EditHistory: Sendable {
    struct Entry: Sendable {
        var before: [UInt8]
        var after: [UInt8]
    }

    private var undoStack: [Entry] = []
    private var redoStack: [Entry] = []
    /// Entries kept; older ones are forgotten, so a long session's memory stays bounded.
    public let limit: Int

    public init(limit: Int = 200) { self.limit = limit }

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Records an op that turned `before` into `after`; a new op forgets what was undone.
    public mutating func record(before: [UInt8], after: [UInt8]) {
        undoStack.append(Entry(before: before, after: after))
        if undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
        redoStack.removeAll()
    }

    /// The text that undoes the last op, when `current` is still what that op left.
    public func undoText(current: [UInt8]) -> Result<[UInt8], Diagnostic> {
        guard let entry = undoStack.last else { return .failure(.nothingTo("undo")) }
        guard entry.after == current else { return .failure(.nothingTo("undo: the file changed since the last edit")) }
        return .success(entry.before)
    }

    public func redoText(current: [UInt8]) -> Result<[UInt8], Diagnostic> {
        guard let entry = redoStack.last else { return .failure(.nothingTo("redo")) }
        guard entry.before == current else { return .failure(.nothingTo("redo: the file changed since the undo")) }
        return .success(entry.after)
    }

    /// Call once the text from ``undoText(current:)`` is written.
    public mutating func didUndo() { if let entry = undoStack.popLast() { redoStack.append(entry) } }

    public mutating func didRedo() { if let entry = redoStack.popLast() { undoStack.append(entry) } }
}
