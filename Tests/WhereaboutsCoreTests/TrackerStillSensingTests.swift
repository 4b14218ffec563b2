import Foundation
import Testing
import WhereaboutsTestSupport

@testable import WhereaboutsCore

@Suite("Motion activity while still: a walk sets the device moving; still sensing keeps the app running for it")
struct TrackerStillSensingTests {
    /// The stillness policy with motion sensing, and still sensing as given.
    private static func policy(stillSensing: Bool) -> MotionPolicy {
        var policy = MotionPolicy.stillnessOnly
        policy.motionSensing = true
        policy.stillSensing = stillSensing
        return policy
    }

    /// A tracker that stopped at home: two still GPS fixes, then the stop timeout.
    private static func stopped(stillSensing: Bool) -> (tracker: Tracker, stopEffects: [TrackerEffect]) {
        var (tracker, _) = startedTracker(.adaptive(policy(stillSensing: stillSensing)))
        _ = tracker.feed(fix(home, acc: 5, t: 1, speed: 0))
        _ = tracker.feed(fix(east(of: home, 3), acc: 5, t: 60, speed: 0))
        let stop = tracker.wake(at: 1 + MotionPolicy.stillnessOnly.stopTimeout)
        return (tracker, stop)
    }

    private static func report(_ kind: MotionActivity.Kind, _ confidence: MotionActivity.Confidence, since t: TimeInterval)
        -> MotionActivity
    {
        MotionActivity(kind: kind, confidence: confidence, start: time(t))
    }

    @Test("still, the app keeps cell-grade updates and motion activity on; without still sensing, the OS watches and motion stays on")
    func stillRequest() {
        let (sensing, withSensing) = Self.stopped(stillSensing: true)
        #expect(sensing.isStationary)
        #expect(
            withSensing.locationRequests.last
                == LocationRequest(
                    standard: StandardUpdates(accuracy: .threeKilometers, distanceFilter: 100), significantChange: true, visits: true,
                    motionActivity: true))
        let (plain, without) = Self.stopped(stillSensing: false)
        #expect(plain.isStationary)
        #expect(
            without.locationRequests.last == LocationRequest(standard: nil, significantChange: true, visits: true, motionActivity: true),
            "a suspended app reads the motion history when it next wakes")
    }

    @Test(
        "a confident walking report sets the device moving, and the stay lasts until the walk began, with still sensing (live) or without (read at a wake)",
        arguments: [true, false])
    func walkSetsMoving(stillSensing: Bool) {
        var (tracker, _) = Self.stopped(stillSensing: stillSensing)
        let walk = tracker.handle(.activity(Self.report(.walking, .high, since: 400)), now: time(430))
        #expect(!tracker.isStationary)
        #expect(walk.locationRequests.last?.standard?.accuracy == .hundredMeters)
        #expect(walk.locationRequests.last?.motionActivity == true)
        let away = tracker.feed(fix(east(of: home, 300), acc: 40, t: 500, source: .wifi))
        #expect(away.records.count == 1)
        #expect(away.dwellExtensions.last?.lastSeen == time(400), "the walk began at 400 s; the OS noticed nothing")
    }

    @Test("the walk's start ends the stay, though a visit's departure dates it later; a fix back at the place forgets it")
    func walkStartWins() throws {
        var (tracker, _) = Self.stopped(stillSensing: false)
        _ = tracker.handle(.activity(Self.report(.walking, .high, since: 400)), now: time(430))
        let departure = Visit(fix: fix(home, acc: 60, t: 600, source: .wifi), arrival: time(1), departure: time(520))
        #expect(tracker.handle(.visit(departure), now: time(600)).dwellExtensions.last?.lastSeen == time(400))

        var (back, _) = Self.stopped(stillSensing: false)
        _ = back.handle(.activity(Self.report(.walking, .high, since: 400)), now: time(430))
        _ = back.feed(fix(east(of: home, 2), acc: 5, t: 460, speed: 0))
        let later = Visit(fix: fix(home, acc: 60, t: 600, source: .wifi), arrival: time(1), departure: time(520))
        #expect(
            back.handle(.visit(later), now: time(600)).dwellExtensions.last?.lastSeen == time(520),
            "a walk about the place: the visit's departure stands")
    }

    @Test(
        "a relaunched tracker (its stay restored, not its stillness): a sure move begun after the stay's last moment there ends the stay then; one begun before it does not"
    )
    func restoredStay() {
        func relaunched() -> Tracker {
            var (tracker, _) = startedTracker(.adaptive(Self.policy(stillSensing: false)))
            let record = LocationRecord(fix: fix(home, acc: 40, t: 1, speed: 0, source: .wifi), trigger: .policy, dwell: 499)
            tracker.restore(lastRecord: record, regionStates: [])
            return tracker
        }
        var after = relaunched()
        #expect(!after.isStationary)
        _ = after.handle(.activity(Self.report(.walking, .high, since: 700)), now: time(900))
        _ = after.handle(.activity(Self.report(.automotive, .high, since: 760)), now: time(900))
        let far = after.feed(fix(east(of: home, 2_000), acc: 40, t: 1_000, source: .wifi))
        #expect(
            far.dwellExtensions.last?.lastSeen == time(700), "the walk began at 700 s, after the stay's 500 s; the drive does not move it")

        var before = relaunched()
        _ = before.handle(.activity(Self.report(.walking, .high, since: 300)), now: time(900))
        let estimate = before.feed(fix(east(of: home, 2_000), acc: 40, t: 1_000, source: .wifi))
        #expect(
            estimate.dwellExtensions.isEmpty,
            "a move begun before the stay's last moment there says nothing of when it ended: the stay keeps ending at 500 s")
    }

    @Test("an unsure walking report, or a report of stillness, leaves the device still", arguments: [true, false])
    func othersKeepStill(stillSensing: Bool) {
        for report in [Self.report(.walking, .low, since: 400), Self.report(.stationary, .high, since: 400)] {
            var (tracker, _) = Self.stopped(stillSensing: stillSensing)
            let effects = tracker.handle(.activity(report), now: time(430))
            #expect(tracker.isStationary, "\(report.kind), \(report.confidence)")
            #expect(effects.locationRequests.isEmpty)
        }
    }

    @Test("a policy saved before still sensing existed decodes without it, and the field round-trips")
    func decoding() throws {
        var saved = try JSONSerialization.jsonObject(with: JSONEncoder().encode(MotionPolicy.adaptive)) as! [String: Any]
        saved.removeValue(forKey: "stillSensing")
        let old = try JSONDecoder().decode(MotionPolicy.self, from: JSONSerialization.data(withJSONObject: saved))
        #expect(old == MotionPolicy.adaptive)
        let responsive = try JSONDecoder().decode(MotionPolicy.self, from: JSONEncoder().encode(MotionPolicy.responsive))
        #expect(responsive.stillSensing == MotionPolicy.responsive.stillSensing)
    }
}
