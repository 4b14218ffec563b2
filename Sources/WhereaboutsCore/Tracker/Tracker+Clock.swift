import Foundation

extension Tracker {
    /// Follows a clock set back (by the user, or a host's clock corrected): the Tracker's times were
    /// read on the old clock, and fixes now carry times on the new one.
    ///
    /// A jump back of more than ``FixFilter/futureTolerance`` moves by as much every time that a wait
    /// or a comparison to come counts from (``shiftTimes(by:)``), so each wait still lasts what it had
    /// left at the last input: the time between that input and this one cannot be told from the jump,
    /// and counts as none. The last fix and the last record, taken on the old clock, are forgotten
    /// instead: judged against them, every new fix would be stale and no mode would record until the
    /// clock caught up. The stay at that record is written first, as far as the old clock saw it, so
    /// its dwell is not lost. The next fix starts afresh. A record restored from the store with a time
    /// ahead of the clock (a relaunch after the jump) is forgotten the same way, and nothing moves.
    ///
    /// A jump forward cannot be told from time passing while the app was suspended, so nothing moves:
    /// the timers it passes fire, and the waits counted from earlier times end, as after a suspension.
    mutating func followClock(to now: Date, into effects: inout [TrackerEffect]) {
        defer { lastNow = now }
        let jump = lastNow.map { $0.timeIntervalSince(now) } ?? 0
        if jump > FixFilter.futureTolerance {
            shiftTimes(by: -jump)
        } else if (lastRecord?.timestamp.timeIntervalSince(now) ?? 0) <= FixFilter.futureTolerance {
            return
        }
        if stay.open { extendStay(until: stay.lastThere, into: &effects) }
        lastFix = nil
        lastRecord = nil
        stay = .none
        statistics.clockJumpsBack += 1
    }

    /// Moves by `offset` seconds the times that waits and comparisons to come count from: the timers,
    /// the last upload, the ends of active tracking and of raised accuracy, the start of a cruise's
    /// clearance, the motion anchor (the stillness check counts from its time), the run of fixes that
    /// judged regions (``FixWatch``), and the geofence engine's entry times, latest fix and fix
    /// crossings (``GeofenceEngine/shiftTimes(by:)``).
    private mutating func shiftTimes(by offset: TimeInterval) {
        timers = timers.mapValues { $0.addingTimeInterval(offset) }
        lastFlush?.addTimeInterval(offset)
        raisedAccuracyUntil?.addTimeInterval(offset)
        activeTracking?.end.addTimeInterval(offset)
        clearance?.from.addTimeInterval(offset)
        switch motion {
        case .moving(var anchor):
            anchor?.timestamp.addTimeInterval(offset)
            motion = .moving(anchor: anchor)
        case .stationary(var anchor):
            anchor.timestamp.addTimeInterval(offset)
            motion = .stationary(anchor: anchor)
        }
        fixWatch.shiftTimes(by: offset)
        geofences.shiftTimes(by: offset)
    }
}
