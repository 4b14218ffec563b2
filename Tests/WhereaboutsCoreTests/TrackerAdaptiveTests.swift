import Foundation
import Testing
import WhereaboutsTestSupport

@testable import WhereaboutsCore

@Suite("Adaptive and stop-detect modes")
struct TrackerAdaptiveTests {
    typealias F = TestFixtures

    @Test("still for the stop timeout: updates off, stationary fence planned; leaving it turns them back on")
    func stationaryCycle() {
        let policy = MotionPolicy.stillnessOnly
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(policy)))
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 1)), now: F.date(1))
        #expect(tracker.timers[.stationaryCheck] == F.date(1 + policy.stopTimeout))
        _ = tracker.handle(.fix(F.fix(east: 20, accuracy: 40, at: 60)), now: F.date(60))
        let check = tracker.handle(.wake, now: F.date(1 + policy.stopTimeout))
        #expect(check.locationRequests == [LocationRequest(standard: nil, significantChange: true)])
        #expect(check.monitors.last?.last?.radius == policy.stationaryRadius)
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
        _ = tracker.handle(.fix(F.fix(east: 500, accuracy: 40, at: 100)), now: F.date(100))
        #expect(tracker.timers[.stationaryCheck] == F.date(100 + MotionPolicy.stillnessOnly.stopTimeout))
        #expect(tracker.handle(.wake, now: F.date(151)).locationRequests.isEmpty)
    }

    @Test("accuracy rises when a Wi-Fi fix leaves a region undecided, and drops after the hold")
    func raisedAccuracy() {
        var tracker = Tracker(
            configuration: TrackerConfiguration(mode: .adaptive(MotionPolicy.stillnessOnly)), regions: [F.region("a", radius: 300)])
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.fix(F.fix(east: 1000, accuracy: 50, at: 1)), now: F.date(1))
        let near = tracker.handle(.fix(F.fix(east: 260, accuracy: 50, at: 11)), now: F.date(11))
        #expect(near.locationRequests.last?.standard?.accuracy == .best)
        let far = tracker.handle(.fix(F.fix(east: 1500, accuracy: 8, at: 40)), now: F.date(40))
        #expect(far.locationRequests.last?.standard?.accuracy == .hundredMeters)
    }

    @Test("raised accuracy takes every GPS fix (no distance filter), so the hold ends on time even when the device stands still")
    func raisedAccuracyHasNoFilter() {
        let policy = MotionPolicy.stillnessOnly
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(policy)), regions: [F.region("a", radius: 300)])
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.fix(F.fix(east: 1000, accuracy: 50, at: 1)), now: F.date(1))
        let near = tracker.handle(.fix(F.fix(east: 260, accuracy: 50, at: 11)), now: F.date(11))
        #expect(near.locationRequests.last?.standard == StandardUpdates(accuracy: .best, distanceFilter: nil))
        let decided = tracker.handle(.fix(F.fix(east: 250, accuracy: 5, at: 14)), now: F.date(14))
        #expect(decided.events.map(\.kind) == [.enter])
        #expect(tracker.handle(.fix(F.fix(east: 250, accuracy: 5, at: 15)), now: F.date(15)).locationRequests.isEmpty)
        let after = tracker.handle(.fix(F.fix(east: 250, accuracy: 5, at: 14 + policy.raisedAccuracyHold)), now: F.date(22))
        #expect(after.locationRequests.last?.standard?.accuracy == .hundredMeters)
    }

    @Test("GPS fixes crossing a region's band keep accuracy raised past the hold at an undecided depth of 0, not at 1")
    func undecidedDepthHoldsGPS() {
        func crossing(depth: Double) -> [LocationRequest] {
            var policy = MotionPolicy.stillnessOnly
            policy.undecidedDepth = depth
            var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(policy)), regions: [F.region("a", radius: 300)])
            _ = tracker.handle(.command(.start), now: F.date(0))
            _ = tracker.handle(.fix(F.fix(east: 1000, accuracy: 50, at: 1)), now: F.date(1))
            let near = tracker.handle(.fix(F.fix(east: 260, accuracy: 50, at: 11)), now: F.date(11))
            #expect(near.locationRequests.last?.standard?.accuracy == .best, "a Wi-Fi fix 40 m inside decides nothing")
            // GPS fixes 10 and 5 m inside the outline: in the 25 m band, no evidence either way.
            let banded = tracker.handle(.fix(F.fix(east: 290, accuracy: 5, at: 12)), now: F.date(12))
            #expect(banded.events.isEmpty)
            let later = 12 + policy.raisedAccuracyHold
            return tracker.handle(.fix(F.fix(east: 295, accuracy: 5, at: later)), now: F.date(later)).locationRequests
        }
        #expect(crossing(depth: 1).last?.standard?.accuracy == .hundredMeters, "the hold from the Wi-Fi fix is over")
        #expect(crossing(depth: 0).allSatisfy { $0.standard?.accuracy == .best }, "each fix past the outline renews the hold")
    }

    @Test("settled at a stop (reported still, a GPS fix taken there): a Wi-Fi fix blurred across the boundary does not raise accuracy")
    func settledDeviceKeepsWiFi() {
        let region = F.region("stop", at: F.point(20), radius: 60)
        func stopped(reportingStill: Bool) -> Tracker {
            var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(.adaptive)), regions: [region])
            _ = tracker.handle(.command(.start), now: F.date(0))
            _ = tracker.handle(.activity(MotionActivity(kind: .walking, confidence: .high, start: F.date(0))), now: F.date(1))
            let arrival = tracker.handle(.fix(F.fix(east: 0, accuracy: 5, at: 2)), now: F.date(2))
            #expect(arrival.events.map(\.kind) == [.enter])
            if reportingStill {
                _ = tracker.handle(.activity(MotionActivity(kind: .stationary, confidence: .high, start: F.date(20))), now: F.date(40))
            }
            return tracker
        }
        // 95 m east: 75 m from the centre, in the band beyond the boundary, which a 40 m fix cannot decide.
        let blurred = F.fix(east: 95, accuracy: 40, at: 60)
        var settled = stopped(reportingStill: true)
        let kept = settled.handle(.fix(blurred), now: F.date(60))
        #expect(kept.events.isEmpty)
        #expect(kept.locationRequests.last?.standard?.accuracy ?? .hundredMeters == .hundredMeters)
        var walking = stopped(reportingStill: false)
        #expect(walking.handle(.fix(blurred), now: F.date(60)).locationRequests.last?.standard?.accuracy == .best)
        // 101 m east: past the stop radius, a new anchor where no GPS fix was taken, and as blurred.
        // The fix that moved the anchor was still taken settled, so the next one decides.
        var moved = stopped(reportingStill: true)
        _ = moved.handle(.fix(F.fix(east: 101, accuracy: 40, at: 60)), now: F.date(60))
        let elsewhere = moved.handle(.fix(F.fix(east: 101, accuracy: 40, at: 70)), now: F.date(70))
        #expect(elsewhere.locationRequests.last?.standard?.accuracy == .best, "reported still, but nothing fine decided there")
        _ = settled.handle(.activity(MotionActivity(kind: .walking, confidence: .high, start: F.date(70))), now: F.date(90))
        let leaving = settled.handle(.fix(F.fix(east: 95, accuracy: 40, at: 100)), now: F.date(100))
        #expect(leaving.locationRequests.last?.standard?.accuracy == .best, "on the move again, the same fix calls for GPS")
    }

    @Test("a settled device's Wi-Fi fixes do not judge the regions at its stop; on the move they do")
    func settledDeviceIgnoresWiFiNoise() {
        // The boundary is 20 m east of where the device stopped (hysteresis 15 m).
        let region = F.region("stop", at: F.point(-40), radius: 60)
        func stopped(reportingStill: Bool) -> Tracker {
            var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(.adaptive)), regions: [region])
            _ = tracker.handle(.command(.start), now: F.date(0))
            _ = tracker.handle(.activity(MotionActivity(kind: .walking, confidence: .high, start: F.date(0))), now: F.date(1))
            #expect(tracker.handle(.fix(F.fix(east: 0, accuracy: 5, at: 2)), now: F.date(2)).events.map(\.kind) == [.enter])
            let activity = MotionActivity(kind: reportingStill ? .stationary : .walking, confidence: .high, start: F.date(20))
            _ = tracker.handle(.activity(activity), now: F.date(40))
            return tracker
        }
        // Two Wi-Fi fixes 50 m east, 30 m beyond the boundary: noise of 50 m at a stop, within the stop
        // radius of where it stopped. Together they would show the device outside.
        let noise = [F.fix(east: 50, accuracy: 25, at: 60), F.fix(east: 50, accuracy: 25, at: 120)]
        var settled = stopped(reportingStill: true)
        #expect(noise.flatMap { settled.handle(.fix($0), now: $0.timestamp).events }.isEmpty)
        var stillThere = stopped(reportingStill: true)
        let fine = F.fix(east: 50, accuracy: 5, at: 60)
        #expect(stillThere.handle(.fix(fine), now: fine.timestamp).events.map(\.kind) == [.exit], "a GPS fix judges, settled or not")
        var walking = stopped(reportingStill: false)
        #expect(noise.flatMap { walking.handle(.fix($0), now: $0.timestamp).events }.map(\.kind) == [.exit])
        _ = settled.handle(.activity(MotionActivity(kind: .walking, confidence: .high, start: F.date(130))), now: F.date(150))
        let moved = [F.fix(east: 50, accuracy: 25, at: 160), F.fix(east: 50, accuracy: 25, at: 170)]
        #expect(moved.flatMap { settled.handle(.fix($0), now: $0.timestamp).events }.map(\.kind) == [.exit], "walking again")
    }

    @Test("stop-detect keeps best accuracy with its 10 m elastic filter")
    func stopDetect() {
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(.stopDetect)))
        let effects = tracker.handle(.command(.start), now: F.date(0))
        #expect(
            effects.locationRequests == [
                LocationRequest(standard: StandardUpdates(accuracy: .best, distanceFilter: 10), significantChange: false)
            ])
    }
}

