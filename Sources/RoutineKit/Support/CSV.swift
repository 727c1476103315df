/// Fields of comma-separated values as RFC 4180 writes them, for every CSV the tool writes.
public enum CSV {
    /// `text` as one field: quoted, with its quotes doubled, when it holds a comma, a quote or
    /// a line break; as it is otherwise.
    public static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return quoted(text)
    }

    /// `text` written by a person or another program (a title, a path) as one field that a
    /// spreadsheet reads as text, never as a formula: one that starts with `=`, `+`, `-`,
    /// `@`, a tab or a carriage return gets a `'` before it, inside quotes (OWASP's advice
    /// against CSV injection); any other as ``field(_:)`` writes it.
    public static func textField(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return field(text) }
        return quoted("'" + text)
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
