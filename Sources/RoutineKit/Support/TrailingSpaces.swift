extension String {
    /// The text without the spaces and tabs at its end: what a padded table row or a line
    /// before the cursor ends in.
    public func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
