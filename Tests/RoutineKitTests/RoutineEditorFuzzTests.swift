import Testing

@testable import RoutineKit

/// Random op sequences on random routines: after every op the file parses, means what the ops
/// describe (a model kept beside it), and as many undos give back the original bytes.
struct RoutineEditorFuzzTests {
    /// The routine as the ops describe it, printed the way `dump` prints a parsed one.
    struct Model {
        struct Node {
            var kind: RoutineNode.Kind
            var id: String
            var title: String
            var duration: Int?
            var note: String?
            var options: [(text: String, next: [String])] = []
            var next: [String] = []
        }
        var name = "R"
        var start: [String]?
        var nodes: [Node] = []

        func index(_ id: String) -> Int { nodes.firstIndex { $0.id == id }! }

        func dump() -> String {
            func targets(_ list: [String]) -> String { list.isEmpty ? "" : " -> " + list.joined(separator: ",") }
            var lines = ["routine \(name)" + (start.map { " start" + targets($0) } ?? "")]
            for node in nodes {
                var line = "\(node.kind.rawValue) \(node.id) [\(node.title)]"
                if let d = node.duration { line += " for=\(d)" }
                if let note = node.note { line += " note=[\(note)]" }
                for option in node.options { line += " {\(option.text)\(targets(option.next))}" }
                lines.append(line + targets(node.next))
            }
            return lines.joined(separator: "\n")
        }

        /// Applies an op the editor accepted.
        mutating func apply(_ op: RoutineEditOp, newID: String?) {
            switch op {
            case .addHabit(_, let title, let after, _):
                let node = Node(kind: .habit, id: newID!, title: title)
                if let after { nodes.insert(node, at: index(after) + 1) } else { nodes.append(node) }
            case .addQuestion(_, let text, let options, let after, _):
                var node = Node(kind: .question, id: newID!, title: text)
                node.options = options.map { ($0, []) }
                if let after { nodes.insert(node, at: index(after) + 1) } else { nodes.append(node) }
            case .connect(let from, let option, let to):
                let i = index(from)
                if let option { nodes[i].options[option].next.append(to) } else { nodes[i].next.append(to) }
            case .disconnect(let from, let option, let to):
                let i = index(from)
                if let option { nodes[i].options[option].next.removeAll { $0 == to } } else { nodes[i].next.removeAll { $0 == to } }
            case .setTitle(let id, let title): nodes[index(id)].title = title
            case .setAttributes(let id, let changes):
                let i = index(id)
                if case .set(let d) = changes.duration { nodes[i].duration = d }
                if case .remove = changes.duration { nodes[i].duration = nil }
                if case .set(let n) = changes.note { nodes[i].note = n }
                if case .remove = changes.note { nodes[i].note = nil }
            case .addOption(let id, let text): nodes[index(id)].options.append((text, []))
            case .removeOption(let id, let option): nodes[index(id)].options.remove(at: option)
            case .moveOption(let id, let option, let to):
                let moved = nodes[index(id)].options.remove(at: option)
                nodes[index(id)].options.insert(moved, at: to)
            case .rename(let id, let new):
                func swap(_ list: inout [String]) { list = list.map { $0 == id ? new : $0 } }
                if var s = start {
                    swap(&s)
                    start = s
                }
                for i in nodes.indices {
                    if nodes[i].id == id { nodes[i].id = new }
                    swap(&nodes[i].next)
                    for k in nodes[i].options.indices { swap(&nodes[i].options[k].next) }
                }
            case .setName(let new): name = new
            case .delete(let id):
                nodes.remove(at: index(id))
                if var s = start {
                    s.removeAll { $0 == id }
                    start = s.isEmpty ? nil : s
                }
                for i in nodes.indices {
                    nodes[i].next.removeAll { $0 == id }
                    for k in nodes[i].options.indices { nodes[i].options[k].next.removeAll { $0 == id } }
                }
            case .together(let ops):
                for op in ops { apply(op, newID: newID) }
            }
        }
    }

    /// A random routine whose arrows only go forward, written with comments and uneven layout.
    static func randomRoutine(_ random: inout SeededRandom) -> (String, Model) {
        var model = Model()
        let count = 2 + random.below(6)
        for i in 0..<count {
            var node = Model.Node(kind: random.below(3) == 0 ? .question : .habit, id: "n\(i)", title: "Node \(i)")
            if node.kind == .question {
                node.options = (0..<(1 + random.below(3))).map { ("answer \($0)", []) }
            } else if random.below(2) == 0 {
                node.duration = 60 * (1 + random.below(9))
            }
            model.nodes.append(node)
        }
        for i in 0..<count {
            for j in (i + 1)..<count where random.below(3) == 0 {
                if model.nodes[i].kind == .question, random.below(2) == 0 {
                    model.nodes[i].options[random.below(model.nodes[i].options.count)].next.append("n\(j)")
                } else if !model.nodes[i].next.contains("n\(j)") {
                    model.nodes[i].next.append("n\(j)")
                }
            }
        }
        for i in 0..<count {
            for k in model.nodes[i].options.indices { model.nodes[i].options[k].next = Array(uniqued(model.nodes[i].options[k].next)) }
        }
        if random.below(2) == 0 { model.start = ["n0"] }
        var text = "# generated\nroutine \"R\"\n"
        if let start = model.start { text += "start -> " + start.joined(separator: ", ") + "   # where it begins\n" }
        for node in model.nodes {
            text += random.below(2) == 0 ? "\n" : ""
            if random.below(3) == 0 { text += "# about \(node.id)\n" }
            text += "\(node.kind.rawValue) \(node.id) \"\(node.title)\""
            if let d = node.duration { text += " for \(d / 60)m" }
            if node.kind == .habit, !node.next.isEmpty { text += " -> " + node.next.joined(separator: ", ") }
            text += random.below(2) == 0 ? "  # header\n" : "\n"
            for option in node.options {
                text += "    \"\(option.text)\"" + (option.next.isEmpty ? "" : " -> " + option.next.joined(separator: ", "))
                text += random.below(3) == 0 ? "   # an answer\n" : "\n"
            }
            if node.kind == .question, !node.next.isEmpty { text += "    then -> " + node.next.joined(separator: ", ") + "\n" }
        }
        return (text, model)
    }

