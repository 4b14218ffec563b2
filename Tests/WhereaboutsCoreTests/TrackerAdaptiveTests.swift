import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsTestSupport

@Suite("Adaptive and stop-detect modes")
struct TrackerAdaptiveTests {
    typealias F = TestFixtures

    @Test("still for the stop timeout: updates off, stationary fence planned; leaving it turns them back on")
    func stationaryCycle() {
        let policy = MotionPolicy.stillnessOnly
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(policy)))
        _ = tracker.handle(.command(.start), now: F.date(0))
        let first = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 1)), now: F.date(1))
        #expect(tracker.timers[.stationaryCheck] == F.date(1 + policy.stopTimeout))
        _ = tracker.handle(.fix(F.fix(east: 20, accuracy: 40, at: 60)), now: F.date(60))
        let check = tracker.handle(.wake, now: F.date(1 + policy.stopTimeout))
        #expect(check.locationRequests == [LocationRequest(standard: nil, significantChange: true)])
        #expect(check.monitored.last?.last?.radius == policy.stationaryRadius)
        guard case .stationary = tracker.motion else {
            Issue.record("expected stationary, got \(tracker.motion)")
            return
        }
        let wake = tracker.handle(.regionCrossing(id: MonitoredRegion.refreshRegionID, state: .outside), now: F.date(1000))
        #expect(wake.locationRequests.last?.standard?.accuracy == .hundredMeters)
        #expect(wake.flushes == [.motionChange] || wake.flushes.isEmpty)
    }

    @Test("moving past the stop radius postpones the stationary check")
    func moving() {
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(MotionPolicy.stillnessOnly)))
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 1)), now: F.date(1))
        let moved = tracker.handle(.fix(F.fix(east: 500, accuracy: 40, at: 100)), now: F.date(100))
        #expect(tracker.timers[.stationaryCheck] == F.date(100 + MotionPolicy.stillnessOnly.stopTimeout))
        #expect(tracker.handle(.wake, now: F.date(151)).locationRequests.isEmpty)
    }

    @Test("accuracy rises when a Wi-Fi fix leaves a region undecided, and drops after the hold")
    func raisedAccuracy() {
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(MotionPolicy.stillnessOnly)), regions: [F.region("a", radius: 300)])
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.fix(F.fix(east: 1000, accuracy: 50, at: 1)), now: F.date(1))
        let near = tracker.handle(.fix(F.fix(east: 260, accuracy: 50, at: 11)), now: F.date(11))
        #expect(near.locationRequests.last?.standard?.accuracy == .best)
        let far = tracker.handle(.fix(F.fix(east: 1500, accuracy: 8, at: 40)), now: F.date(40))
        #expect(far.locationRequests.last?.standard?.accuracy == .hundredMeters)
    }

    @Test("stop-detect keeps best accuracy with its 10 m elastic filter")
    func stopDetect() {
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(.stopDetect)))
        let effects = tracker.handle(.command(.start), now: F.date(0))
        #expect(effects.locationRequests == [LocationRequest(standard: StandardUpdates(accuracy: .best, distanceFilter: 10), significantChange: false)])
    }
}
