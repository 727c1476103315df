import FoundationEssentials
import RoutineKit

/// Runs as CSV for a spreadsheet: one row per step, the run's fields repeated on each; a run
/// without steps is one row with the step's fields empty. `run_kind` (`run`, or `log` for a
/// `routine done` log) comes last, so that files read by column position keep their columns.
public enum HistoryCSV {
    public static let header = [
        "date", "routine", "run_result", "reached_end", "started", "ended", "utc_offset", "path", "source_hash", "step", "node",
        "kind", "title", "result", "value", "target", "unit", "option", "index", "at", "seconds", "run_kind",
    ]

    public static func rows(_ run: StoredRun) -> [[String]] {
        let fields = [
            run.date, run.routine, run.resultText, run.reachedEnd ? "true" : "false", run.startedAt.description,
            run.endedAt?.description ?? "", offsetText(run.utcOffset), run.path, run.sourceHash,
        ]
        if run.steps.isEmpty { return [fields + Array(repeating: "", count: header.count - fields.count - 1) + [run.kind.rawValue]] }
        return run.steps.map { step in
            let d = step.decision
            return fields + [
                String(d.step), d.node, d.kind.rawValue, step.title, d.result.rawValue, d.value.map(NumberText.format) ?? "",
                step.target.map(NumberText.format) ?? "", step.unit ?? "", d.optionText ?? "", d.option.map { String($0 + 1) } ?? "",
                step.decidedAt.description, step.seconds.map { NumberText.format(($0 * 1000).rounded() / 1000) } ?? "",
                run.kind.rawValue,
            ]
        }
    }

    /// One CSV line (RFC 4180) of ``header``'s columns: a field with a comma, quote or line
    /// break is quoted, and one that starts like a formula (a title `=SUM(A1)`, `@cmd`) gets a
    /// `'` before it so that a spreadsheet reads it as text (``CSV/textField(_:)``); only the
    /// UTC offset (`-05:00`), which routine writes itself, is written as it is.
    public static func line(_ fields: [String]) -> String {
        fields.enumerated().map { $0.offset == offsetColumn ? CSV.field($0.element) : CSV.textField($0.element) }.joined(separator: ",")
            + "\r\n"
    }

    static let offsetColumn = header.firstIndex(of: "utc_offset") ?? -1
}
