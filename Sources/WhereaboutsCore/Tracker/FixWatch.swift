import Foundation

/// The unbroken run of fixes judging regions: consecutive fixes at most ``GeofenceRule/freshFix``
/// seconds apart.
///
/// The OS reports a crossing up to ``GeofenceRule/fixPrecedence`` seconds after it happened. Only
/// fixes that watched all that time could have seen the crossing themselves; after a break (the app
/// suspended, positioning off) the device may have crossed a region and come back unseen.
struct FixWatch: Sendable {
    /// When the current run began, if a fix was ever judged.
    private(set) var since: Date?
    /// When the last fix of the run was taken.
    private(set) var last: Date?

    /// Adds a fix taken at `time`: it extends the run, or starts a new one after a break.
    mutating func note(_ time: Date) {
        if let last, time.timeIntervalSince(last) <= GeofenceRule.freshFix {
            self.last = max(last, time)
        } else {
            since = time
            last = time
        }
    }

    /// Moves the run by `offset` seconds: a clock set back. Fixes on the new clock extend it as they
    /// would have without the jump.
    mutating func shiftTimes(by offset: TimeInterval) {
        since?.addTimeInterval(offset)
        last?.addTimeInterval(offset)
    }

    /// Whether fixes watched without a break from `seconds` before `now` until now.
    func covers(_ seconds: TimeInterval, before now: Date) -> Bool {
        guard let since, let last else { return false }
        return now.timeIntervalSince(since) >= seconds && now.timeIntervalSince(last) <= GeofenceRule.freshFix
    }
}
