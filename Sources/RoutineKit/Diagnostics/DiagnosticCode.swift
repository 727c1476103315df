/// A diagnostic's stable code and what it means. Codes are never reused or renumbered.
///
/// One type for every module, as swift-syntax's `MessageID`: each module declares the codes of
/// its own diagnostics (`static let` members of an extension) beside their messages, and lists
/// them, so that the language core knows nothing of the history, sync or the studio. The codes
/// of the language are here; RoutineHistory declares the history's and sync's, RoutineStudio the
/// studio's and `routine` the reminders'.
///
/// E0xx: reading and lexing; E1xx: syntax; E2xx: meaning; E3xx: YAML; E4xx: test files;
/// E5xx: logs outside a run; E6xx: the studio's edits; E7xx: sync folders; W0xx: warnings; N0xx: notes.
public struct DiagnosticCode: Hashable, Sendable, CustomStringConvertible {
    /// The code as printed: `E001`, `W002`, `N001`.
    public let rawValue: String
    /// What the code means, for the catalogue in grammar.md and `--explain`-style listings.
    public let summary: String

    public init(_ rawValue: String, _ summary: String) {
        self.rawValue = rawValue
        self.summary = summary
    }

    public var severity: Severity { rawValue.hasPrefix("W") ? .warning : rawValue.hasPrefix("N") ? .note : .error }

    public var description: String { rawValue }