extension TrackerAdaptiveTests {
    private var movingRequest: LocationRequest { standard(.hundredMeters, filter: 20) }

    /// Wi-Fi fixes every 10 s from `t0` through `t1`, wandering within `spread` metres of `center`.
    private func stillFixes(
        around center: Coordinate, from t0: TimeInterval, through t1: TimeInterval, spread: Double = 30,
        acc: Double = 40, seed: UInt64 = 1
    ) -> [Fix] {
        var g = SeededGenerator(seed: seed)
        return stride(from: t0, through: t1, by: 10).map { t in
            let p = point(center, metres: Double.random(in: 0...spread, using: &g), bearing: Double.random(in: 0..<360, using: &g))
            return fix(p, acc: acc, t: t, speed: 0, source: .wifi)
        }
    }

    /// A tracker in the default adaptive mode that stood still at `home` from t = 5 and went
    /// stationary when its check fired at t = 155; `stopEffects` are what that check returned.
    private func stationaryTracker(regions: [Region] = []) -> (tracker: Tracker, stopEffects: [TrackerEffect]) {
        var (tracker, _) = startedTracker(.adaptive(MotionPolicy.stillnessOnly), regions: regions)
        for f in stillFixes(around: home, from: 5, through: 145) { _ = tracker.feed(f) }
        let effects = tracker.wake(at: 155)
        return (tracker, effects)
    }

