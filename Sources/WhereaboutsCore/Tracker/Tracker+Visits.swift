import Foundation

extension Tracker {
    /// A visit report. An arrival is a position where the device has stayed for some minutes, taken
    /// now: it goes through the fix pipeline, unless the device is already judged still at an open
    /// stay, which the arrival only confirms (its coarse position would split the stay in two). It
    /// does not judge regions: its position is the place's, estimated over the minutes of the stay
    /// and reported minutes late, not the device's now, and can lie some hundred metres off (the
    /// simulated phone's lies up to 100 m back along the way in, plus σ 50 m); judged as a fix, it
    /// entered regions the device was not in, and the next fix left them again. A departure says
    /// when the device left: the stay at the last record ends then, and the stop-detecting modes
    /// start moving.
    mutating func handleVisit(_ visit: Visit, now: Date, into effects: inout [TrackerEffect]) {
        guard let departure = visit.departure else {
            if isStationary && stay.open {
                stay.lastThere = max(stay.lastThere, now)
                flushOnArrival(now: now, into: &effects)
                return
            }
            guard
                let position = try? Fix(
                    coordinate: visit.fix.coordinate, horizontalAccuracy: visit.fix.horizontalAccuracy, timestamp: now,
                    source: visit.fix.source)
            else { return }
            handleFix(position, judging: false, now: now, into: &effects)
            return
        }
        guard isRunning else { return }
        if stay.open {
            extendStay(until: stay.setOff ?? max(stay.lastThere, departure), into: &effects)
            stay.open = false
        }
        if isStationary { startMoving(at: now, into: &effects) }
    }
}