    /// A code is its printed form: the summary only describes it.
    public static func == (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

extension DiagnosticCode {
    // MARK: Reading and lexing
    public static let unreadableInput = DiagnosticCode("E001", "an input cannot be read (missing, a directory, no permission)")
    public static let inputTooLarge = DiagnosticCode("E002", "an input is larger than the largest accepted file")
    public static let invalidUTF8 = DiagnosticCode("E003", "an input is not valid UTF-8")
    public static let unexpectedCharacter = DiagnosticCode("E004", "a character that starts no token")
    public static let unterminatedString = DiagnosticCode("E005", "a string without its closing quote on the same line")
    public static let invalidEscape = DiagnosticCode("E006", "an escape sequence the language does not define")
    public static let unwritableOutput = DiagnosticCode("E007", "an output file cannot be written")
    public static let missingProgram = DiagnosticCode("E008", "a program needed for the output (Graphviz's dot) is not installed")
    public static let nulInText = DiagnosticCode("E012", "a string holding the character NUL, which a history cannot record whole")
    public static let notRegularFile = DiagnosticCode(
        "E013", "a routine or test file that is not a regular file: a pipe with no writer, a socket, a device the studio would serve")
    public static let notAQuestion = DiagnosticCode("E014", "a question's statistics asked of a node that is no question of the routine")
    public static let unreadableTrackerExport = DiagnosticCode(
        "E030", "a file to import from another tracker that is not one of its exports, or of a version not read")
    public static let invalidTrackerRecord = DiagnosticCode(
        "E031", "a row or line of another tracker's export that cannot be read, with its file, line and reason")
    public static let importWouldReplace = DiagnosticCode(
        "E032", "an import's routine file that already holds another routine, which import never replaces")

    // MARK: Logs outside a run
    public static let alreadyDone = DiagnosticCode("E501", "a log of a habit already done (or skipped) that day")
    public static let notScheduledThatDay = DiagnosticCode("E502", "a log of a habit on a day that is not one of its days")
    public static let quotaMet = DiagnosticCode("E503", "a log of a habit whose weekly quota is already met")
    public static let logOfQuestion = DiagnosticCode("E504", "a log of a question, which only a run answers")
    public static let unknownHabit = DiagnosticCode("E505", "a log of a node the routine does not have")
    public static let logValue = DiagnosticCode("E506", "a numeric habit logged without its value, or a value for a habit without a target")
    public static let nothingToUndo = DiagnosticCode("E507", "an undo with no log (or amendment) to take back")
    public static let notAnOption = DiagnosticCode("E510", "an amended answer that is not an option of the question")
    public static let answerUnchanged = DiagnosticCode("E511", "an amended answer that the day already holds: it would change nothing")
    public static let questionNotAnswered = DiagnosticCode("E512", "an amended answer to a question that no run answered that day")

    // MARK: Syntax
    public static let expectedToken = DiagnosticCode("E101", "the parser expected something else here")
    public static let missingRoutine = DiagnosticCode("E102", "the file does not start with its 'routine \"NAME\"' declaration")
    public static let duplicateRoutine = DiagnosticCode("E103", "a second routine declaration")
    public static let duplicateStart = DiagnosticCode("E104", "a second start declaration")
    public static let duplicateAttribute = DiagnosticCode("E105", "an attribute given twice on one node")
    public static let attributeOnQuestion = DiagnosticCode("E106", "a habit attribute on a question")
    public static let duplicateArrow = DiagnosticCode("E107", "a node or option with two arrows")
    public static let invalidDuration = DiagnosticCode("E108", "a duration that is malformed, zero or too long")
    public static let invalidNumber = DiagnosticCode(
        "E109", "a target or quota that is malformed or out of range: a goal of zero, a number too large, a quota outside 1 to 7")
    public static let unknownDay = DiagnosticCode("E110", "a day name that is not mon..sun, weekdays or weekends")
    public static let missingTargets = DiagnosticCode("E111", "an arrow with no target after it")
    public static let optionAfterGather = DiagnosticCode("E112", "an option after the question's 'then'")
    public static let looksLikeYAML = DiagnosticCode("E113", "a YAML routine read as the .rt language")
    public static let unknownNodeArgument = DiagnosticCode("E114", "a node named on the command line that the routine does not have")
    public static let expectedMost = DiagnosticCode("E116", "'target at' without 'most'")

    // MARK: Meaning
    public static let duplicateNode = DiagnosticCode("E201", "two nodes with the same ID")
    public static let unknownTarget = DiagnosticCode("E202", "an arrow to a node that does not exist")
    public static let unknownStart = DiagnosticCode("E203", "a start target that names no node")
    public static let cycle = DiagnosticCode("E204", "a path that leads back to where it started")
    public static let duplicateOption = DiagnosticCode("E205", "two options of one question with the same text")
    public static let questionWithoutOptions = DiagnosticCode("E206", "a question with no options")
    public static let emptyText = DiagnosticCode("E207", "an empty routine name, title, prompt or answer")
    public static let endAsStart = DiagnosticCode("E208", "'end' in the start list")
    public static let twoTargets = DiagnosticCode("E209", "a habit given both 'target' and 'at-most' in YAML")

    // MARK: YAML
    public static let yamlSyntax = DiagnosticCode("E301", "YAML that libyaml cannot parse")
    public static let unknownKey = DiagnosticCode("E302", "a key the schema does not define")
    public static let duplicateKey = DiagnosticCode("E303", "a key given twice in one mapping")
    public static let wrongType = DiagnosticCode("E304", "a value of the wrong type for its key")
    public static let missingKey = DiagnosticCode("E305", "a required key that is missing")
    public static let conflictingKind = DiagnosticCode("E306", "a node that is both a habit and a question")
    public static let yamlAlias = DiagnosticCode("E307", "a YAML anchor or alias (not supported)")
    public static let yamlTooDeep = DiagnosticCode("E308", "YAML nested deeper than the schema allows")
    public static let yamlMultipleDocuments = DiagnosticCode("E309", "more than one YAML document in a file")
    public static let yamlTag = DiagnosticCode("E310", "a YAML tag other than the standard ones")

    // MARK: Test files (`.rt.test`)
    public static let unknownTestLine = DiagnosticCode("E401", "a test-file line that starts with no keyword of the format")
    public static let misplacedTestLine = DiagnosticCode(
        "E402", "a test-file line in the wrong place (outside a case, or setup after the first step)")
    public static let invalidTestArgument = DiagnosticCode("E403", "a test-file line whose words are missing, extra or not of the kind it takes")
    public static let duplicateTestLine = DiagnosticCode("E404", "a setting or case name given twice")
    public static let unknownTestNode = DiagnosticCode("E405", "a node or option that the routine under test does not have")
    public static let testRoutineUnavailable = DiagnosticCode("E406", "the routine a test file tests cannot be found, read or loaded without errors")
    public static let testFailed = DiagnosticCode("E407", "a case whose run did not do what a line expected")
    public static let noTestCases = DiagnosticCode("E408", "a test file with no case")

    // MARK: Edits the builder refuses (`Editing/`)
    public static let editRefused = DiagnosticCode(
        "E601", "an edit the studio refuses: an unknown node or answer, an invalid or taken ID, a read-only file")

    // MARK: Warnings
    public static let unreachableNode = DiagnosticCode("W001", "a node, or a region entered through it, that no path from the start reaches")
    public static let optionsAllSame = DiagnosticCode("W002", "a question whose options all lead to the same place")
    public static let singleOption = DiagnosticCode("W003", "a question with only one option")
    public static let duplicateTarget = DiagnosticCode("W004", "a target listed twice in one arrow")
    public static let targetsAfterEnd = DiagnosticCode("W005", "targets after 'end' in one arrow, which never run")
    public static let everyDay = DiagnosticCode("W006", "a schedule that names every day, which is the same as none")
    public static let emptyRoutine = DiagnosticCode("W007", "a routine with no nodes")
    public static let duplicateDay = DiagnosticCode("W008", "a day named twice in one schedule")
    public static let bareGather = DiagnosticCode("W010", "a bare arrow on its own line in a question, which is the question's gather")
    public static let misleadingNumbers = DiagnosticCode(
        "W011", "option texts that are numbers but not their positions, which a typed number picks by")
    public static let runDateAhead = DiagnosticCode("W012", "a run dated more than a day after today (more than a year is refused without --force)")
    public static let uncovered = DiagnosticCode("W013", "an answer or habit that no passing test case reaches (routine test --coverage)")
    public static let quotaBeyondDays = DiagnosticCode(
        "W014", "a weekly quota larger than the days the habit is scheduled on, which no week can meet")
    public static let dayOffOption = DiagnosticCode(
        "N001",
        "an option that only leads to 'end' and reads like a day off (" + Diagnostic.dayOffWords.joined(separator: ", ")
            + "), which 'routine off' records better")

    /// The language's codes, declared here; every module lists its own (`historyCodes`,
    /// `syncCodes` in RoutineHistory, `studioCodes` in RoutineStudio, `reminderCodes` in `routine`).
    public static let languageCodes: [DiagnosticCode] = [
        .unreadableInput, .inputTooLarge, .invalidUTF8, .unexpectedCharacter, .unterminatedString, .invalidEscape, .unwritableOutput, .missingProgram,
        .nulInText, .notRegularFile, .notAQuestion, .unreadableTrackerExport, .invalidTrackerRecord, .importWouldReplace, .alreadyDone,
        .notScheduledThatDay, .quotaMet, .logOfQuestion, .unknownHabit, .logValue, .nothingToUndo, .notAnOption, .answerUnchanged,
        .questionNotAnswered, .expectedToken, .missingRoutine, .duplicateRoutine, .duplicateStart, .duplicateAttribute, .attributeOnQuestion,
        .duplicateArrow, .invalidDuration, .invalidNumber, .unknownDay, .missingTargets, .optionAfterGather, .looksLikeYAML, .unknownNodeArgument,
        .expectedMost, .duplicateNode, .unknownTarget, .unknownStart, .cycle, .duplicateOption, .questionWithoutOptions, .emptyText, .endAsStart,
        .twoTargets, .yamlSyntax, .unknownKey, .duplicateKey, .wrongType, .missingKey, .conflictingKind, .yamlAlias, .yamlTooDeep,
        .yamlMultipleDocuments, .yamlTag, .unknownTestLine, .misplacedTestLine, .invalidTestArgument, .duplicateTestLine, .unknownTestNode,
        .testRoutineUnavailable, .testFailed, .noTestCases, .editRefused, .unreachableNode, .optionsAllSame, .singleOption, .duplicateTarget,
        .targetsAfterEnd, .everyDay, .emptyRoutine, .duplicateDay, .bareGather, .misleadingNumbers, .runDateAhead, .uncovered, .quotaBeyondDays,
        .dayOffOption,
    ]
}