    @Test func theFirstFixSchedulesTheStillnessCheck() {
        var (tracker, _) = startedTracker(.adaptive(MotionPolicy.stillnessOnly))
        let effects = tracker.feed(fix(home, acc: 40, t: 5, speed: 0))
        #expect(tracker.timers[.stationaryCheck] == time(155))
        #expect(effects.locationRequests.isEmpty, "still the moving request")
    }

    @Test func fixesWithinTheStopRadiusKeepTheAnchor() {
        var (tracker, _) = startedTracker(.adaptive(MotionPolicy.stillnessOnly))
        var scheduled: [Date] = []
        for f in stillFixes(around: home, from: 5, through: 145) {
            _ = tracker.feed(f)
            if let due = tracker.timers[.stationaryCheck], due != scheduled.last { scheduled.append(due) }
        }
        #expect(scheduled == [time(155)])
    }

    @Test func afterStopTimeoutStillTheCheckTurnsStandardUpdatesOff() throws {
        let (tracker, effects) = stationaryTracker()
        #expect(effects.locationRequests == [significantOnly])
        let fence = try #require(effects.monitors.first)
        #expect(fence.count == 1)
        #expect(fence[0].id == MonitoredRegion.refreshRegionID)
        #expect(fence[0].radius <= MotionPolicy.adaptive.stationaryRadius)
        #expect(fence[0].center == tracker.lastFix?.coordinate)
        #expect(effects.flushes == [.motionChange])
        guard case .stationary = tracker.motion else {
            Issue.record("expected stationary, got \(tracker.motion)")
            return
        }
    }

