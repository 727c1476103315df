import RoutineKit

/// The studio's codes: its card places, an edit on a changed file, its token and its drawing.
/// (E601, an edit refused, is RoutineKit's: its editor makes it.)
extension DiagnosticCode {
    // MARK: Card places
    public static let damagedCardPlaces = DiagnosticCode(
        "E513", "a studio layout file ('NAME.rt.layout') that cannot be read: its card places are ignored")
    public static let unknownCard = DiagnosticCode("E514", "a card the studio moves or plays from that the routine no longer has")

    // MARK: Edits, the token and the drawing
    public static let editConflict = DiagnosticCode("E602", "an edit made on a version of the file that has changed since")
    public static let studioTokenRefused = DiagnosticCode(
        "E607", "a 'ROUTINE_STUDIO_TOKEN' too short to be secret, or holding characters other than 0-9 and a-f")
    public static let layoutTooSlow = DiagnosticCode(
        "E608", "a routine too large for the studio to draw, or whose drawing Graphviz did not finish within the studio's time limit")

    /// The studio's codes.
    public static let studioCodes: [DiagnosticCode] = [
        .damagedCardPlaces, .unknownCard, .editConflict, .studioTokenRefused, .layoutTooSlow,
    ]
}

/// The studio's catalogue.
extension Diagnostic {
    /// The file is not the text the edit was made on.
    public static func changedMeanwhile(_ path: String) -> Diagnostic {
        Diagnostic(.editConflict, "'\(path)' changed since it was read; reload and edit again", at: nil)
    }

    public static func studioTokenRefused(minimum: Int) -> Diagnostic {
        Diagnostic(
            .studioTokenRefused,
            "'ROUTINE_STUDIO_TOKEN' must be at least \(minimum) characters, each 0-9 or a-f; unset it and the studio makes one",
            at: nil)
    }

    public static func layoutTooSlow(_ name: String, seconds: Int) -> Diagnostic {
        Diagnostic(.layoutTooSlow, "'\(name)' is too large to draw within \(seconds) s: it is shown without its drawing", at: nil)
    }

    /// E608 before Graphviz is asked: a routine of more cards than the studio draws.
    public static func layoutTooLarge(_ name: String, cards: Int, limit: Int) -> Diagnostic {
        Diagnostic(
            .layoutTooSlow, "'\(name)' has \(cards) cards, more than the studio draws (\(limit)): the outline lists them", at: nil)
    }

    /// A layout file beside the routine that cannot be read; the drawing goes on without it.
    public static func damagedCardPlaces(_ path: String, line: Int?, reason: String) -> Diagnostic {
        let place = line.map { "'\(path)' line \($0)" } ?? "'\(path)'"
        return Diagnostic(.damagedCardPlaces, "\(place): \(reason); the cards are placed as if it were not there", at: nil)
    }

    public static func unknownCard(_ id: String) -> Diagnostic {
        Diagnostic(.unknownCard, "there is no card '\(id)': the routine no longer has it", at: nil)
    }
}
