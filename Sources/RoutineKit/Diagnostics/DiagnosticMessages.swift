/// The catalogue of every diagnostic's text. Messages are lowercase, end without a period,
/// quote source names in 'single quotes', and make sense without the source line.
extension Diagnostic {
    // MARK: Reading and lexing

    public static func unreadable(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(.unreadableInput, "cannot read '\(path)': \(reason)", at: nil)
    }

    public static func tooLarge(_ path: String, size: Int) -> Diagnostic {
        Diagnostic(
            .inputTooLarge, "'\(path)' is \(size) bytes, more than the largest accepted input (\(SourceFile.maximumSize) bytes)",
            at: nil)
    }

    public static func unwritable(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(.unwritableOutput, "cannot write '\(path)': \(reason)", at: nil)
    }

    public static func missingProgram(_ program: String, for path: String) -> Diagnostic {
        Diagnostic(
            .missingProgram, "cannot render '\(path)': Graphviz's '\(program)' is not on PATH", at: nil,
            notes: [Note("install Graphviz (Debian: apt-get install graphviz), or write DOT with '-o \(stem(path)).dot'")])
    }

    /// Closes a list cut short at ``DiagnosticList/limitPerCode`` diagnostics of one code.
    public static func omitted(_ count: Int, of code: DiagnosticCode) -> Diagnostic {
        var diagnostic = Diagnostic(
            code, "and \(count) more \(code.rawValue) not listed (\(code.summary))", at: nil,
            notes: [Note("only the first \(DiagnosticList.limitPerCode) diagnostics of one code are kept; fix those and check again")])
        diagnostic.count = count
        return diagnostic
    }

    // MARK: Imports from other trackers

    /// Another tracker's file that is none of the exports import reads.
    public static func unreadableTrackerExport(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(.unreadableTrackerExport, "cannot import '\(path)': \(reason)", at: nil, notes: [Note("nothing was imported")])
    }

    /// A row or line of another tracker's export that cannot be read.
    public static func invalidTrackerRecord(_ path: String, place: String, reason: String) -> Diagnostic {
        Diagnostic(.invalidTrackerRecord, "'\(path)' \(place): \(reason)", at: nil, notes: [Note("nothing was imported")])
    }

    /// An import's routine file that holds another routine (or cannot be read as one).
    public static func importWouldReplace(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(
            .importWouldReplace, "'\(path)' \(reason)", at: nil,
            notes: [Note("import only adds to the routine it wrote; name a new file with --routine")])
    }

    static func invalidUTF8(offset: Int, byte: UInt8) -> Diagnostic {
        let hex = String(byte, radix: 16, uppercase: true)
        return Diagnostic(
            .invalidUTF8, "input is not valid UTF-8: byte 0x\(hex.count == 1 ? "0" + hex : hex) at offset \(offset)",
            at: Span(start: offset, end: offset + 1), label: "not UTF-8",
            notes: [Note("save the file as UTF-8")])
    }

    static func unexpectedCharacter(_ text: String, at span: Span) -> Diagnostic {
        Diagnostic(.unexpectedCharacter, "unexpected character \(describe(character: text))", at: span)
    }

    static func singleQuote(at span: Span, replacement: String?) -> Diagnostic {
        Diagnostic(
            .unexpectedCharacter, "strings use double quotes", at: span,
            fixIt: replacement.map { FixIt("write \($0)", replacing: span, with: $0) })
    }

    static func unquotedName(_ name: String, at span: Span) -> Diagnostic {
        let quoted = StringLiteral.encode(name)
        return Diagnostic(
            .expectedToken, "the routine's name goes in double quotes", at: span,
            fixIt: FixIt("write \(quoted)", replacing: span, with: quoted))
    }

    static func unterminatedString(at span: Span) -> Diagnostic {
        Diagnostic(
            .unterminatedString, "unterminated string", at: span, label: "this string has no closing '\"'",
            notes: [Note("a string ends on the line it starts; write a line break as '\\n'")])
    }

