/// Fields of comma-separated values as RFC 4180 writes them, for every CSV the tool writes.
public enum CSV {
    /// `text` as one field: quoted, with its quotes doubled, when it holds a comma, a quote or
    /// a line break; as it is otherwise.
    public static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