    @Test func theStationaryFenceIsCappedEvenWithRegionsFarAway() throws {
        let (_, effects) = stationaryTracker(regions: [region("far", point(home, metres: 3_000), radius: 100)])
        let fence = try #require(effects.monitors.first)
        #expect(fence.map(\.id) == ["far", MonitoredRegion.refreshRegionID])
        #expect(fence.last!.radius <= 150)
    }

    @Test func aCheckDueBeforeTheTimeoutReschedules() {
        var (tracker, _) = startedTracker(.adaptive(MotionPolicy.stillnessOnly))
        _ = tracker.feed(fix(home, acc: 40, t: 5, speed: 0))
        let moved = tracker.feed(fix(point(home, metres: 500), acc: 40, t: 100, speed: 5))
        #expect(moved.locationRequests.isEmpty)
        #expect(tracker.timers[.stationaryCheck] == time(250), "a new anchor")
        #expect(tracker.wake(at: 155).isEmpty)
        #expect(tracker.timers[.stationaryCheck] == time(250))
        #expect(tracker.motion == .moving(anchor: fix(point(home, metres: 500), acc: 40, t: 100, speed: 5)))
    }

    @Test func refreshRegionExitTurnsUpdatesBackOn() {
        var (tracker, _) = stationaryTracker()
        let effects = tracker.cross(MonitoredRegion.refreshRegionID, .outside, at: 400)
        #expect(effects == [.configureLocation(movingRequest)])
        #expect(tracker.timers[.stationaryCheck] == time(550))
        #expect(effects.flushes.isEmpty, "the motion-change upload is coalesced with the one when it stopped")
        #expect(tracker.motion == .moving(anchor: nil))
    }

    @Test func aRegionCrossingWhileStationaryAlsoWakes() {
        var (tracker, _) = stationaryTracker(regions: [region("far", point(home, metres: 3_000), radius: 100)])
        let effects = tracker.cross("far", .inside, at: 400)
        #expect(effects.events.map(\.kind) == [.enter])
        #expect(effects.locationRequests == [movingRequest])
        #expect(effects.oneShots.isEmpty, "standard updates are on again")
    }

