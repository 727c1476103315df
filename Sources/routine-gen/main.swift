// routine-gen: writes one seeded random valid routine of N nodes in three forms (.rt, .yaml,
// Graphviz .dot) and the answers of a scripted run that always takes the first option.
//
//   routine-gen N [--seed S] [--out PREFIX]      writes PREFIX.rt, PREFIX.yaml, PREFIX.dot, PREFIX.answers
//
// Shape: about 30% questions with 2 to 4 options; every arrow points forward (acyclic);
// arrows land within a few nodes ahead, so branches converge again; about 2 arrows per node;
// habits mix durations, targets and schedules; every node is reachable from the first.
import RoutineKit

#if canImport(Glibc)
import Glibc
#endif

func generate(_ n: Int, seed: UInt64) -> Routine {
    var random = SeededRandom(state: seed)
    let window = 8
    var nodes: [RoutineNode] = []
    nodes.reserveCapacity(n)
    func edge(_ t: Int) -> Edge { Edge(.node(t), span: Span(at: 0)) }
    func ahead(_ i: Int) -> Int { min(n - 1, i + 1 + random.below(window)) }
    let words = ["Drink water", "Stretch", "Meditate", "Read", "Walk", "Journal", "Plan", "Tidy up", "Breathe", "Call a friend"]
    let units = ["glasses", "pages", "steps", "minutes"]
    for i in 0..<n {
        let last = i == n - 1
        if i + 10 < n, random.below(100) < 30 {
            var options: [QuestionOption] = []
            for k in 0..<(2 + random.below(3)) {
                // Each answer branches to a place of its own, a little ahead; all meet again at i + 1's descendants.
                let target = i + 2 + 2 * k + random.below(2)
                options.append(QuestionOption(text: "Answer \(k + 1) to \(i)", next: [edge(target)]))
            }
            nodes.append(RoutineNode(kind: .question, id: "q\(i)", title: "Question \(i): how is it going?", options: options, next: [edge(i + 1)]))
        } else {
            var node = RoutineNode(kind: .habit, id: "h\(i)", title: "\(words[random.below(words.count)]) (\(i))")
            switch random.below(10) {
            case 0..<4: node.duration = 60 * (1 + random.below(30))
            case 4..<6: node.target = TargetValue(amount: Double(1 + random.below(12)), unit: units[random.below(units.count)])
            default: break
            }
            if random.below(10) == 0 { node.days = [.weekdays, .weekends, [.monday, .wednesday, .friday]][random.below(3)] }
            if !last {
                node.next = [edge(i + 1)]
                let extra = ahead(i)
                if extra != i + 1, random.below(100) < 90 { node.next.append(edge(extra)) }
            }
            nodes.append(node)
        }
    }
    return Routine(name: "Generated \(n)", nodes: nodes)
}

func dot(_ routine: Routine) -> String {
    var out = "digraph \"generated\" {\n"
    for node in routine.nodes {
        for option in node.options { for e in option.next { out += "  \(node.id) -> \(routine.name(of: e.target));\n" } }
        for e in node.next { out += "  \(node.id) -> \(routine.name(of: e.target));\n" }
    }
    return out + "}\n"
}

/// The answers of a run on 2026-11-23 that always takes the first option and meets every target.
func answers(_ routine: Routine) -> String {
    var run = RoutineRun(routine: routine, date: CalendarDate("2026-11-23")!)
    var out = ""
    while let index = run.current {
        let node = routine.nodes[index]
        if node.isQuestion {
            out += "1\n"
            run.decide(.option(0))
        } else if let target = node.target {
            out += target.amountText + "\n"
            run.decide(.done(value: target.amount))
        } else {
            out += "done\n"
            run.decide(.done(value: nil))
        }
    }
    return out
}

func complain(_ text: String) {
    var bytes = Array(text.utf8)
    _ = Glibc.write(2, &bytes, bytes.count)
}

func write(_ text: String, to path: String) {
    guard let file = fopen(path, "w") else {
        complain("routine-gen: cannot write '\(path)'\n")
        exit(1)
    }
    fputs(text, file)
    fclose(file)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var seed: UInt64 = 42
var prefix: String?
var count: Int?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--seed": seed = UInt64(arguments.isEmpty ? "" : arguments.removeFirst()) ?? seed
    case "--out": prefix = arguments.isEmpty ? nil : arguments.removeFirst()
    default: count = Int(argument)
    }
}
guard let count, count > 0 else {
    complain("usage: routine-gen N [--seed S] [--out PREFIX]\n")
    exit(64)
}
let routine = generate(count, seed: seed)
let base = prefix ?? "routine-\(count)"
write(RoutinePrinter.print(routine), to: base + ".rt")
write(YAMLWriter.write(routine), to: base + ".yaml")
write(dot(routine), to: base + ".dot")
write(answers(routine), to: base + ".answers")
