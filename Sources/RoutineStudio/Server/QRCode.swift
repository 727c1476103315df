import CQREncode

#if canImport(Glibc)
import Glibc
#endif

/// A QR code's modules, as Debian's libqrencode makes them (no encoder is written here): the
/// pairing address shown on the terminal and on the desk's page.
struct QRCode: Sendable, Equatable {
    let width: Int
    /// Row by row, true for a dark module.
    let dark: [Bool]

    /// The code of `text` at error correction level M; nil when libqrencode refuses it.
    init?(_ text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        self.width = width
        // Bit 0 of each byte is the module's colour; the others say what it is part of.
        dark = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }

    func isDark(_ x: Int, _ y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < width && dark[y * width + x] }

    /// The quiet zone a reader needs around the code, in modules.
    static let margin = 4

    /// Two rows a line in half blocks, light modules drawn in the terminal's foreground, as
    /// `qrencode -t UTF8` does: readers take the code either way round.
    var terminalText: String {
        let span = -Self.margin..<width + Self.margin
        var lines: [String] = []
        for y in stride(from: -Self.margin, to: width + Self.margin, by: 2) {
            lines.append(
                String(
                    span.map { x -> Character in
                        switch (isDark(x, y), isDark(x, y + 1)) {
                        case (false, false): "█"
                        case (false, true): "▀"
                        case (true, false): "▄"
                        case (true, true): " "
                        }
                    }))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An SVG path of the dark modules, one unit square each, in a box of `width + 2 * margin`
    /// units with the margin at 0: the page draws it with `path.setAttribute("d", …)`.
    var svgPath: String {
        var path = ""
        for y in 0..<width {
            var x = 0
            while x < width {
                guard isDark(x, y) else {
                    x += 1
                    continue
                }
                let start = x
                while x < width && isDark(x, y) { x += 1 }
                path += "M\(start + Self.margin) \(y + Self.margin)h\(x - start)v1h-\(x - start)z"
            }
        }
        return path
    }
}