    @Test("a distant significant-change fix wakes a stationary device; a nearby one neither wakes it nor starts a record")
    func aDistantSignificantChangeFixWakesANearbyOneDoesNot() {
        var (tracker, _) = stationaryTracker()
        let near = tracker.feed(fix(point(home, metres: 60), acc: 100, t: 1_000, source: .significantChange))
        #expect(near.locationRequests.isEmpty)
        // Like the first position when monitoring starts: 200 m off, but within its own 150 m accuracy,
        // and beyond the merge radius (25 m and half of both accuracies): the stay goes on all the same.
        let blurred = tracker.feed(fix(point(home, metres: 200), acc: 150, t: 1_500, source: .significantChange))
        #expect(blurred.locationRequests.isEmpty)
        #expect(blurred.records.isEmpty && blurred.dwellExtensions.isEmpty, "still at the stop's record")
        let far = tracker.feed(fix(point(home, metres: 1_500), acc: 100, t: 2_000, source: .significantChange))
        #expect(far.records.count == 1)
        #expect((far.dwellExtensions.last?.lastSeen ?? .distantPast) >= time(1_500), "the stay lasted at least until the blurred fix")
        #expect(far.locationRequests == [movingRequest])
        #expect(far.flushes.contains(.motionChange))
        #expect(tracker.timers[.stationaryCheck] == time(2_150))
        #expect(far.monitors.first?.last?.radius == 5_000, "re-planned with the moving refresh radius")
    }

    @Test func stopDetectUsesBestAccuracyAndTurnsEverythingOffWhenStill() throws {
        var (tracker, start) = startedTracker(.adaptive(.stopDetect))
        #expect(start == [.configureLocation(standard(.best, filter: 10))])
        for f in stillFixes(around: home, from: 5, through: 295, spread: 10, acc: 5) { _ = tracker.feed(f) }
        let effects = tracker.wake(at: 305)
        #expect(effects.locationRequests == [.off], "no significant change while stationary")
        let fence = try #require(effects.monitors.first)
        #expect(fence.last!.radius <= 200)
        #expect(fence.last!.radius >= 150)
    }

    @Test func stopDetectNeverRaisesAccuracyNearABoundary() {
        var (tracker, _) = startedTracker(.adaptive(.stopDetect), regions: [region("gate", point(home, metres: 120), radius: 100)])
        let effects = tracker.feed(fix(home, acc: 5, t: 5))
        #expect(effects.locationRequests.isEmpty)
    }

    @Test func theDistanceFilterStretchesWithSpeed() {
        var (tracker, _) = startedTracker(.adaptive(MotionPolicy.stillnessOnly))
        #expect(tracker.feed(fix(home, acc: 40, t: 5, speed: 19)).locationRequests == [standard(.hundredMeters, filter: 40)])
        #expect(tracker.feed(fix(point(home, metres: 300), acc: 40, t: 20, speed: 1)).locationRequests == [movingRequest])
    }

    @Test func restartingAfterARaiseAsksForTheMovingAccuracy() {
        var (tracker, _) = startedTracker(
            .adaptive(MotionPolicy.stillnessOnly), regions: [region("gate", point(home, metres: 1_000), radius: 300)])
        _ = tracker.feed(fix(home, acc: 50, t: 5, speed: 0))
        #expect(tracker.feed(fix(point(home, metres: 740), acc: 50, t: 60)).locationRequests.last?.standard?.accuracy == .best)
        _ = tracker.send(.stop, at: 70)
        #expect(tracker.send(.start, at: 10_000).locationRequests == [movingRequest])
    }

    @Test func switchingModesAfterARaiseAsksForTheMovingAccuracy() {
        var (tracker, _) = startedTracker(
            .adaptive(MotionPolicy.stillnessOnly), regions: [region("gate", point(home, metres: 1_000), radius: 300)])
        _ = tracker.feed(fix(home, acc: 50, t: 5, speed: 0))
        _ = tracker.feed(fix(point(home, metres: 740), acc: 50, t: 60))
        _ = tracker.send(.setMode(.significant), at: 70)
        #expect(tracker.send(.setMode(.adaptive(MotionPolicy.stillnessOnly)), at: 10_000).locationRequests == [movingRequest])
    }
}
