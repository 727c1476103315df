/// `file:` URIs and the paths they name: the one place where a URI becomes a path, so that
/// no file is ever opened under a name other than the one the URI spells.
public enum FileURI {
    /// Why a URI names no file on this machine, said so that an editor can show it.
    public struct Refusal: Error, Equatable, Sendable {
        public let reason: String
    }

    /// The absolute path a `file:` URI names, percent-decoded. Refused: another scheme, a host
    /// other than this machine, a relative path, a broken escape, and a path that the file
    /// system could not take whole (a NUL ends a name there, an escaped slash would split one,
    /// bytes that are not UTF-8 could not be spelled back).
    public static func path(_ uri: String) -> Result<String, Refusal> {
        func refuse(_ why: String) -> Result<String, Refusal> { .failure(Refusal(reason: "'\(shown(uri))' \(why)")) }
        let bytes = Array(uri.utf8)
        let scheme = Array("file:".utf8)
        guard bytes.count >= scheme.count, zip(bytes, scheme).allSatisfy({ lowercased($0) == $1 }) else {
            return refuse("is not a file: URI")
        }
        var rest = bytes[scheme.count...]
        // file://host/path, or file:/path with no authority at all.
        if rest.starts(with: "//".utf8) {
            rest = rest.dropFirst(2)
            let hostEnd = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            let host = rest[..<hostEnd]
            guard host.isEmpty || host.map(lowercased).elementsEqual("localhost".utf8) else {
                return refuse("names a file on another machine ('\(String(decoding: host, as: UTF8.self))'); only local files can be used")
            }
            rest = rest[hostEnd...]
        }
        guard rest.first == UInt8(ascii: "/") else { return refuse("does not name an absolute path") }
        if rest.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            return refuse("has a query or a fragment, which no file has")
        }
        var out: [UInt8] = []
        out.reserveCapacity(rest.count)
        var i = rest.startIndex
        while i < rest.endIndex {
            var byte = rest[i]
            i += 1
            if byte == UInt8(ascii: "%") {
                guard i + 1 < rest.endIndex, let high = hexValue(rest[i]), let low = hexValue(rest[i + 1]) else {
                    return refuse("has a '%' that is not followed by two hexadecimal digits")
                }
                byte = high << 4 | low
                i += 2
                if byte == UInt8(ascii: "/") { return refuse("holds an escaped '/' (%2F), which no file name can hold") }
            }
            if byte == 0 { return refuse("holds a NUL byte (%00), which no file name can hold") }
            out.append(byte)
        }
        guard let path = String(validating: out, as: UTF8.self) else {
            return refuse("holds bytes that are not UTF-8, which this server cannot name a file with")
        }
        return .success(path)
    }

    /// A `file:` URI for an absolute path, with every byte but letters, digits and `/-._~` escaped.
    public static func uri(of path: String) -> String {
        var out = "file://"
        for byte in path.utf8 {
            let safe =
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || "/-._~".utf8.contains(byte)
            if safe {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// The URI as it may be shown: control characters escaped, at most 200 bytes.
    private static func shown(_ uri: String) -> String {
        var text = ""
        for scalar in uri.unicodeScalars.prefix(200) {
            text += scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }
        return uri.unicodeScalars.count > 200 ? text + "…" : text
    }
}
