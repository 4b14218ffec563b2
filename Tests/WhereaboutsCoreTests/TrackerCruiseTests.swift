import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("Adaptive cruise: positioning as coarse as the regions within reach allow")
struct TrackerCruiseTests {
    typealias F = TestFixtures

    /// The adaptive policy with the parameters these tests reason about.
    static let policy: MotionPolicy = {
        var policy = MotionPolicy.adaptive
        policy.lead = 10
        policy.maximumCruise = 120
        policy.fineRadius = 120
        policy.watchDistance = 30
        return policy
    }()

    static func walking(at seconds: Double) -> MotionActivity {
        MotionActivity(kind: .walking, confidence: .high, start: F.date(seconds))
    }

    static func started(regions: [Region]) -> Tracker {
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(policy)), regions: regions)
        _ = tracker.handle(.command(.start), now: F.date(0))
        return tracker
    }

    @Test("every boundary out of reach: cell positions until a walker could reach the nearest, then one Wi-Fi fix")
    func cruisesUntilReach() {
        var tracker = Self.started(regions: [F.region("far", at: F.point(2000), radius: 100)])
        _ = tracker.handle(.activity(Self.walking(at: 0)), now: F.date(1))
        let effects = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
        #expect(effects.locationRequests.last?.standard?.accuracy == .kilometer)
        #expect(effects.locationRequests.last?.motionActivity == true)
        // 1900 m to the boundary, less 40 m accuracy and 10 s at 2.5 m/s: 1835 m at 2.5 m/s, capped at 120 s.
        #expect(tracker.timers[.clearance] == F.date(2 + 120))
        #expect(tracker.timers[.stationaryCheck] == nil)
        let due = tracker.handle(.wake, now: F.date(122))
        #expect(!due.oneShots.isEmpty)
    }

    @Test("a cruise whose fine fix never comes fine ends after a minute: the moving positions take over, not cell fixes for ever")
    func cruiseEndsWithoutAFineAnswer() {
        var tracker = Self.started(regions: [F.region("far", at: F.point(2000), radius: 100)])
        _ = tracker.handle(.activity(Self.walking(at: 0)), now: F.date(1))
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
        #expect(!tracker.handle(.wake, now: F.date(122)).oneShots.isEmpty)
        _ = tracker.handle(.fix(F.fix(east: 150, accuracy: 500, at: 125)), now: F.date(125))
        #expect(tracker.nextDeadline == F.date(182), "the answer is a cell fix: the cruise waits a minute more")
        let ended = tracker.handle(.wake, now: F.date(182))
        #expect(ended.locationRequests.last?.standard?.accuracy == .hundredMeters, "\(ended)")
        #expect(tracker.timers[.clearance] == nil)
    }

    /// Bug: with no motion report ever (motion denied, no coprocessor, gpsd) each fine fix started
    /// a cruise, which dropped the stop anchor: a still device far from every region never went
    /// stationary and took a Wi-Fi fix every few minutes all night.
    @Test("with no motion report, a still device far from every region goes stationary and turns positioning off")
    func stillWithoutMotionReports() {
        var tracker = Self.started(regions: [F.region("far", at: F.point(3000), radius: 100)])
        var effects: [TrackerEffect] = []
        for second in stride(from: 2.0, through: 600, by: 10) {
            effects += tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: second)), now: F.date(second))
            effects += tracker.handle(.wake, now: F.date(second + 5))
        }
        #expect(tracker.timers[.clearance] == nil, "no cruise before a motion report")
        guard case .stationary = tracker.motion else {
            Issue.record("still moving: \(tracker.motion)")
            return
        }
        #expect(
            effects.locationRequests.last?.standard == nil,
            "positioning is off while still: \(effects.locationRequests.last.map { "\($0)" } ?? "")")
    }

    @Test("a cruise ends at the time a walker could have used up the room")
    func clearanceEnd() {
        var tracker = Self.started(regions: [F.region("near", at: F.point(300), radius: 100)])
        _ = tracker.handle(.activity(Self.walking(at: 0)), now: F.date(1))
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
        // 200 m to the boundary − 40 m − 25 m lead = 135 m at 2.5 m/s = 54 s.
        #expect(tracker.timers[.clearance] == F.date(2 + 54))
    }

    @Test("a boundary within reach: no cruise; Wi-Fi for a large region, GPS for one under the fine radius")
    func accuracyByRegionSize() {
        var large = Self.started(regions: [F.region("large", at: F.point(150), radius: 400)])
        _ = large.handle(.activity(Self.walking(at: 0)), now: F.date(1))
        let wide = large.handle(.fix(F.fix(east: -300, accuracy: 40, at: 2)), now: F.date(2))
        #expect(wide.locationRequests.last?.standard?.accuracy ?? .hundredMeters == .hundredMeters)
        #expect(large.timers[.clearance] == nil)

        var small = Self.started(regions: [F.region("small", at: F.point(100), radius: 40)])
        _ = small.handle(.activity(Self.walking(at: 0)), now: F.date(1))
        let fine = small.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
        #expect(fine.locationRequests.last?.standard?.accuracy == .best)
    }

    @Test(
        "a circle the OS monitors is left to it from the trusted radius up: it ends no cruise; a smaller one does",
        arguments: [(200.0, true), (149, false)])
    func osSettledRegion(radius: Double, cruises: Bool) {
        var policy = Self.policy
        policy.osTrustRadius = 150
        let regions = [F.region("near", at: F.point(50 + radius), radius: radius), F.region("far", at: F.point(2000), radius: 100)]
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(policy)), regions: regions)
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.activity(Self.walking(at: 0)), now: F.date(1))
        // The first fix plans the slots after it plans its positioning; the second finds them.
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 3)), now: F.date(3))
        #expect((tracker.timers[.clearance] != nil) == cruises, "radius \(radius) m, 50 m away")
    }

    @Test("a large circle the OS said it could not monitor is judged on fixes until the slots are handed again")
    func monitoringFailureEndsTrust() {
        var policy = Self.policy
        policy.osTrustRadius = 150
        let regions = [F.region("near", at: F.point(250), radius: 200), F.region("far", at: F.point(2000), radius: 100)]
        for failed in ["near", nil] as [String?] {
            var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(policy)), regions: regions)
            _ = tracker.handle(.command(.start), now: F.date(0))
            _ = tracker.handle(.activity(Self.walking(at: 0)), now: F.date(1))
            _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
            tracker.monitoringFailed(for: failed)
            _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 3)), now: F.date(3))
            #expect(tracker.timers[.clearance] == nil, "monitoring failed for \(failed ?? "an unnamed region")")
        }
    }

    @Test(
        "a large circle the OS is not handed (its slots are full) ends a cruise as any boundary does, while a region the OS would not settle keeps the app awake"
    )
    func unhandedRegionIsJudged() {
        var policy = Self.policy
        policy.osTrustRadius = 150
        let regions =
            [40.0, 45, 50].enumerated().map { index, gap in
                F.region("r\(index)", at: F.point(200 + gap, bearing: Double(index) * 120), radius: 200)
            } + [F.region("small", at: F.point(650, bearing: 60), radius: 50)]
        for (slots, cruises) in [(20, true), (3, false)] {
            var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(policy), slotCount: slots), regions: regions)
            _ = tracker.handle(.command(.start), now: F.date(0))
            _ = tracker.handle(.activity(Self.walking(at: 0)), now: F.date(1))
            _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 10, at: 2)), now: F.date(2))
            _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 10, at: 3)), now: F.date(3))
            #expect(tracker.slotPlan?.regions.count == min(slots, 5))
            #expect((tracker.timers[.clearance] != nil) == cruises, "\(slots) slots")
            #expect(tracker.appliedRequest?.significantChange == false, "the app stays awake")
        }
    }

    @Test("a report of stillness ends the cruise, so fine fixes can judge the stop")
    func stillnessEndsCruise() {
        var tracker = Self.started(regions: [F.region("far", at: F.point(3000), radius: 100)])
        _ = tracker.handle(.activity(Self.walking(at: 0)), now: F.date(1))
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
        let still = tracker.handle(.activity(MotionActivity(kind: .stationary, confidence: .high, start: F.date(20))), now: F.date(40))
        #expect(still.locationRequests.last?.standard?.accuracy == .hundredMeters)
        #expect(tracker.timers[.clearance] == nil)
    }

    @Test("a faster activity spends the room left at its top speed")
    func fasterActivity() {
        var tracker = Self.started(regions: [F.region("far", at: F.point(1000), radius: 100)])
        _ = tracker.handle(.activity(Self.walking(at: 0)), now: F.date(1))
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
        #expect(tracker.timers[.clearance] == F.date(2 + 120))
        // At 12 s, 835 m − 25 m walked are left; at 8 m/s that lasts 101.25 s.
        _ = tracker.handle(.activity(MotionActivity(kind: .cycling, confidence: .high, start: F.date(5))), now: F.date(12))
        #expect(tracker.timers[.clearance] == F.date(12 + 101.25))
    }

    @Test("a faster activity never pushes the cruise's end past the longest cruise already set")
    func fasterActivityKeepsTheCap() {
        var tracker = Self.started(regions: [F.region("far", at: F.point(3000), radius: 100)])
        _ = tracker.handle(.activity(Self.walking(at: 0)), now: F.date(1))
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
        _ = tracker.handle(.activity(MotionActivity(kind: .cycling, confidence: .high, start: F.date(5))), now: F.date(12))
        #expect(tracker.timers[.clearance] == F.date(2 + 120))
    }

    @Test("an OS crossing while cruising brings finer positioning back")
    func crossingEndsCruise() {
        var tracker = Self.started(regions: [F.region("far", at: F.point(2000), radius: 100)])
        _ = tracker.handle(.activity(Self.walking(at: 0)), now: F.date(1))
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
        let crossing = tracker.handle(.regionCrossing(id: "far", state: .inside), now: F.date(60))
        #expect(crossing.locationRequests.last?.standard?.accuracy == .hundredMeters)
    }

    @Test("still within the watch distance of a boundary: positioning stays on; farther: it goes off")
    func watchNearBoundary() {
        var near = Self.started(regions: [F.region("r", at: F.point(220), radius: 200)])
        _ = near.handle(.activity(MotionActivity(kind: .stationary, confidence: .high, start: F.date(0))), now: F.date(1))
        _ = near.handle(.fix(F.fix(east: 0, accuracy: 10, at: 2)), now: F.date(2))
        _ = near.handle(.wake, now: F.date(2 + Self.policy.stopTimeout))
        guard case .moving = near.motion else {
            Issue.record("20 m from a boundary the device should keep watching, got \(near.motion)")
            return
        }
        var far = Self.started(regions: [F.region("r", at: F.point(2000), radius: 200)])
        _ = far.handle(.activity(MotionActivity(kind: .stationary, confidence: .high, start: F.date(0))), now: F.date(1))
        _ = far.handle(.fix(F.fix(east: 0, accuracy: 10, at: 2)), now: F.date(2))
        let off = far.handle(.wake, now: F.date(2 + Self.policy.stopTimeout))
        #expect(off.locationRequests.last?.standard == nil)
    }

    @Test(
        "the presets watch as tuned: each within 30 m of a boundary",
        arguments: [
            (MotionPolicy.adaptive, 20.0, true), (MotionPolicy.adaptive, 40, false),
            (MotionPolicy.efficient, 20, true), (MotionPolicy.efficient, 40, false),
            (MotionPolicy.responsive, 20, true), (MotionPolicy.responsive, 40, false),
        ])
    func presetWatch(policy: MotionPolicy, distance: Double, watches: Bool) {
        let region = F.region("r", at: F.point(200 + distance), radius: 200)
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(policy)), regions: [region])
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.activity(MotionActivity(kind: .stationary, confidence: .high, start: F.date(0))), now: F.date(1))
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 10, at: 2)), now: F.date(2))
        let check = tracker.handle(.wake, now: F.date(2 + policy.stopTimeout))
        var watching = false
        if case .moving = tracker.motion { watching = true }
        #expect(watching == watches, "\(policy.name) \(distance) m from a boundary: \(tracker.motion)")
        #expect(
            watching
                || check.locationRequests.last?.standard
                    == (policy.stillSensing ? StandardUpdates(accuracy: .threeKilometers, distanceFilter: 100) : nil),
            "a device that stopped watching turns positioning off (cell positions only, with still sensing)")
    }

    @Test("a policy saved before cruising existed decodes as one that never cruises, places no stops, trusts no OS and asks as before")
    func oldPolicyDecodes() throws {
        let saved = """
            {"name":"adaptive","stopRadius":80,"stopTimeout":150,"stationaryRadius":150,"movingAccuracy":"hundredMeters",
             "nearBoundaryAccuracy":"best","raisedAccuracyHold":8,"distanceFilter":20,"elasticityMultiplier":2,
             "significantChangeWhileStationary":true}
            """
        let policy = try JSONDecoder().decode(MotionPolicy.self, from: Data(saved.utf8))
        #expect(
            policy.cruiseAccuracy == nil && policy.lead == 0 && policy.fineRadius == 0 && !policy.motionSensing && !policy.placesStops
                && policy.osTrustRadius == 0 && policy.undecidedDepth == 1 && policy.uploadInterval == 1800)
        let again = try JSONDecoder().decode(MotionPolicy.self, from: JSONEncoder().encode(MotionPolicy.adaptive))
        #expect(again == MotionPolicy.adaptive)
        for bad in ["1.5", "-0.5"] {
            let out = saved.replacingOccurrences(of: "}", with: ",\"undecidedDepth\":\(bad)}")
            #expect(throws: DecodingError.self, "undecidedDepth \(bad)") {
                try JSONDecoder().decode(MotionPolicy.self, from: Data(out.utf8))
            }
        }
        for bad in ["-60", "86401"] {
            let out = saved.replacingOccurrences(of: "}", with: ",\"uploadInterval\":\(bad)}")
            #expect(throws: DecodingError.self, "uploadInterval \(bad)") {
                try JSONDecoder().decode(MotionPolicy.self, from: Data(out.utf8))
            }
        }
    }

    @Test("efficient coalesces uploads to one an hour unless the configuration names an interval; the other modes every half hour")
    func uploadIntervalFollowsTheMode() throws {
        #expect(MotionPolicy.efficient.uploadInterval == 3600)
        #expect(TrackerConfiguration(mode: .adaptive(.efficient)).flushInterval == 3600)
        #expect(TrackerConfiguration(mode: .adaptive(.efficient), minimumFlushInterval: 600).flushInterval == 600)
        for mode in [TrackingMode.adaptive(.adaptive), .adaptive(.responsive), .continuous(), .significant, .manual] {
            #expect(TrackerConfiguration(mode: mode).flushInterval == 1800, "\(mode.name)")
        }
        typealias F = TestFixtures
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(.efficient), uploadThreshold: 1))
        _ = tracker.handle(.command(.start), now: F.date(0))
        #expect(tracker.handle(.fix(F.fix(east: 0, at: 10)), now: F.date(10)).flushes == [.threshold])
        #expect(tracker.handle(.fix(F.fix(east: 500, at: 1000)), now: F.date(1000)).flushes.isEmpty, "within the hour: coalesced")
        #expect(tracker.timers[.flush] == F.date(3610))
        // A mode changed at run time brings its own interval, and the coalesced upload's deadline with it.
        _ = tracker.handle(.command(.setMode(.adaptive(.adaptive))), now: F.date(1001))
        #expect(tracker.timers[.flush] == F.date(1810))
        #expect(tracker.handle(.wake, now: F.date(1810)).flushes.count == 1, "the upload deferred at 1000 s goes at 1810 s")
        #expect(tracker.timers[.flush] == nil)
        // A configuration saved before the interval followed the mode keeps the interval it names;
        // one without it takes the mode's.
        let encoded = try JSONEncoder().encode(TrackerConfiguration(mode: .adaptive(.efficient), minimumFlushInterval: 1800))
        var saved = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        func decoded() throws -> TrackerConfiguration {
            try JSONDecoder().decode(TrackerConfiguration.self, from: JSONSerialization.data(withJSONObject: saved))
        }
        #expect(try decoded().flushInterval == 1800)
        saved["minimumFlushInterval"] = nil
        #expect(try decoded().flushInterval == 3600)
    }

    /// Bug: a preset was saved by value, so after an app update that retuned it a relaunched app ran
    /// the old numbers under the preset's name (and lost any setting newer than the save).
    @Test("a preset is saved by name and restored as today's preset; a changed policy is saved by value")
    func presetsSavedByName() throws {
        for preset in MotionPolicy.presets {
            let data = try JSONEncoder().encode(TrackingMode.adaptive(preset))
            #expect(String(decoding: data, as: UTF8.self) == #"{"adaptive":{"_0":{"preset":"\#(preset.name)"}}}"#)
            #expect(try JSONDecoder().decode(TrackingMode.self, from: data) == .adaptive(preset))
        }
        var tuned = MotionPolicy.efficient
        tuned.stopTimeout = 45
        let data = try JSONEncoder().encode(tuned)
        #expect(!String(decoding: data, as: UTF8.self).contains("preset"))
        #expect(try JSONDecoder().decode(MotionPolicy.self, from: data) == tuned)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(MotionPolicy.self, from: Data(#"{"preset":"turbo"}"#.utf8)) }
    }

    @Test("the presets are modes by name; balanced is the default adaptive")
    func presetNames() throws {
        #expect(try TrackingMode.named("balanced") == .adaptive(.adaptive))
        #expect(try TrackingMode.named("efficient") == .adaptive(.efficient))
        #expect(try TrackingMode.named("responsive") == .adaptive(.responsive))
    }
}
