/// The routine an import writes for another tracker's habits, and which of its habits each
/// tracker habit's days are logged as.
///
/// A new file lists the habits in the tracker's order, all started by one `start` line so
/// that a run offers each. An existing file is accepted only when it is the routine an import
/// wrote (its name); habits it has already (by title) are kept as they are, and new ones are
/// added with two text edits: their IDs at the end of the `start` line, their declarations
/// at the end of the file. Nothing else of the file changes.
///
/// The routine language has no habit that is never due: a habit the tracker only tracks
/// (harsh's frequency 0) is declared but left out of `start`, with nothing leading to it, so
/// that no run offers it and no day without a log counts it missed (`stats` says `unknown`,
/// `today` `maybe`, and `check` warns that a run never reaches it); `routine done` logs it.
/// A routine of such habits only has no `start` (the language has no empty one, and `end` is
/// no start target), so its runs start with the first of them.
public struct ImportPlan: Sendable {
    /// The routine's text, in the output's form; nil when the existing file already holds
    /// every habit and stays as it is.
    public var text: String?
    /// The routine as it is after the import.
    public var routine: Routine
    /// For each tracker habit, its node in ``routine``; nil for an archived habit left out.
    public var nodes: [Int?]
    public var habitsAdded = 0
    public var archivedLeftOut = 0
    public var frequenciesApproximated = 0
    /// Habits tracked only, declared outside `start`.
    public var trackingOnly = 0

    /// `existing` is the output file's current bytes, nil when it does not exist yet.
    public static func make(
        habits: [TrackerHabit], routineName: String, output: String, format: SourceFormat, existing: [UInt8]?,
        includeArchived: Bool, origin: String
    ) -> Result<ImportPlan, Diagnostic> {
        var rt: [UInt8]
        var loaded: LoadedRoutine?
        if let existing {
            let current = RoutineLoader.load(SourceFile(name: output, bytes: existing), format: format)
            guard !current.hasErrors else { return .failure(.importWouldReplace(output, reason: "exists and is not a routine without errors")) }
            guard current.routine.name == routineName else {
                return .failure(
                    .importWouldReplace(
                        output, reason: "holds the routine '\(current.routine.name)', not '\(routineName)'; it was left as it is"))
            }
            // YAML is edited as the `.rt` it converts to, then written as YAML again.
            rt = format == .rt ? existing : Array(RoutinePrinter.print(current.routine).utf8)
            loaded = format == .rt ? current : RoutineLoader.load(SourceFile(name: output, bytes: rt), format: .rt)
        } else {
            rt = Array(("# Imported from \(origin)\nroutine " + StringLiteral.encode(routineName) + "\n").utf8)
        }
        var byTitle: [String: String] = [:]
        var taken = Set<String>()
        if let routine = loaded?.routine {
            for i in 0..<routine.nodeCount {
                taken.insert(routine.id(of: i))
                if !routine.isQuestion(i), byTitle[routine.title(of: i)] == nil { byTitle[routine.title(of: i)] = routine.id(of: i) }
            }
        }
        var plan = ImportPlan(text: nil, routine: Routine(name: routineName), nodes: [])
        var ids: [String?] = []
        var added: [String] = []
        // The habits added that a run offers: all but those tracked only.
        var started: [String] = []
        var declarations = ""
        var heading: String?
        for habit in habits {
            if habit.archived, !includeArchived {
                plan.archivedLeftOut += 1
                ids.append(nil)
                continue
            }
            let (perWeek, approximated) = habit.schedule
            if approximated { plan.frequenciesApproximated += 1 }
            if let id = byTitle[habit.name] {
                ids.append(id)
                continue
            }
            let id = uniqueID(for: habit.name, taken: &taken)
            byTitle[habit.name] = id
            ids.append(id)
            added.append(id)
            if let title = habit.heading, title != heading {
                declarations += "\n# " + Sanitizer.visible(title).filter { $0 != "\n" && $0 != "\r" } + "\n"
                heading = title
            }
            if habit.isTrackingOnly {
                plan.trackingOnly += 1
                declarations += "\n# Tracked only: never due, so not in 'start'; log it with 'routine done'"
            } else {
                started.append(id)
            }
            declarations += "\nhabit \(id) " + StringLiteral.encode(habit.name)
            if let target = habit.target {
                declarations += " target " + target.boundText
                if let unit = target.unit { declarations += " " + (Identifiers.isValid(unit) ? unit : StringLiteral.encode(unit)) }
            }
            if let perWeek { declarations += " \(perWeek) per week" }
            if let note = habit.note { declarations += "\n  note " + StringLiteral.encode(note) }
            declarations += "\n"
        }
        plan.habitsAdded = added.count
        if !added.isEmpty {
            var edits: [(Int, String)] = []
            if let routine = loaded?.routine, let last = routine.explicitStart.last {
                if !started.isEmpty { edits.append((last.span.upperBound, ", " + started.joined(separator: ", "))) }
            } else if loaded == nil || loaded?.routine.startSpan == nil && loaded?.routine.nodeCount == 0 {
                if !started.isEmpty { declarations = "\nstart -> " + started.joined(separator: ", ") + "\n" + declarations }
            }
            // A file that does not end its last line gets one before the new declarations.
            let newline = rt.last.map { $0 == 0x0A ? "" : "\n" } ?? ""
            edits.append((rt.count, newline + declarations))
            for (offset, text) in edits.sorted(by: { $0.0 > $1.0 }) { rt.insert(contentsOf: Array(text.utf8), at: offset) }
        }
        let final = RoutineLoader.load(SourceFile(name: output, bytes: rt), format: .rt)
        guard !final.hasErrors else {
            // Every declaration written is valid by construction; this would be a bug, said plainly.
            return .failure(.importWouldReplace(output, reason: "could not be extended: \(final.diagnostics.first?.message ?? "")"))
        }
        plan.routine = final.routine
        let index = final.routine.indexByID()
        plan.nodes = ids.map { $0.flatMap { index[$0] } }
        if !added.isEmpty || existing == nil {
            plan.text = format == .rt ? String(decoding: rt, as: UTF8.self) : YAMLWriter.write(final.routine)
        }
        return .success(plan)
    }

    /// An ID from a habit's name: lowercase ASCII letters and digits, other runs as one `-`,
    /// made unique with `-2`, `-3`.
    static func uniqueID(for name: String, taken: inout Set<String>) -> String {
        var slug = ""
        for scalar in name.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || (48...57).contains(scalar.value) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
            if slug.count >= 40 { break }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        if slug.isEmpty || !Identifiers.isValid(slug) { slug = "habit-" + slug }
        while slug.hasSuffix("-") { slug.removeLast() }
        var id = slug
        var n = 1
        while taken.contains(id) || !Identifiers.isValid(id) {
            n += 1
            id = "\(slug)-\(n)"
        }
        taken.insert(id)
        return id
    }
}
