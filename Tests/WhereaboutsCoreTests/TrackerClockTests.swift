import Foundation
import Testing
import WhereaboutsTestSupport

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

    /// Bug: the moving anchor kept its time on the old clock, so the stillness check, moved back with
    /// the other timers, found the device still for less than the stop timeout and put itself off to
    /// the anchor's time plus the timeout on the old clock: positioning stayed on for another hour.
    @Test("a clock set back while the device is still stops positioning when the stop timeout it had left ends")
    func stillnessAfterJumpBack() {
        let policy = MotionPolicy.stillnessOnly
        var (tracker, _) = startedTracker(.adaptive(policy))
        _ = tracker.feed(fix(home, acc: 40, t: 1_000))
        let jumpedTo: TimeInterval = 1_050 - 3_600
        _ = tracker.wake(at: jumpedTo)
        let due = jumpedTo + policy.stopTimeout
        #expect(tracker.timers[.stationaryCheck] == time(due), "the check had the whole stop timeout left at the last input")
        _ = tracker.feed(fix(point(home, metres: 20), acc: 40, t: jumpedTo + 20))
        _ = tracker.feed(fix(point(home, metres: 10), acc: 40, t: jumpedTo + 80))
        _ = tracker.wake(at: due)
        #expect(tracker.motion == .stationary(anchor: fix(point(home, metres: 10), acc: 40, t: jumpedTo + 80)), "\(tracker.motion)")
    }

    /// Bug: the entry time stayed on the old clock, and the dwell timer, moved back with the others,
    /// was set again from it in the same input: the dwell came late by the jump, stamped that far ahead.
    @Test(
        "a clock set back while a region's loitering delay runs keeps the wait it had left, and the store learns the moved entry",
        arguments: [(1_000, 400), (1_100, 1_100 - 3_600)] as [(TimeInterval, TimeInterval)])
    func dwellAfterJumpBack(lastInput: TimeInterval, jumpedTo: TimeInterval) {
        var (tracker, _) = startedTracker(.continuous(), regions: [region("a", home, radius: 100, loiteringDelay: 600)])
        _ = tracker.feed(fix(home, t: 1_000))
        if lastInput > 1_000 { _ = tracker.wake(at: lastInput) }
        let jump = tracker.wake(at: jumpedTo)
        let entered = 1_000 - (lastInput - jumpedTo)
        #expect(jump.contains(.saveRegionStates([RegionStateRecord(regionID: "a", inside: true, since: time(entered), dwelt: false)])))
        #expect(tracker.timers[.dwell] == time(entered + 600))
        let dwell = tracker.wake(at: entered + 600)
        #expect(dwell.events.map(\.kind) == [.dwell])
        #expect(dwell.events.first?.timestamp == time(entered + 600))
    }

    /// Bug: the fixes' crossings stayed on the old clock, in the future of every OS report for as long
    /// as the jump, so each report counted as their echo and was dropped without asking for a fix.
    @Test("after a clock set back, the OS's entry is an echo of the fixes' only while it would have been without the jump")
    func crossingAfterJumpBack() {
        var (tracker, _) = startedTracker(.significant, regions: [region("a", home, radius: 300)])
        _ = tracker.feed(fix(point(home, metres: 2_000), t: 1))
        _ = tracker.feed(fix(home, t: 1_000))
        _ = tracker.feed(fix(point(home, metres: 2_000), t: 1_100))
        let echo = tracker.cross("a", .inside, at: 500)
        #expect(echo.events.isEmpty, "the fixes reported the entry 100 s before, as the clock moved it: the OS's late report")
        let entry = tracker.cross("a", .inside, at: 700)
        #expect(entry.events.map(\.kind) == [.enter], "300 s after the fixes' entry: a new one")
        #expect(!entry.oneShots.isEmpty, "a fix is asked for")
    }

    /// Bug: the run of fixes kept its start on the old clock, so for as long as the jump the fixes never
    /// seemed to have watched for as long as the OS takes to report, and an OS report they refute was taken.
    @Test("fixes that stream on through a clock set back still outweigh an OS report they refute")
    func fixWatchAfterJumpBack() {
        let far = point(home, metres: 2_500)
        var (tracker, _) = startedTracker(.continuous(), regions: [region("a", point(home, metres: 2_000), radius: 300)])
        for t in stride(from: 10.0, through: 300, by: 10) { _ = tracker.feed(fix(far, t: t)) }
        for t in stride(from: 310.0, through: 500, by: 10) { _ = tracker.feed(fix(far, t: t - 3_600)) }
        let report = tracker.cross("a", .inside, at: 505 - 3_600)
        #expect(report.events.isEmpty, "\(report)")
        #expect(tracker.geofences.state(of: "a") == .outside)
    }
}
