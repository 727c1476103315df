/// Text for XML and for markup of its kind (JUnit reports, Pango in status bars and
/// notifications): one escaper, so no writer forgets a character.
public enum MarkupText {
    /// `text` with the five special characters as entities, and the characters XML 1.0 cannot
    /// hold at all (controls but newline and tab, U+FFFE, U+FFFF) written as '\u{...}'.
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&apos;"
            case "\"": out += "&quot;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                if v < 0x20 || (0xFFFE...0xFFFF).contains(v) || (0x7F...0x9F).contains(v) {
                    out += "\\u{" + String(v, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
