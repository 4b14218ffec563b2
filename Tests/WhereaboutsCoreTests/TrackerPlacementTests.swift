import Foundation
import Testing
import WhereaboutsTestSupport

@testable import WhereaboutsCore

@Suite("Placing a stay's record: finer still fixes, and one GPS fix per stop")
struct TrackerPlacementTests {
    /// The fix `fix` places a record taken at `t` seconds: its position, at the record's time.
    private func placed(_ fix: Fix, recordAt t: TimeInterval) -> TrackerEffect {
        var placed = fix
        placed.timestamp = time(t)
        return .placeRecord(placed)
    }

    private func placements(_ effects: [TrackerEffect]) -> [TrackerEffect] {
        effects.filter { if case .placeRecord = $0 { true } else { false } }
    }

    @Test("a still fix at least twice as fine as the position written places the record; a coarser or moving one does not")
    func finerStillFixes() {
        var (tracker, _) = startedTracker(.continuous())
        #expect(tracker.feed(fix(home, acc: 40, t: 1, speed: 0, source: .wifi)).records.count == 1)
        let gps = fix(east(of: home, 15), acc: 8, t: 30, speed: 0)
        let first = tracker.feed(gps)
        #expect(first.records.isEmpty)
        #expect(placements(first) == [placed(gps, recordAt: 1)])
        #expect(placements(tracker.feed(fix(east(of: home, 12), acc: 5, t: 40, speed: 0))).isEmpty, "5 m is not twice as fine as 8 m")
        let finer = fix(east(of: home, 13), acc: 4, t: 50, speed: 0)
        #expect(placements(tracker.feed(finer)) == [placed(finer, recordAt: 1)])
        #expect(placements(tracker.feed(fix(east(of: home, 14), acc: 25, t: 60, speed: 0, source: .wifi))).isEmpty)
    }

    @Test("a fix moving within the merge radius does not place the record")
    func movingFix() {
        var (tracker, _) = startedTracker(.continuous())
        _ = tracker.feed(fix(home, acc: 40, t: 1, speed: 0, source: .wifi))
        let passing = tracker.feed(fix(east(of: home, 10), acc: 5, t: 20, speed: 1.5))
        #expect(passing.records.isEmpty, "merged: within the radius")
        #expect(placements(passing).isEmpty)
    }

    @Test("a preset keeps a moving GPS fix within the merge radius when it adds shape; a Wi-Fi one, or continuous mode, merges")
    func movingShape() {
        for (mode, kept) in [(TrackingMode.adaptive(.adaptive), 1), (.continuous(), 0)] {
            var (tracker, _) = startedTracker(mode)
            _ = tracker.feed(fix(home, acc: 40, t: 1, speed: 2, source: .wifi))
            let gps = tracker.feed(fix(east(of: home, 30), acc: 8, t: 15, speed: 2))
            #expect(gps.records.count == kept, "\(mode): 30 m on, within 25 m + (40 + 8) / 2")
            let wifi = tracker.feed(fix(east(of: home, 60), acc: 40, t: 30, speed: 2, source: .wifi))
            #expect(wifi.records.isEmpty, "\(mode): a Wi-Fi fix adds noise, not shape")
        }
    }

    @Test("the stay's first fix stays its anchor: a fix far from the placed position but near the first one merges")
    func anchorStays() {
        var (tracker, _) = startedTracker(.continuous())
        _ = tracker.feed(fix(home, acc: 40, t: 1, speed: 0, source: .wifi))
        _ = tracker.feed(fix(east(of: home, 20), acc: 4, t: 30, speed: 0))
        let wide = tracker.feed(fix(east(of: home, -40), acc: 40, t: 90, speed: 0, source: .wifi))
        #expect(wide.records.isEmpty, "60 m from the placed position, but within 65 m of the first fix")
    }

