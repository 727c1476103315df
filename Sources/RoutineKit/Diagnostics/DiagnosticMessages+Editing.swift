/// The catalogue, continued: edits the builder refuses (`Editing/`), and inputs that are not
/// regular files.
extension Diagnostic {
    static func refused(_ message: String) -> Diagnostic { Diagnostic(.editRefused, message, at: nil) }

    public static func unknownNode(_ id: String) -> Diagnostic { refused("no node is named '\(id)'") }

    static func habitHasNoAnswers(_ id: String) -> Diagnostic { refused("'\(id)' is a habit and has no answers") }

    static func noSuchAnswer(_ option: Int, of id: String, count: Int) -> Diagnostic {
        refused("'\(id)' has no answer \(option); its answers are numbered 0 to \(count - 1)")
    }

    static func invalidNewID(_ name: String) -> Diagnostic {
        refused("'\(name)' is not a valid ID: an ID starts with a letter or '_' and holds letters, digits, '_' and '-'")
    }

    static func keywordAsID(_ name: String) -> Diagnostic { refused("'\(name)' is a keyword and cannot be a node ID") }

    static func takenID(_ name: String) -> Diagnostic { refused("a node is already named '\(name)'") }

    static func emptyRoutineName() -> Diagnostic { refused("a routine's name cannot be empty") }

    static func alreadyLeads(_ from: String, to: String) -> Diagnostic { refused("'\(from)' already leads to '\(to)'") }

    static func doesNotLead(_ from: String, to: String) -> Diagnostic { refused("'\(from)' does not lead to '\(to)'") }

    static func unitWithoutTarget(_ id: String) -> Diagnostic { refused("a unit needs a target; '\(id)' has none") }

    static func notAHabitAttribute(_ id: String) -> Diagnostic {
        refused("'\(id)' is a question; only a note can be set on it")
    }

    static func editOnBrokenFile(_ first: Diagnostic) -> Diagnostic {
        refused("the file does not parse (\(first.message)); fix it in the editor first")
    }

    /// A YAML routine edited by the studio would lose what the YAML writer cannot keep.
    public static func yamlReadOnly(_ reason: String) -> Diagnostic {
        refused("YAML files are read-only in the studio: \(reason)")
    }

    public static func nothingTo(_ what: String) -> Diagnostic { refused("there is nothing to \(what)") }

    public static func notRegularFile(_ path: String, kind: String) -> Diagnostic {
        Diagnostic(.notRegularFile, "'\(path)' is \(kind), not a regular file; the studio waits for a routine file there", at: nil)
    }

    /// E013 for a file named on the command line: a named pipe with no writer, or a socket.
    public static func notRegularInput(_ path: String, kind: String) -> Diagnostic {
        Diagnostic(.notRegularFile, "'\(path)' is \(kind), not a regular file", at: nil)
    }
}
