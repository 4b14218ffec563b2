import Foundation

extension Tracker {
    /// Follows a clock set back (by the user, or a host's clock corrected): the Tracker's times were
    /// read on the old clock, and fixes now carry times on the new one.
    ///
    /// A jump back of more than ``FixFilter/futureTolerance`` moves every timer, the last upload and
    /// the end of active tracking back by as much, so each still lasts what it had left; and the
    /// last fix and the last record, taken on the old clock, are forgotten: judged against them,
    /// every new fix would be stale and no mode would record until the clock caught up. The stay at
    /// that record is written first, as far as the old clock saw it, so its dwell is not lost. The
    /// next fix starts afresh. A record restored from the store with a time ahead of the clock (a
    /// relaunch after the jump) is forgotten the same way.
    mutating func followClock(to now: Date, into effects: inout [TrackerEffect]) {
        defer { lastNow = now }
        let jump = lastNow.map { $0.timeIntervalSince(now) } ?? 0
        if jump > FixFilter.futureTolerance {
            timers = timers.mapValues { $0.addingTimeInterval(-jump) }
            lastFlush = lastFlush?.addingTimeInterval(-jump)
            raisedAccuracyUntil = raisedAccuracyUntil?.addingTimeInterval(-jump)
            if let active = activeTracking { activeTracking = (active.previous, active.end.addingTimeInterval(-jump)) }
        } else if (lastRecord?.timestamp.timeIntervalSince(now) ?? 0) <= FixFilter.futureTolerance {
            return
        }
        if stay.open { extendStay(until: stay.lastThere, into: &effects) }
        lastFix = nil
        lastRecord = nil
        stay = .none
        statistics.clockJumpsBack += 1
    }
}
