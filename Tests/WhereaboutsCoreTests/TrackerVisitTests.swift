import Foundation
import Testing
import WhereaboutsCore

@Suite("Visits: an arrival's position is the place's, a departure sets the device moving")
struct TrackerVisitTests {
    typealias F = TestFixtures

    static func started() -> Tracker {
        var tracker = Tracker(
            configuration: TrackerConfiguration(mode: .adaptive(.adaptive)), regions: [F.region("cafe", radius: 200)])
        _ = tracker.handle(.command(.start), now: F.date(0))
        return tracker
    }

    static func arrival(east metres: Double, at seconds: Double) -> Visit {
        Visit(fix: F.fix(east: metres, accuracy: 50, at: seconds - 60), arrival: F.date(seconds - 60), departure: nil)
    }

    @Test("an arrival whose position lies deep in a region does not enter it; a fix there does")
    func arrivalDoesNotJudge() {
        var tracker = Self.started()
        let outside = tracker.handle(.fix(F.fix(east: 600, accuracy: 40, at: 1)), now: F.date(1))
        #expect(outside.events.isEmpty)

        // Within the stop timeout of the fix before, so the device is still judged moving.
        let arrived = tracker.handle(.visit(Self.arrival(east: 0, at: 50)), now: F.date(50))
        #expect(arrived.events.isEmpty)
        #expect(tracker.lastFix?.timestamp == F.date(50))

        let fix = tracker.handle(.fix(F.fix(east: 0, accuracy: 50, at: 51)), now: F.date(51))
        #expect(fix.events.map(\.kind) == [.enter])
    }

    @Test("a departure while the device is judged still starts positioning again")
    func departureStartsMoving() {
        var tracker = Self.started()
        _ = tracker.handle(.fix(F.fix(east: 600, accuracy: 5, at: 1)), now: F.date(1))
        _ = tracker.handle(.wake, now: F.date(1 + MotionPolicy.adaptive.stopTimeout + 1))
        guard case .stationary = tracker.motion else {
            Issue.record("expected stationary, got \(tracker.motion)")
            return
        }

        let departure = Visit(fix: F.fix(east: 600, accuracy: 50, at: 900), arrival: F.date(1), departure: F.date(900))
        let effects = tracker.handle(.visit(departure), now: F.date(1000))
        guard case .moving = tracker.motion else {
            Issue.record("expected moving, got \(tracker.motion)")
            return
        }
        #expect(effects.locationRequests.last?.standard != nil)
    }

    @Test("an arrival at a device judged still uploads what waits for the coalescing interval, once; a moving device's waits")
    func arrivalUploadsWhatWaits() {
        var tracker = Self.started()
        let stillFor = MotionPolicy.adaptive.stopTimeout + 1
        _ = tracker.handle(.fix(F.fix(east: 600, accuracy: 5, at: 1)), now: F.date(1))
        #expect(tracker.handle(.wake, now: F.date(1 + stillFor)).flushes == [.motionChange])

        let departure = Visit(fix: F.fix(east: 600, accuracy: 50, at: 200), arrival: F.date(1), departure: F.date(200))
        #expect(tracker.handle(.visit(departure), now: F.date(210)).flushes.isEmpty, "coalesced: the last upload was at \(stillFor) s")
        #expect(tracker.handle(.visit(Self.arrival(east: 600, at: 240)), now: F.date(240)).flushes.isEmpty, "moving: it waits")
        _ = tracker.handle(.fix(F.fix(east: 620, accuracy: 5, at: 250)), now: F.date(250))
        #expect(tracker.handle(.wake, now: F.date(250 + stillFor)).flushes.isEmpty, "still, but within the interval")
        guard case .stationary = tracker.motion else {
            Issue.record("expected stationary, got \(tracker.motion)")
            return
        }

        #expect(tracker.handle(.visit(Self.arrival(east: 620, at: 600)), now: F.date(600)).flushes == [.arrival])
        #expect(tracker.handle(.visit(Self.arrival(east: 620, at: 700)), now: F.date(700)).flushes.isEmpty, "nothing waits")
    }
}
