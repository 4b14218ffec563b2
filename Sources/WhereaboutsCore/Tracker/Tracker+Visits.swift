import Foundation

extension Tracker {
    /// A visit report. An arrival is a position where the device has stayed for some minutes, taken
    /// now: it goes through the fix pipeline, unless the device is already judged still at an open
    /// stay, which the arrival only confirms (its coarse position would split the stay in two). A
    /// departure says when the device left: the stay at the last record ends then, and the
    /// stop-detecting modes start moving.
    mutating func handleVisit(_ visit: Visit, now: Date, into effects: inout [TrackerEffect]) {
        guard let departure = visit.departure else {
            if isStationary && stay.open {
                stay.lastThere = max(stay.lastThere, now)
                return
            }
            guard
                let position = try? Fix(
                    coordinate: visit.fix.coordinate, horizontalAccuracy: visit.fix.horizontalAccuracy, timestamp: now,
                    source: visit.fix.source)
            else { return }
            handleFix(position, now: now, into: &effects)
            return
        }
        guard isRunning else { return }
        if stay.open {
            extendStay(until: max(stay.lastThere, departure), into: &effects)
            stay.open = false
        }
        if isStationary { startMoving(at: now, into: &effects) }
    }
}
