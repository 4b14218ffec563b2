import Foundation
import Testing

@testable import WhereaboutsCore

/// The clock set back while tracking: fixes on the new clock are taken at once, and timers keep
/// what they had left.
@Suite("Tracker: a clock set back")
struct TrackerClockTests {
    @Test("after the clock is set back a day, the next fix is taken and recorded, not stale until the clock catches up")
    func fixesTakenAfterJumpBack() {
        for mode in [TrackingMode.continuous(), .significant, .interval(interval: 60, displacement: 50)] {
            var (tracker, _) = startedTracker(mode)
            _ = tracker.handle(.fix(fix(home, t: 86_400)), now: time(86_400))
            let after = tracker.handle(.fix(fix(point(home, metres: 800), t: 100)), now: time(100))
            #expect(tracker.statistics.rejected[.stale] == nil, "\(mode.name)")
            #expect(after.records.count == 1, "\(mode.name): \(after)")
            #expect(tracker.statistics.clockJumpsBack == 1)
        }
    }

    /// Bug: the stay at the forgotten record was dropped unwritten, so its dwell since the last
    /// write was lost and the next fix at the same place became a second record.
    @Test("a clock set back mid-stay writes the stay as the old clock saw it before forgetting it")
    func stayWrittenAtJumpBack() {
        var (tracker, _) = startedTracker(.continuous())
        _ = tracker.handle(.fix(fix(home, t: 1_000)), now: time(1_000))
        _ = tracker.handle(.fix(fix(home, t: 1_600)), now: time(1_600))
        let after = tracker.handle(.fix(fix(home, t: 100)), now: time(100))
        #expect(after.contains(.extendDwell(dwell: 600, lastSeen: time(1_600))), "\(after)")
    }

    @Test("a record restored with a time ahead of the clock is forgotten, so the next fix records")
    func restoredRecordAhead() {
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .significant))
        tracker.restore(lastRecord: LocationRecord(fix: fix(home, t: 86_400), trigger: .policy), regionStates: [])
        _ = tracker.handle(.command(.start), now: time(0))
        let effects = tracker.handle(.fix(fix(point(home, metres: 100), t: 10)), now: time(10))
        #expect(effects.records.count == 1, "\(effects)")
    }

    @Test("timers keep what they had left when the clock goes back")
    func timersShift() {
        var (tracker, _) = startedTracker(.continuous())
        _ = tracker.send(.startActiveTracking(duration: 600), at: 1000)
        #expect(tracker.timers[.activeTrackingEnd] == time(1600))
        _ = tracker.handle(.wake, now: time(400))
        #expect(tracker.timers[.activeTrackingEnd] == time(1000), "600 s from the start, as before the jump")
    }
}
