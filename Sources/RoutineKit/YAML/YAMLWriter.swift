import CYAML

/// Writes a routine as YAML (schema in grammar.md) through libyaml's emitter, which quotes
/// and escapes every string correctly: colons, `#`, a leading dash, quotes, backslashes,
/// line breaks. Text is written as UTF-8, emoji too.
public enum YAMLWriter {
    public static func write(_ routine: Routine) -> String {
        let (text, astral) = emit(routine, mark: nil)
        guard astral else { return text }
        // libyaml escapes every character past U+FFFF (`\U0001F634`), which YAML does not
        // require: each goes through as a mark that the text holds nowhere else, its code
        // after it, and is put back after.
        let used = Set(text.unicodeScalars.filter { (0xE000...0xF8FF).contains($0.value) })
        guard let mark = (UInt32(0xE000)...0xF8FF).lazy.compactMap(Unicode.Scalar.init).first(where: { !used.contains($0) }) else { return text }
        return restore(emit(routine, mark: mark).text, mark: mark)
    }

    /// `text` with each mark and the hexadecimal code after it (up to a `;`) made the character.
    private static func restore(_ text: String, mark: Unicode.Scalar) -> String {
        var out = String.UnicodeScalarView()
        var code: UInt32?
        for scalar in text.unicodeScalars {
            if scalar == mark {
                code = 0
            } else if let value = code {
                if scalar == ";" {
                    if let character = Unicode.Scalar(value) { out.append(character) }
                    code = nil
                } else {
                    code = value &<< 4 | UInt32(Int(String(scalar), radix: 16) ?? 0)
                }
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The YAML text, and whether a string held a character past U+FFFF; with `mark`, each
    /// such character is written as the mark, its code in hexadecimal and a `;`.
    private static func emit(_ routine: Routine, mark: Unicode.Scalar?) -> (text: String, astral: Bool) {
        let emitter = Emitter(mark: mark)
        emitter.event { yaml_stream_start_event_initialize($0, YAML_UTF8_ENCODING) }
        emitter.event { yaml_document_start_event_initialize($0, nil, nil, nil, 1) }
        emitter.beginMapping()
        emitter.pair("routine", string: routine.name)
        if routine.startSpan != nil {
            emitter.scalar("start")
            emitter.flowList(routine.explicitStart.map { routine.name(of: $0.target) })
        }
        emitter.scalar("nodes")
        emitter.beginList()
        for node in routine.nodes {
            emitter.beginMapping()
            emitter.pair(node.kind.rawValue, plain: node.id)
            emitter.pair(node.isHabit ? "title" : "prompt", string: node.title)
            if let seconds = node.duration { emitter.pair("for", plain: DurationText.format(seconds)) }
            if let target = node.target {
                emitter.pair(target.atMost ? "at-most" : "target", plain: target.amountText)
                if let unit = target.unit { emitter.pair("unit", string: unit) }
            }
            if let days = node.days {
                emitter.scalar("on")
                emitter.flowList(days.words)
            }
            if let perWeek = node.perWeek { emitter.pair("per-week", plain: String(perWeek)) }
            if let note = node.note { emitter.pair("note", string: note) }
            if node.isQuestion {
                emitter.scalar("options")
                emitter.beginList()
                for option in node.options {
                    emitter.beginMapping()
                    emitter.pair("answer", string: option.text)
                    emitter.targets(option.next, routine)
                    emitter.endMapping()
                }
                emitter.endList()
            }
            emitter.targets(node.next, routine)
            emitter.endMapping()
        }
        emitter.endList()
        emitter.endMapping()
        emitter.event { yaml_document_end_event_initialize($0, 1) }
        emitter.event { yaml_stream_end_event_initialize($0) }
        let astral = emitter.astral
        return (emitter.finish(), astral)
    }

    /// Whether a string written plain would be read back as something else (a number, a
    /// boolean, null) by YAML tools, so it must be quoted. libyaml already quotes what plain
    /// style cannot carry at all.
    static func needsQuotes(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return true }
        let words: Set<String> = ["y", "n", "yes", "no", "true", "false", "on", "off", "null", "~"]
        if words.contains(text.lowercased()) { return true }
        if "0123456789+-.".unicodeScalars.contains(first) { return true }
        return text.unicodeScalars.contains {
            $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x85 || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{FEFF}"
        }
            || text.first!.isWhitespace || text.last!.isWhitespace
    }
}

/// A small driver for `yaml_emitter_t` that collects the output in memory.
private struct Emitter: ~Copyable {
    final class Output {
        var bytes: [UInt8] = []
        var astral = false
    }

    private let emitter: UnsafeMutablePointer<yaml_emitter_t>
    private let output = Output()
    private let mark: Unicode.Scalar?

    /// Whether a scalar held a character past U+FFFF.
    var astral: Bool { output.astral }

    init(mark: Unicode.Scalar?) {
        self.mark = mark
        emitter = .allocate(capacity: 1)
        yaml_emitter_initialize(emitter)
        yaml_emitter_set_unicode(emitter, 1)
        yaml_emitter_set_width(emitter, -1)
        yaml_emitter_set_indent(emitter, 2)
        yaml_emitter_set_output(
            emitter,
            { data, buffer, size in
                let output = Unmanaged<Output>.fromOpaque(data!).takeUnretainedValue()
                output.bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: size))
                return 1
            }, Unmanaged.passUnretained(output).toOpaque())
    }