    @Test("a policy that places stops asks one GPS fix per stay once still, and the fix places the record")
    func stopPlacement() {
        let policy = MotionPolicy.stillnessOnly
        var (tracker, _) = startedTracker(.adaptive(policy))
        _ = tracker.feed(fix(home, acc: 40, t: 5, speed: 0, source: .wifi))
        _ = tracker.feed(fix(east(of: home, 10), acc: 45, t: 40, speed: 0, source: .wifi))
        let check = tracker.wake(at: 5 + policy.stopTimeout)
        #expect(check.oneShots == [.best])
        let gps = fix(east(of: home, 6), acc: 6, t: 5 + policy.stopTimeout + 4, speed: 0)
        #expect(placements(tracker.feed(gps)) == [placed(gps, recordAt: 5)], "the one-shot's fix, after the check")
        let wake = tracker.handle(.regionCrossing(id: MonitoredRegion.refreshRegionID, state: .outside), now: time(600))
        #expect(!wake.oneShots.contains(.best), "leaving asks a Wi-Fi position, not another placement")
        _ = tracker.feed(fix(east(of: home, 8), acc: 40, t: 610, speed: 0, source: .wifi))
        #expect(tracker.wake(at: 610 + policy.stopTimeout).oneShots.isEmpty, "the same stay, already placed")
    }

    @Test("no GPS fix is asked for a stop already placed finely, nor by a policy that does not place stops")
    func noStopPlacement() {
        var policy = MotionPolicy.stillnessOnly
        var (fine, _) = startedTracker(.adaptive(policy))
        _ = fine.feed(fix(home, acc: 10, t: 5, speed: 0))
        #expect(fine.wake(at: 5 + policy.stopTimeout).oneShots.isEmpty)
        policy.placesStops = false
        var (off, _) = startedTracker(.adaptive(policy))
        _ = off.feed(fix(home, acc: 40, t: 5, speed: 0, source: .wifi))
        #expect(off.wake(at: 5 + policy.stopTimeout).oneShots.isEmpty)
    }

    @Test("a restored record keeps its accuracy as the mark to beat")
    func restored() {
        var (tracker, _) = startedTracker(.continuous())
        let record = LocationRecord(fix: fix(home, acc: 40, t: 1, speed: 0, source: .wifi), trigger: .policy, dwell: 30)
        tracker.restore(lastRecord: record, regionStates: [])
        #expect(placements(tracker.feed(fix(east(of: home, 5), acc: 25, t: 60, speed: 0))).isEmpty)
        let gps = fix(east(of: home, 5), acc: 10, t: 70, speed: 0)
        #expect(placements(tracker.feed(gps)) == [placed(gps, recordAt: 1)])
    }

    @Test("a restored record taken moving opens no stay: a fix far away an hour later claims no dwell there")
    func restoredOnTheMove() {
        var (tracker, _) = startedTracker(.continuous())
        tracker.restore(lastRecord: LocationRecord(fix: fix(home, acc: 5, t: 0, speed: 15), trigger: .policy), regionStates: [])
        let effects = tracker.feed(fix(east(of: home, 2_000), acc: 5, t: 3_600, speed: 15))
        #expect(!effects.contains { if case .extendDwell = $0 { true } else { false } }, "\(effects)")
        #expect(effects.records.count == 1)
    }

    /// Bug: a relaunch reopened a stay the previous process had seen end, and the next distant fix
    /// rewrote its dwell hours longer (a 1-hour stay became almost 6 in significant mode).
    @Test("a stay seen to end says so, and a record restored with its stay ended claims no dwell from a later fix")
    func restoredStayEnded() {
        var (tracker, _) = startedTracker(.significant)
        _ = tracker.feed(fix(home, acc: 10, t: 0, speed: 0))
        _ = tracker.feed(fix(home, acc: 10, t: 3_000, speed: 0))
        let left = tracker.feed(fix(east(of: home, 300), acc: 10, t: 3_600, speed: 0))
        #expect(left.contains(.stayEnded), "\(left)")

        var (relaunched, _) = startedTracker(.significant)
        let record = LocationRecord(fix: fix(home, acc: 10, t: 0, speed: 0), trigger: .policy, dwell: 3_600)
        relaunched.restore(lastRecord: record, stayEnded: true, regionStates: [])
        let effects = relaunched.feed(fix(east(of: home, 300), acc: 10, t: 20_000, speed: 0))
        #expect(!effects.contains { if case .extendDwell = $0 { true } else { false } }, "\(effects)")
    }
}
