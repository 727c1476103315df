/// Turns diagnostics into text. The caller decides about colour; the renderer never looks
/// at the terminal or the environment.
public struct DiagnosticRenderer: Sendable {
    public enum Style: String, Sendable, CaseIterable {
        /// The header line, the source line with a gutter and an underline, then notes.
        case rich
        /// `FILE:LINE:COL: severity[CODE]: message` lines, each followed by a
        /// `FILE:LINE:COL: note: ...` line per note and per fix.
        case short
    }

    /// After this many diagnostics in one file, the rest are rendered short: a file of
    /// thousands of errors should still be read quickly, and its first errors matter most.
    public static let richLimit = 200

    public var style: Style
    public var colors: Bool

    public init(style: Style = .rich, colors: Bool = false) {
        self.style = style
        self.colors = colors
    }

    public func render(_ diagnostics: [Diagnostic], in file: SourceFile) -> String {
        var table = LineTable(file)
        // The name as it may be shown: a file name can hold any byte but '/' and NUL.
        let shown = SourceFile(name: Sanitizer.visible(file.name), bytes: file.bytes)
        var out = ""
        for (k, diagnostic) in diagnostics.enumerated() {
            let rich = style == .rich && k < Self.richLimit
            out += render(diagnostic.visible, file: shown, table: &table, rich: rich)
        }
        return out
    }

    private func render(_ d: Diagnostic, file: SourceFile, table: inout LineTable, rich: Bool) -> String {
        var out =
            paint(located(d.span, file: file, table: &table), .bold) + " "
            + paint("\(d.severity.rawValue)[\(d.code.rawValue)]:", severityStyle(d.severity))
        out += " " + paint(d.message, .bold) + "\n"
        if !rich {
            // GCC's and Clang's convention, which quickfix lists read: each note and each fix
            // on a line of its own, at its place (a note without one at the diagnostic's).
            // Past the rich limit, only the notes that point elsewhere.
            let full = style == .short
            for note in d.notes where full || note.span != nil {
                out += located(note.span ?? d.span, file: file, table: &table) + " note: \(note.message)\n"
            }
            if full {
                for fix in (d.fixIt.map { [$0] } ?? []) + d.alternatives {
                    out += located(fix.span, file: file, table: &table) + " note: \(fix.message)\n"
                }
            }
            return out
        }
        var labels: [(Span, String, Bool)] = []
        if let span = d.span { labels.append((span, d.label ?? "", true)) }
        labels += d.secondary.map { ($0.span, $0.message, false) }
        let snippet = SourceSnippet(table: table, labels: labels)
        let gutterWidth = snippet.gutterWidth
        let pad = String(repeating: " ", count: gutterWidth)
        let bar = paint("|", .gutter)
        if !snippet.rows.isEmpty {
            out += pad + " " + bar + "\n"
            var previousLine: Int?
            for row in snippet.rows {
                if let previous = previousLine, row.line > previous + 1 { out += paint(pad + " ...", .gutter) + "\n" }
                previousLine = row.line
                let number = String(row.line)
                out += paint(String(repeating: " ", count: gutterWidth - number.count) + number, .gutter) + " " + bar
                out += row.text.isEmpty ? "\n" : " " + row.text + "\n"
                for mark in row.marks {
                    let underline = String(repeating: mark.primary ? "^" : "-", count: mark.width)
                    var text = String(repeating: " ", count: mark.column) + paint(underline, mark.primary ? severityStyle(d.severity) : .gutter)
                    if !mark.message.isEmpty { text += " " + paint(mark.message, mark.primary ? severityStyle(d.severity) : .gutter) }
                    out += pad + " " + bar + " " + text + "\n"
                }
            }
        }
        for note in d.notes {
            var text = note.message
            if let span = note.span {
                let (line, column) = table.location(of: span.lowerBound)
                text += " (\(file.name):\(line):\(column))"
            }
            out += pad + " " + paint("= note:", .bold) + " " + text + "\n"
        }
        for fix in (d.fixIt.map { [$0] } ?? []) + d.alternatives {
            out += pad + " " + paint("= help:", .bold) + " " + fix.message + "\n"
        }
        return out
    }

    /// `FILE:LINE:COL:`, or `FILE:` for a diagnostic of the whole input.
    private func located(_ span: Span?, file: SourceFile, table: inout LineTable) -> String {
        guard let span else { return file.name + ":" }
        let (line, column) = table.locate(span.lowerBound)
        return "\(file.name):\(line):\(column):"
    }

    enum Paint { case bold, gutter, error, warning, note }

    private func severityStyle(_ severity: Severity) -> Paint {
        switch severity {
        case .error: .error
        case .warning: .warning
        case .note: .note
        }
    }

    private func paint(_ text: String, _ paint: Paint) -> String {
        guard colors else { return text }
        let code =
            switch paint {
            case .bold: "1"
            case .gutter: "1;34"
            case .error: "1;31"
            case .warning: "1;33"
            case .note: "1;36"
            }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}

extension Diagnostic {
    /// The diagnostic with every text that may hold a routine's own characters made safe for
    /// a terminal.
    var visible: Diagnostic {
        var d = self
        d.message = Sanitizer.visible(message)
        d.label = label.map { Sanitizer.visible($0) }
        for k in d.secondary.indices { d.secondary[k].message = Sanitizer.visible(d.secondary[k].message) }
        for k in d.notes.indices { d.notes[k].message = Sanitizer.visible(d.notes[k].message) }
        if let fix = d.fixIt { d.fixIt?.message = Sanitizer.visible(fix.message) }
        for k in d.alternatives.indices { d.alternatives[k].message = Sanitizer.visible(d.alternatives[k].message) }
        return d
    }
}