    static func randomOp(_ model: Model, _ random: inout SeededRandom, step: Int) -> RoutineEditOp {
        func pick() -> String { model.nodes[random.below(model.nodes.count)].id }
        let questions = model.nodes.filter { $0.kind == .question }
        let question = questions.isEmpty ? nil : questions[random.below(questions.count)]
        switch random.below(12) {
        case 0: return .addHabit(id: nil, title: "Added \(step)", after: random.below(2) == 0 ? pick() : nil)
        case 1: return .addQuestion(id: "q\(step)", text: "Ask \(step)?", options: ["yes", "no"], after: random.below(2) == 0 ? pick() : nil)
        case 2, 3:
            if let question, random.below(2) == 0 {
                return .connect(from: question.id, option: random.below(question.options.count), to: pick())
            }
            return .connect(from: pick(), option: nil, to: pick())
        case 4:
            let from = model.nodes[random.below(model.nodes.count)]
            if let to = from.next.first { return .disconnect(from: from.id, option: nil, to: to) }
            if let k = from.options.indices.first(where: { !from.options[$0].next.isEmpty }) {
                return .disconnect(from: from.id, option: k, to: from.options[k].next.last!)
            }
            return .setTitle(id: from.id, title: "Title \(step) with \"quotes\"")
        case 5: return .setTitle(id: pick(), title: "Renamed \(step)")
        case 6:
            let habit = model.nodes.filter { $0.kind == .habit }.first
            return .setAttributes(
                id: habit?.id ?? pick(), AttributeChanges(duration: random.below(2) == 0 ? .remove : .set(120), note: .set("n\(step)")))
        case 7: return question.map { .addOption(id: $0.id, text: "extra \(step)") } ?? .delete(id: pick())
        case 8:
            guard let question else { return .rename(id: pick(), newID: "r\(step)") }
            if question.options.count > 1, random.below(2) == 0 {
                return .removeOption(id: question.id, option: random.below(question.options.count))
            }
            return .moveOption(id: question.id, option: random.below(question.options.count), to: random.below(question.options.count))
        case 9: return .rename(id: pick(), newID: "r\(step)")
        case 10: return .setName("Named \(step) with \"quotes\"")
        default: return .delete(id: pick())
        }
    }

    @Test(arguments: 0..<40)
    func randomOpsKeepTheFileTrue(seed: Int) throws {
        var random = SeededRandom(state: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        var (text, model) = Self.randomRoutine(&random)
        let original = Array(text.utf8)
        var bytes = original
        #expect(dump(RoutineLoader.load(SourceFile(name: "t.rt", bytes: bytes)).routine) == model.dump())
        var history = EditHistory()
        var applied = 0
        for step in 0..<25 where !model.nodes.isEmpty {
            let op = Self.randomOp(model, &random, step: step)
            guard case .success(let outcome) = RoutineEditor.apply(op, to: SourceFile(name: "t.rt", bytes: bytes)) else { continue }
            let before = Set(RoutineLoader.load(SourceFile(name: "t.rt", bytes: bytes)).routine.indexByID().keys)
            let loaded = RoutineLoader.load(SourceFile(name: "t.rt", bytes: outcome.bytes))
            #expect(!loaded.diagnostics.contains { $0.severity == .error }, "\(op)\n\(String(decoding: outcome.bytes, as: UTF8.self))")
            let newID = Set(loaded.routine.indexByID().keys).subtracting(before).first
            model.apply(op, newID: newID)
            #expect(dump(loaded.routine) == model.dump(), "\(op)\n\(String(decoding: outcome.bytes, as: UTF8.self))")
            if dump(loaded.routine) != model.dump() { return }
            history.record(before: bytes, after: outcome.bytes)
            bytes = outcome.bytes
            applied += 1
        }
        for _ in 0..<applied {
            bytes = try history.undoText(current: bytes).get()
            history.didUndo()
        }
        #expect(bytes == original)
        #expect(applied >= 1)
        text = ""
    }
}

/// The elements of `list` in order, each once.
private func uniqued(_ list: [String]) -> [String] {
    var seen = Set<String>()
    return list.filter { seen.insert($0).inserted }
}
