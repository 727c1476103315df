/// What can be said of a test file against its routine before anything runs: every node an
/// `expect` names exists and is of the kind it names, and every answer is some question's.
public enum ScenarioChecker {
    public static func check(_ file: ScenarioFile, against routine: Routine) -> [Diagnostic] {
        let ids = routine.indexByID()
        let habits = ids.keys.filter { !routine.isQuestion(ids[$0]!) }.sorted()
        let questions = ids.keys.filter { routine.isQuestion(ids[$0]!) }.sorted()
        let questionOptions = (0..<routine.nodeCount).filter(routine.isQuestion).map { OptionIndex(question: $0, of: routine) }
        let options = Set(questionOptions.flatMap { $0.texts.map { $0.lowercased() } })
        var diagnostics: [Diagnostic] = []
        func require(_ id: String, question: Bool?, at span: Span) {
            if let index = ids[id], question == nil || routine.isQuestion(index) == question { return }
            let kind = question.map { $0 ? "question" : "habit" } ?? "node"
            let known = question.map { $0 ? questions : habits } ?? ids.keys.sorted()
            diagnostics.append(.unknownTestNode(id, kind: kind, known: known, at: span))
        }
        for testCase in file.cases {
            for step in testCase.steps {
                switch step.kind {
                case .expect(.habit(let id, _), _), .expect(.passedOver(let id, _), _), .expect(.value(let id, _), _):
                    require(id, question: false, at: step.argumentSpan)
                case .expect(.question(let id), _): require(id, question: true, at: step.argumentSpan)
                case .notReached(let id): require(id, question: nil, at: step.argumentSpan)
                case .answer(let text):
                    // Read as the run reads it: some question must take it.
                    if questionOptions.contains(where: { AnswerInterpreter.option(text, in: $0) != .none }) { continue }
                    diagnostics.append(.unknownTestOption(text, known: options.sorted(), at: step.argumentSpan))
                case .expect, .act, .ways: continue
                }
            }
        }
        return diagnostics
    }
}

extension ScenarioChecker {
    /// A test file at `testPath` with its routine: found (E406 when it cannot be, or has
    /// errors), loaded with `load`, and the file checked against it. The routine is nil when
    /// the file's cases cannot run.
    public static func resolve(
        _ file: ScenarioFile, testPath: String, load: (String) -> Result<LoadedRoutine, Diagnostic>
    ) -> (routinePath: String?, routine: LoadedRoutine?, diagnostics: [Diagnostic]) {
        let span = file.routinePath?.span ?? Span(at: 0)
        guard let path = file.routinePath(forTestAt: testPath) else {
            return (
                nil, nil,
                [
                    .testRoutineUnavailable(
                        testPath, reason: "its name does not say which routine it tests; add a line such as 'routine morning.rt'", at: span)
                ]
            )
        }
        switch load(path) {
        case .success(let loaded) where loaded.hasErrors:
            return (path, nil, [.testRoutineUnavailable(path, reason: "it has errors ('routine check \(path)' lists them)", at: span)])
        case .success(let loaded):
            return (path, loaded, check(file, against: loaded.routine))
        case .failure(let problem):
            return (path, nil, [.testRoutineUnavailable(path, reason: problem.message, at: span)])
        }
    }
}
