import Foundation

extension Tracker {
    /// The fix pipeline: filter, judge regions, re-plan slots, follow motion, record or merge.
    mutating func handleFix(_ fix: Fix, now: Date, into effects: inout [TrackerEffect]) {
        guard isRunning || recordNextFix != nil else { return }
        if let reason = FixFilter.rejection(of: fix, after: lastFix, now: now, maxSpeed: configuration.maxSpeed) {
            statistics.rejected[reason, default: 0] += 1
            return
        }
        statistics.accepted += 1
        lastFix = fix
        var trigger = recordNextFix
        recordNextFix = nil
        if isRunning {
            let events = geofences.evaluate(fix)
            emit(events, now: now, into: &effects)
            if events.contains(where: { !$0.initial }) { trigger = trigger ?? .region }
            followMotion(fix, now: now, into: &effects)
            if slotPlan?.isStale(at: fix.coordinate) ?? true { plan(at: fix.coordinate, into: &effects) }
            if trigger == nil, RecordPolicy.shouldRecord(fix, mode: mode, lastRecord: lastRecord) { trigger = .policy }
        }
        if let trigger { store(fix, trigger: trigger, now: now, into: &effects) }
    }

    /// Records `fix`, or merges it into the last record when the device has not moved.
    private mutating func store(_ fix: Fix, trigger: RecordTrigger, now: Date, into effects: inout [TrackerEffect]) {
        guard fix.horizontalAccuracy <= configuration.maxRecordAccuracy else {
            statistics.tooCoarseToRecord += 1
            return
        }
        if let last = lastRecord,
            Geodesy.distance(last.coordinate, fix.coordinate)
                <= RecordPolicy.mergeRadius(base: configuration.mergeRadius, last, fix)
        {
            effects.append(.extendDwell(dwell: fix.timestamp.timeIntervalSince(last.timestamp), lastSeen: fix.timestamp))
            return
        }
        lastRecord = fix
        effects.append(.record(RecordedFix(fix: fix, trigger: trigger)))
        recordsSinceFlush += 1
        if recordsSinceFlush >= configuration.uploadThreshold { flush(.threshold, now: now, into: &effects) }
    }
}