    static func invalidEscape(_ text: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .invalidEscape, "invalid escape sequence '\(text)' in string", at: span,
            notes: [Note("the escapes are '\\\"', '\\\\', '\\n', '\\t' and '\\u{1F600}'")])
    }

    static func nulInText(_ what: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .nulInText, "\(what) holds the character NUL", at: span,
            notes: [Note("a run's record would end at it; remove the NUL (written '\\u{0}' or a zero byte)")])
    }

    // MARK: Syntax

    static func expected(_ what: String, found: String, at span: Span, note: String? = nil) -> Diagnostic {
        Diagnostic(.expectedToken, "expected \(what), found \(found)", at: span, notes: note.map { [Note($0)] } ?? [])
    }

    static func missingRoutine(at span: Span) -> Diagnostic {
        Diagnostic(
            .missingRoutine, "missing routine declaration", at: span,
            label: "the file must start with 'routine \"NAME\"'",
            fixIt: FixIt("add a routine declaration", replacing: Span(at: span.lowerBound), with: "routine \"Routine\"\n"))
    }

    static func duplicateRoutine(at span: Span, first: Span) -> Diagnostic {
        Diagnostic(
            .duplicateRoutine, "duplicate routine declaration", at: span,
            secondary: [Label(first, "first declared here")])
    }

    static func routineNotFirst(at span: Span) -> Diagnostic {
        Diagnostic(
            .duplicateRoutine, "the routine declaration must come first in the file", at: span,
            notes: [Note("move 'routine \"NAME\"' above every other declaration")])
    }

    static func duplicateStart(at span: Span, first: Span) -> Diagnostic {
        Diagnostic(
            .duplicateStart, "duplicate start declaration", at: span,
            secondary: [Label(first, "first declared here")],
            notes: [Note("list several start nodes in one declaration: 'start -> a, b'")])
    }

    static func duplicateAttribute(_ name: String, node: String, at span: Span, first: Span) -> Diagnostic {
        Diagnostic(
            .duplicateAttribute, "'\(name)' is given twice for '\(node)'", at: span,
            secondary: [Label(first, "first given here")])
    }

    static func attributeOnQuestion(_ name: String, node: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .attributeOnQuestion, "'\(name)' is not allowed on question '\(node)'", at: span,
            notes: [Note("only habits have 'for', 'target' and 'on'; a question may have a 'note'")])
    }

    static func duplicateArrow(_ owner: String, at span: Span, first: Span) -> Diagnostic {
        Diagnostic(
            .duplicateArrow, "\(owner) has more than one arrow", at: span,
            secondary: [Label(first, "first arrow here")],
            notes: [Note("list every target in one arrow: '-> a, b'")])
    }

    static func invalidDuration(_ text: String, at span: Span, reason: String) -> Diagnostic {
        Diagnostic(
            .invalidDuration, "invalid duration '\(text)': \(reason)", at: span,
            notes: [Note("a duration is hours, minutes and seconds in that order, such as '90s', '10m', '1h30m'")])
    }

    static func spelledOutDuration(_ text: String, at span: Span, replacement: String) -> Diagnostic {
        Diagnostic(
            .invalidDuration, "invalid duration '\(text)': write the unit as one letter after the number", at: span,
            fixIt: FixIt("write '\(replacement)'", replacing: span, with: replacement))
    }

    static func fractionalDuration(_ text: String, at span: Span, replacement: String) -> Diagnostic {
        Diagnostic(
            .invalidDuration, "invalid duration '\(text)': durations are whole numbers of hours, minutes and seconds", at: span,
            fixIt: FixIt("write '\(replacement)'", replacing: span, with: replacement))
    }

    static func unitGluedToTarget(_ text: String, number: String, unit: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .invalidNumber, "invalid target '\(text)': put a space between the number and its unit", at: span,
            fixIt: FixIt("write '\(number) \(unit)'", replacing: span, with: "\(number) \(unit)"))
    }

    static func unitInYAMLTarget(_ text: String, number: String, unit: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .invalidNumber, "invalid target '\(text)': put the unit in 'unit:'", at: span,
            notes: [Note("write 'target: \(number)' and, on the next line, 'unit: \(unit)'")],
            fixIt: FixIt("write '\(number)' here and the unit under 'unit:'", replacing: span, with: number))
    }

    static func invalidIdentifier(_ text: String, at span: Span, form: SourceFormat = .rt) -> Diagnostic {
        let titles = form == .rt ? "titles in quotes may hold any text" : "a 'title' or 'prompt' may hold any text"
        return Diagnostic(
            .unexpectedCharacter, "invalid node ID '\(text)'", at: span,
            notes: [Note("an ID is ASCII letters, digits, '_' and '-', starting with a letter or '_'; \(titles)")])
    }

    static func invalidNumber(_ text: String, at span: Span, reason: String) -> Diagnostic {
        Diagnostic(
            .invalidNumber, "invalid target '\(text)': \(reason)", at: span,
            notes: [
                Note("a target is a number such as '8' or '2.5', at most \(TargetValue.maximumText), and above 0 unless it is a limit ('at most 0')")
            ])
    }

    static func unknownDay(_ text: String, at span: Span) -> Diagnostic {
        let lower = text.lowercased()
        let suggestion =
            Weekdays.names.contains(lower)
            ? lower
            : Weekdays.dayNames.first(where: { lower.count > 3 && lower.hasPrefix($0) })
                ?? closestMatch(to: lower, among: Weekdays.names)
        return Diagnostic(
            .unknownDay, "unknown day '\(text)'", at: span,
            notes: [Note("days are mon, tue, wed, thu, fri, sat, sun, weekdays and weekends")],
            fixIt: suggestion.map { FixIt("did you mean '\($0)'?", replacing: span, with: $0) })
    }

    static func missingDays(at span: Span) -> Diagnostic {
        Diagnostic(.unknownDay, "'on' needs at least one day", at: span, label: "no day after 'on'")
    }

    static func missingTargets(at span: Span) -> Diagnostic {
        Diagnostic(
            .missingTargets, "expected a target after '->'", at: span,
            notes: [Note("name a node, several separated by commas, or 'end'")])
    }

    static func bareGather(_ arrow: String, at span: Span, under option: String?, move: FixIt?) -> Diagnostic {
        let message =
            option.map { "this arrow is the question's gather, not the arrow of option '\($0)'" }
            ?? "an arrow on its own line in a question is its gather: write 'then \(arrow)'"
        return Diagnostic(
            .bareGather, message, at: span, label: "runs after whichever option is chosen",
            notes: [Note("an option's own arrow goes on the option's line")],
            fixIt: FixIt("write 'then \(arrow)' for the gather", replacing: Span(at: span.lowerBound), with: "then "),
            alternatives: move.map { [$0] } ?? [])
    }

    static func optionAfterGather(_ text: String, at span: Span, gather: Span, fixIt: FixIt?) -> Diagnostic {
        Diagnostic(
            .optionAfterGather, "options come before the question's 'then'", at: span, label: "option '\(text)' after the gather",
            secondary: [Label(gather, "the gather ends the options")],
            notes: [Note("the gather runs after whichever option is chosen, so it comes after all of them")], fixIt: fixIt)
    }

    // MARK: Meaning

    static func duplicateNode(_ id: String, at span: Span, first: Span) -> Diagnostic {
        Diagnostic(
            .duplicateNode, "duplicate node ID '\(id)'", at: span, label: "declared again here",
            secondary: [Label(first, "first declared here")])
    }

    static func unknownTarget(_ name: String, at span: Span, suggestion: String?, isStart: Bool) -> Diagnostic {
        Diagnostic(
            isStart ? .unknownStart : .unknownTarget,
            isStart ? "start target '\(name)' names no node" : "unknown target '\(name)'",
            at: span, label: "no node is named '\(name)'",
            fixIt: suggestion.map { FixIt("did you mean '\($0)'?", replacing: span, with: $0) })
    }

    static func cycle(path: [String], at span: Span, edges: [(from: String, to: String, span: Span)]) -> Diagnostic {
        let shown = path.map { "'\($0)'" }.joined(separator: " -> ")
        return Diagnostic(
            .cycle, "routine has a cycle: \(shown)", at: span, label: "this arrow closes the cycle",
            notes: edges.map { Note("'\($0.from)' leads to '\($0.to)' here", at: $0.span) }
                + [Note("a routine must never lead back to a node it has already run")])
    }

    static func duplicateOption(_ text: String, question: String, at span: Span, first: Span) -> Diagnostic {
        Diagnostic(
            .duplicateOption, "question '\(question)' has two options '\(text)'", at: span,
            secondary: [Label(first, "first option here")])
    }

    static func questionWithoutOptions(_ id: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .questionWithoutOptions, "question '\(id)' has no options", at: span,
            notes: [Note("write each option on a line of its own: '\"Yes\" -> next'")])
    }

    static func emptyText(_ what: String, at span: Span) -> Diagnostic {
        Diagnostic(.emptyText, "\(what) is empty", at: span)
    }

    /// E114: a command's option (`paths --to`) names a node the routine does not have.
    public static func unknownNodeArgument(_ id: String, option: String, of routine: Routine) -> Diagnostic {
        let names = (0..<routine.nodeCount).map(routine.id(of:))
        return Diagnostic(
            .unknownNodeArgument, "\(option): no node is named '\(id)' in '\(routine.name)'" + nameHint(for: id, among: names, kind: "nodes"),
            at: nil)
    }

    /// E014: `stats --question ID`, or the studio's question table, names no question of the routine.
    public static func notAQuestion(_ id: String, of routine: Routine) -> Diagnostic {
        let questions = (0..<routine.nodeCount).filter(routine.isQuestion).map(routine.id(of:))
        return Diagnostic(
            .notAQuestion, "'\(id)' is not a question of '\(routine.name)'" + nameHint(for: id, among: questions, kind: "questions"), at: nil)
    }

    static func endAsStart(at span: Span) -> Diagnostic {
        Diagnostic(.endAsStart, "'end' cannot be a start target", at: span, notes: [Note("the routine would end before it began")])
    }

    // MARK: YAML

    static func yamlSyntax(_ problem: String, at span: Span, contextAt context: Int?) -> Diagnostic {
        Diagnostic(
            .yamlSyntax, "invalid YAML: \(problem)", at: span,
            secondary: context.map { [Label(Span(start: $0, end: $0 + 1), "the construct started here")] } ?? [])
    }

    static func unknownKey(_ key: String, in place: String, at span: Span, known: [String]) -> Diagnostic {
        let suggestion = closestMatch(to: key, among: known)
        return Diagnostic(
            .unknownKey, "unknown key '\(key)' in \(place)", at: span,
            notes: [Note("the keys are " + known.map { "'\($0)'" }.joined(separator: ", "))],
            fixIt: suggestion.map { FixIt("did you mean '\($0)'?", replacing: span, with: $0) })
    }

    static func misplacedKey(_ key: String, at span: Span, instead: String, reason: String) -> Diagnostic {
        Diagnostic(
            .unknownKey, "'\(key)' does not belong here: \(reason)", at: span,
            fixIt: FixIt("did you mean '\(instead)'?", replacing: span, with: instead))
    }

    /// `target` and `at-most` on one YAML habit.
    static func twoTargets(at span: Span, first: Span) -> Diagnostic {
        Diagnostic(
            .twoTargets, "a habit has one target: 'target' (to reach) or 'at-most' (a limit), not both", at: span,
            secondary: [Label(first, "the other given here")])
    }

    static func duplicateKey(_ key: String, at span: Span, first: Span) -> Diagnostic {
        Diagnostic(.duplicateKey, "duplicate key '\(key)'", at: span, secondary: [Label(first, "first given here")])
    }

    /// `subject` is a phrase as it reads in a sentence: a key in quotes (`'title'`), or words
    /// such as "each option".
    static func wrongType(_ subject: String, expected: String, found: String, at span: Span) -> Diagnostic {
        Diagnostic(.wrongType, "\(subject) must be \(expected), found \(found)", at: span)
    }

    static func missingKey(_ key: String, in place: String, at span: Span, note: String? = nil) -> Diagnostic {
        Diagnostic(.missingKey, "missing key '\(key)' in \(place)", at: span, notes: note.map { [Note($0)] } ?? [])
    }

    static func conflictingKind(_ id: String, at span: Span, first: Span) -> Diagnostic {
        Diagnostic(
            .conflictingKind, "node '\(id)' is both a habit and a question", at: span,
            secondary: [Label(first, "declared here as well")], notes: [Note("give each node either 'habit: ID' or 'question: ID'")])
    }

    static func yamlAlias(at span: Span) -> Diagnostic {
        Diagnostic(
            .yamlAlias, "YAML anchors and aliases are not supported", at: span,
            notes: [Note("write the value out in full; refusing aliases keeps a small file from expanding without bound")])
    }

    static func yamlTooDeep(at span: Span, limit: Int) -> Diagnostic {
        Diagnostic(.yamlTooDeep, "YAML is nested more than \(limit) levels deep", at: span, notes: [Note("a routine needs at most 5 levels")])
    }

    static func yamlSecondDocument(at span: Span) -> Diagnostic {
        Diagnostic(.yamlMultipleDocuments, "a second YAML document in one file", at: span, notes: [Note("one file holds one routine")])
    }

    static func yamlTag(_ tag: String, at span: Span) -> Diagnostic {
        Diagnostic(.yamlTag, "YAML tag '\(tag)' is not supported", at: span, notes: [Note("remove the tag; values are read by the schema")])
    }

    // MARK: Warnings

    /// `after` lists the other nodes of the region entered at `id`: empty for a lone node,
    /// `nil` when they were too many to count.
    static func unreachable(_ id: String, at span: Span, after: [Label]? = [], form: SourceFormat = .rt) -> Diagnostic {
        let advice =
            form == .rt
            ? "add an arrow to '\(id)', or list it in 'start -> ...'"
            : "name '\(id)' in a 'next:' of another node, or list it under 'start:'"
        guard let after else {
            return Diagnostic(.unreachableNode, "node '\(id)' and the nodes after it can never be reached", at: span, notes: [Note(advice)])
        }
        guard !after.isEmpty else {
            return Diagnostic(.unreachableNode, "node '\(id)' can never be reached from the start", at: span, notes: [Note(advice)])
        }
        let count = after.count == 1 ? "the node" : "the \(Self.grouped(after.count)) nodes"
        let shown = 5
        var names = after.prefix(shown).map { "'\($0.message)'" }.joined(separator: ", ")
        if after.count > shown { names += " and \(Self.grouped(after.count - shown)) more" }
        var summary = Note((after.count == 1 ? "the other is " : "the others are ") + names)
        summary.summarizesRelated = true
        var diagnostic = Diagnostic(
            .unreachableNode, "node '\(id)' and \(count) after it can never be reached", at: span, notes: [summary, Note(advice)])
        diagnostic.related = after.map { Label($0.span, reachedEither($0.message)) }
        return diagnostic
    }

    /// `'ID' can never be reached either`. Thousands of these for a chain cut off in its middle,
    /// made again at each keystroke in an editor: each is written into a string of its final
    /// size at once, where interpolation and appending grow it step by step.
    static func reachedEither(_ id: String) -> String {
        let suffix: StaticString = "' can never be reached either"
        var id = id
        return id.withUTF8 { name in
            let count = 1 + name.count + suffix.utf8CodeUnitCount
            return String(unsafeUninitializedCapacity: count) { out in
                out[0] = UInt8(ascii: "'")
                _ = UnsafeMutableBufferPointer(rebasing: out[1...]).initialize(from: name)
                _ = UnsafeMutableBufferPointer(rebasing: out[(1 + name.count)...])
                    .initialize(from: UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount))
                return count
            }
        }
    }

    /// `2499` as `2,499`: counts in messages are read, not parsed.
    static func grouped(_ number: Int) -> String {
        var digits = String(number.magnitude)
        var k = digits.count - 3
        while k > 0 {
            digits.insert(",", at: digits.index(digits.startIndex, offsetBy: k))
            k -= 3
        }
        return (number < 0 ? "-" : "") + digits
    }

    static func optionsAllSame(_ id: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .optionsAllSame, "every option of question '\(id)' leads to the same place", at: span,
            notes: [Note("the answer changes nothing; a habit may be what is meant")])
    }

    static func singleOption(_ id: String, at span: Span) -> Diagnostic {
        Diagnostic(.singleOption, "question '\(id)' has only one option", at: span)
    }

    static func duplicateTarget(_ name: String, at span: Span, first: Span) -> Diagnostic {
        Diagnostic(
            .duplicateTarget, "target '\(name)' is listed twice", at: span,
            secondary: [Label(first, "first listed here")])
    }

    static func targetsAfterEnd(at span: Span, end: Span) -> Diagnostic {
        Diagnostic(
            .targetsAfterEnd, "targets after 'end' never run", at: span,
            secondary: [Label(end, "the routine finishes here")])
    }

    static func everyDay(_ id: String, at span: Span) -> Diagnostic {
        Diagnostic(
            .everyDay, "habit '\(id)' is scheduled on every day", at: span,
            notes: [Note("a habit without 'on' runs every day")])
    }

    static func quotaBeyondDays(_ id: String, quota: Int, days: Weekdays, at span: Span) -> Diagnostic {
        let count = days.rawValue.nonzeroBitCount
        return Diagnostic(
            .quotaBeyondDays, "habit '\(id)' can never meet its quota: \(quota) per week on \(count) day\(count == 1 ? "" : "s")", at: span,
            notes: [Note("it is due on '\(days.words.joined(separator: " "))' only: lower the quota to \(count) or name more days")])
    }

    static func emptyRoutine(_ name: String, at span: Span) -> Diagnostic {
        Diagnostic(.emptyRoutine, "routine '\(name)' has no habits or questions", at: span)
    }

    static func duplicateDay(_ day: String, at span: Span) -> Diagnostic {
        Diagnostic(.duplicateDay, "day '\(day)' is named twice", at: span)
    }

    // MARK: Helpers

    static func stem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
    }

    static func describe(character text: String) -> String {
        guard let scalar = text.unicodeScalars.first else { return "end of input" }
        if scalar.value < 0x20 || scalar.value == 0x7F || scalar.properties.isWhitespace
            || scalar.properties.generalCategory == .format
        {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return "'\(text)'"
    }
}
