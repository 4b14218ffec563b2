import Foundation

extension Tracker {
    /// Asks the shell to upload, after writing the stay at the last record as far as it is known (the
    /// upload then carries it): until now while the device is judged still with positioning off,
    /// else until the last fix that showed it there. Stopping, coming to the foreground and an
    /// arrival flush at once; the other triggers (threshold, region event, motion change) are
    /// coalesced so that at most one upload starts per ``TrackerConfiguration/flushInterval``:
    /// each upload wakes the radio for about 12 J, far more than the bytes cost. A coalesced upload
    /// is a deadline (``TimerID/flush``): it starts when its interval ends, even if nothing else
    /// comes in.
    mutating func flush(_ reason: FlushReason, now: Date, into effects: inout [TrackerEffect]) {
        let immediate = reason == .stopped || reason == .foreground || reason == .arrival
        if !immediate, let last = lastFlush, now.timeIntervalSince(last) < configuration.flushInterval {
            deferredFlush = deferredFlush ?? reason
            timers[.flush] = last.addingTimeInterval(configuration.flushInterval)
            return
        }
        if stay.open { extendStay(until: isStationary ? now : stay.lastThere, into: &effects) }
        effects.append(.flushUploads(reason))
        lastFlush = now
        deferredFlush = nil
        timers[.flush] = nil
        recordsSinceFlush = 0
    }

    /// Performs a coalesced flush once its interval has passed.
    mutating func flushIfDue(now: Date, into effects: inout [TrackerEffect]) {
        guard let reason = deferredFlush, let last = lastFlush,
            now.timeIntervalSince(last) >= configuration.flushInterval
        else { return }
        flush(reason, now: now, into: &effects)
    }

    /// Moves a coalesced upload's deadline to the end of the interval now in force, after a command
    /// or the end of active tracking that may have changed the mode or the configured interval.
    mutating func rearmDeferredFlush() {
        guard deferredFlush != nil, let last = lastFlush else { return }
        timers[.flush] = last.addingTimeInterval(configuration.flushInterval)
    }

    /// A visit arrival woke the device judged still: what waits for the coalescing interval goes now.
    /// Positioning is off and nothing wakes a device at rest, so it would otherwise wait for the next
    /// departure, often hours later. Arrivals come minutes into a stay, so brief stops cost nothing.
    mutating func flushOnArrival(now: Date, into effects: inout [TrackerEffect]) {
        guard isStationary, deferredFlush != nil else { return }
        flush(.arrival, now: now, into: &effects)
    }
}
