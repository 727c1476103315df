import ArgumentParser
import RoutineKit

struct PathsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paths",
        abstract: "List the ways through a routine: the answers given, the habits that run, the planned time.",
        discussion: """
            A way is one sequence of answers, with the nodes it runs in run order (the semantics of \
            'routine run'). Schedules do not prune ways; the days a habit depends on are shown. Counts \
            are exact at any size.
            """
    )

    @Argument(help: "The routine file (.rt, .yaml, .yml); '-' reads standard input.", completion: .routineFiles)
    var file: String

    @Flag(help: "Print only the number of ways.")
    var count = false

    @Option(help: "List only the answers that lead to this node: why does it run?")
    var to: String?

    @Option(help: "List at most this many ways.")
    var limit = 100

    @OptionGroup var input: InputOptions

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit must be zero or more") }
    }

    func run() throws {
        ignoreBrokenPipes()
        let routine = try input.loadValid(file).routine
        let explorer = PathExplorer(routine)
        var out = BufferedOutput(fd: 1)
        defer { out.flush() }
        do {
            if let to {
                try listAnswers(leadingTo: to, explorer, &out)
                return
            }
            let summary = try explorer.summarize()
            if count {
                out.write(visible: "\(summary.count)\n")
                return
            }
            var listed = 0
            try explorer.forEachPath { path in
                guard listed < limit else { return false }
                listed += 1
                out.write(visible: describe(path, number: listed, routine))
                return true
            }
            if limit == 0 {
                out.write("none are listed (--limit 0)\n")
            } else if BigCount(UInt64(listed)) < summary.count {
                out.write(visible: "... and more: \(summary.count) ways in all (--limit N lists more)\n")
            }
            let ways = summary.count == BigCount(1) ? "1 way" : "\(summary.count) ways"
            out.write(
                visible:
                    "\(ways) through '\(routine.name)' · shortest \(DurationText.human(summary.shortestSeconds)) · longest \(DurationText.human(summary.longestSeconds))\n"
            )
        } catch let error as PathExplorer.TooComplex {
            out.flush()
            let agendas = error.states > 0 ? ", after \(error.states) distinct agendas" : ""
            let steps = explorer.budget >= 1_000_000 ? "\(explorer.budget / 1_000_000) million" : "\(explorer.budget)"
            StandardError.write(
                visible:
                    "routine: error: exploring the ways through '\(file)' reached its work limit (\(steps) agenda steps, set from the routine's size and width\(agendas)): its parallel branches meet in too many combinations, or its agendas are too long, to count its ways in reasonable time\n"
            )
            throw Exit.errors
        }
    }

    private func listAnswers(leadingTo id: String, _ explorer: PathExplorer, _ out: inout BufferedOutput) throws {
        let routine = explorer.routine
        let target: Int?
        if id == "end" {
            target = nil
        } else if let index = routine.indexByID()[id] {
            target = index
        } else {
            report(.unknownNodeArgument(id, option: "--to", of: routine), colors: input.colorsOnStandardError)
            throw Exit.usage
        }
        var seen = Set<String>()
        var lines: [String] = []
        try explorer.forEachPath { path in
            // `end` is reached after the last node the way runs.
            guard let position = target.map({ path.nodes.firstIndex(of: $0) }) ?? (path.reachedEnd ? path.nodes.count : nil) else {
                return true
            }
            let asked = Set(path.nodes[..<position])
            let answers = path.answers.filter { asked.contains($0.question) }
            let line = answers.isEmpty ? "always: no answer needed" : answers.map { describe($0, routine) }.joined(separator: " · ")
            if seen.insert(line).inserted { lines.append(line) }
            return lines.count < limit
        }
        if lines.isEmpty {
            out.write(visible: target == nil ? "no way through '\(routine.name)' reaches 'end'\n" : "no way through '\(routine.name)' runs '\(id)'\n")
            return
        }
        if limit == 0 {
            out.write(visible: (target == nil ? "'end' is reached" : "'\(id)' runs") + " after some answers; none are listed (--limit 0)\n")
            return
        }
        out.write(visible: target == nil ? "'end' is reached after these answers:\n" : "'\(id)' runs after these answers:\n")
        for line in lines.prefix(limit) { out.write(visible: "  \(line)\n") }
    }

    /// Built from the records: a whole node would copy every option of its question.
    private func describe(_ answer: (question: Int, option: Int), _ routine: Routine) -> String {
        "\(routine.id(of: answer.question)): \(routine.answer(answer.option, of: answer.question))"
    }

    private func describe(_ path: PathExplorer.Path, number: Int, _ routine: Routine) -> String {
        let answers = path.answers.isEmpty ? "no questions" : path.answers.map { describe($0, routine) }.joined(separator: " · ")
        var nodes = path.nodes.map { index -> String in
            // What a way depends on beyond its answers: the days, and a weekly quota.
            var marks = routine.days(of: index).map { [$0.words.joined(separator: " ")] } ?? []
            if let count = routine.perWeek(of: index) { marks.append("\(count) per week") }
            let id = routine.id(of: index)
            return marks.isEmpty ? id : "\(id) (\(marks.joined(separator: ", ")))"
        }
        if path.reachedEnd { nodes.append("end") }
        return "\(number). \(answers) · \(DurationText.human(path.seconds))\n   \(nodes.joined(separator: ", "))\n"
    }
}