    deinit {
        yaml_emitter_delete(emitter)
        emitter.deallocate()
    }

    /// Emits one event; libyaml only fails here on a misuse of its API, which is a bug.
    func event(_ initialize: (UnsafeMutablePointer<yaml_event_t>) -> Int32) {
        var event = yaml_event_t()
        precondition(initialize(&event) != 0 && yaml_emitter_emit(emitter, &event) != 0, "libyaml emitter refused an event")
    }

    func scalar(_ text: String, style: yaml_scalar_style_t = YAML_PLAIN_SCALAR_STYLE) {
        var text = text
        if text.unicodeScalars.contains(where: { $0.value > 0xFFFF }) {
            output.astral = true
            if let mark {
                var marked = String.UnicodeScalarView()
                for scalar in text.unicodeScalars {
                    if scalar.value > 0xFFFF {
                        marked.append(mark)
                        marked.append(contentsOf: String(scalar.value, radix: 16).unicodeScalars)
                        marked.append(";")
                    } else {
                        marked.append(scalar)
                    }
                }
                text = String(marked)
            }
        }
        text.withUTF8 { bytes in
            let base = UnsafeMutablePointer(mutating: bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
            event { yaml_scalar_event_initialize($0, nil, nil, base, Int32(bytes.count), 1, 1, style) }
        }
    }

    func pair(_ key: String, plain value: String) {
        scalar(key)
        scalar(value)
    }

    func pair(_ key: String, string value: String) {
        scalar(key)
        scalar(value, style: YAMLWriter.needsQuotes(value) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE)
    }

    func beginMapping() { event { yaml_mapping_start_event_initialize($0, nil, nil, 1, YAML_BLOCK_MAPPING_STYLE) } }
    func endMapping() { event { yaml_mapping_end_event_initialize($0) } }
    func beginList(flow: Bool = false) {
        event { yaml_sequence_start_event_initialize($0, nil, nil, 1, flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE) }
    }
    func endList() { event { yaml_sequence_end_event_initialize($0) } }

    func flowList(_ items: [String]) {
        beginList(flow: true)
        for item in items { scalar(item) }
        endList()
    }

    /// `next:` as one target, or a flow list of several.
    func targets(_ edges: [Edge], _ routine: Routine) {
        guard !edges.isEmpty else { return }
        scalar("next")
        if edges.count == 1 {
            scalar(routine.name(of: edges[0].target))
        } else {
            flowList(edges.map { routine.name(of: $0.target) })
        }
    }

    consuming func finish() -> String {
        yaml_emitter_flush(emitter)
        return String(decoding: output.bytes, as: UTF8.self)
    }
}
