import RoutineKit

/// Another tracker's days, read from `source`, logged as `plan`'s routine in one transaction:
/// a day that cannot be read stops the import and nothing of it is kept.
public enum TrackerImport {
    public static func run(
        _ source: some TrackerSource, plan: ImportPlan, into store: HistoryStore, path: String, sourceHash: String
    ) throws -> ImportSummary {
        var summary = ImportSummary()
        summary.habits = plan.nodes.compactMap { $0 }.count
        summary.archivedLeftOut = plan.archivedLeftOut
        summary.frequenciesApproximated = plan.frequenciesApproximated
        summary.trackingOnly = plan.trackingOnly
        try store.importLogs { add in
            try source.forEachDay { day in
                guard let node = plan.nodes[day.habit] else { return }
                if day.hadNote { summary.notesLeftOut += 1 }
                let result: RecordedStep.Result
                var value: Double?
                switch day.mark {
                case .unknown:
                    summary.unknownDays += 1
                    return
                case .implied:
                    summary.impliedDays += 1
                    return
                case .notDone: return
                case .skipped: result = .skipped
                case .done(let amount):
                    result = .done
                    // A habit the routine gives no target records no amount (and one it gives a
                    // target records the tracker's, or 0 when the tracker kept none).
                    if plan.routine.target(of: node) != nil {
                        value = amount ?? 0
                    } else if day.hadAmount || amount != nil {
                        summary.amountsLeftOut += 1
                    }
                }
                summary.days += 1
                let log = HistoryStore.trackerLog(
                    result, value: value, of: plan.routine, node: node, on: day.date, path: path, sourceHash: sourceHash)
                switch try add(log) {
                case .added: summary.added += 1
                case .alreadyThere: break
                case .alreadyRecorded: summary.alreadyRecorded += 1
                }
            }
        }
        return summary
    }
}
