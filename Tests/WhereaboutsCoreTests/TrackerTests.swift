import Foundation
import Testing
import WhereaboutsCore

@Suite("Tracker commands, modes and merging")
struct TrackerTests {
    typealias F = TestFixtures

    private func started(_ mode: TrackingMode, regions: [Region] = []) -> (Tracker, [TrackerEffect]) {
        var tracker = Tracker(configuration: TrackerConfiguration(mode: mode), regions: regions)
        let effects = tracker.handle(.command(.start), now: F.date(0))
        return (tracker, effects)
    }

    @Test("start configures the location service for each mode")
    func startConfigurations() {
        let gps = StandardUpdates(accuracy: .best, distanceFilter: nil)
        let cases: [(TrackingMode, LocationRequest, Bool)] = [
            (.manual, .off, true),
            (.significant, LocationRequest(standard: nil, significantChange: true), true),
            (.move(), LocationRequest(standard: gps, significantChange: false), false),
            (
                .interval(interval: 60, displacement: 500),
                LocationRequest(standard: StandardUpdates(accuracy: .tenMeters, distanceFilter: nil), significantChange: false), false
            ),
            (
                .continuous(accuracy: .best, distanceFilter: 10),
                LocationRequest(standard: StandardUpdates(accuracy: .best, distanceFilter: 10), significantChange: false), false
            ),
            (
                .adaptive(),
                LocationRequest(
                    standard: StandardUpdates(accuracy: .hundredMeters, distanceFilter: 20), significantChange: false, visits: true,
                    motionActivity: true), false
            ),
        ]
        for (mode, request, oneShot) in cases {
            let (_, effects) = started(mode)
            #expect(effects.locationRequests == [request], "\(mode.name)")
            #expect(!effects.oneShots.isEmpty == oneShot, "\(mode.name)")
        }
    }

    @Test("fixes before start are ignored; stop turns everything off")
    func startStop() {
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .continuous()))
        #expect(tracker.handle(.fix(F.fix(east: 0, at: 0)), now: F.date(0)).isEmpty)
        _ = tracker.handle(.command(.start), now: F.date(1))
        let effects = tracker.handle(.command(.stop), now: F.date(2))
        #expect(effects.locationRequests == [.off])
        #expect(effects.monitors == [[]])
        #expect(tracker.timers.isEmpty)
        #expect(!tracker.isRunning)
    }

    @Test("requestFix records the next fix with trigger request, even in manual mode")
    func requestFix() {
        var (tracker, _) = started(.manual)
        let ask = tracker.handle(.command(.requestFix), now: F.date(1))
        #expect(!ask.oneShots.isEmpty)
        let effects = tracker.handle(.fix(F.fix(east: 0, at: 2)), now: F.date(2))
        #expect(effects.recordTriggers == [.request])
        #expect(tracker.handle(.fix(F.fix(east: 500, at: 10)), now: F.date(10)).records.isEmpty)
    }

    @Test("active tracking runs continuous best and reverts at its end")
    func activeTracking() {
        var (tracker, _) = started(.significant)
        let effects = tracker.handle(.command(.startActiveTracking(duration: 600)), now: F.date(10))
        #expect(tracker.timers[.activeTrackingEnd] == F.date(610))
        #expect(effects.locationRequests.last?.standard?.accuracy == .best)
        _ = tracker.handle(.command(.startActiveTracking(duration: 900)), now: F.date(20))
        #expect(tracker.timers[.activeTrackingEnd] == F.date(920))
        _ = tracker.handle(.command(.setMode(.manual)), now: F.date(30))
        #expect(tracker.mode == .continuous(accuracy: .best, distanceFilter: nil))
        #expect(tracker.handle(.wake, now: F.date(610)).locationRequests.isEmpty)
        let end = tracker.handle(.wake, now: F.date(920))
        #expect(end.locationRequests == [.off])
        #expect(tracker.mode == .manual)
    }

    @Test("a fix within the merge radius continues the last record's stay, written when the device leaves")
    func merging() {
        var (tracker, _) = started(.continuous())
        #expect(tracker.handle(.fix(F.fix(east: 0, at: 1)), now: F.date(1)).records.count == 1)
        let merged = tracker.handle(.fix(F.fix(east: 10, at: 61)), now: F.date(61))
        #expect(merged.records.isEmpty)
        let left = tracker.handle(.fix(F.fix(east: 200, at: 80)), now: F.date(80))
        #expect(left.records.count == 1)
        #expect(left.contains(.extendDwell(dwell: 60, lastSeen: F.date(61))))
    }

    @Test("slots: planned after the first fix, within K, re-planned on leaving the refresh region")
    func slots() {
        let regions = (0..<50).map { F.region("r\($0)", at: F.point(Double($0) * 300 + 400, bearing: Double($0 * 37 % 360)), radius: 100) }
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .continuous(), slotCount: 20), regions: regions)
        _ = tracker.handle(.command(.start), now: F.date(0))
        let first = tracker.handle(.fix(F.fix(east: 0, at: 1)), now: F.date(1)).monitors
        #expect(first.count == 1 && first[0].count == 20)
        #expect(first[0].last?.id == MonitoredRegion.refreshRegionID)
        let radius = tracker.slotPlan!.refresh.radius
        #expect(tracker.handle(.fix(F.fix(east: radius / 2, at: 100)), now: F.date(100)).monitors.isEmpty)
        #expect(tracker.handle(.fix(F.fix(east: radius + 30, at: 200)), now: F.date(200)).monitors.count == 1)
    }

    @Test("an OS crossing emits the event and flushes; leaving the refresh region asks for a position")
    func crossings() {
        var (tracker, _) = started(.manual, regions: [F.region("a", at: F.point(2000), radius: 300)])
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 50, at: 1)), now: F.date(1))
        let crossing = tracker.handle(.regionCrossing(id: "a", state: .inside), now: F.date(1000))
        #expect(crossing.events.map(\.kind) == [.enter])
        #expect(crossing.flushes == [.regionEvent])
        #expect(!crossing.oneShots.isEmpty)
        let refresh = tracker.handle(.regionCrossing(id: MonitoredRegion.refreshRegionID, state: .outside), now: F.date(2000))
        #expect(!refresh.oneShots.isEmpty)
        #expect(refresh.events.isEmpty)
    }

    @Test("uploads flush at the threshold and are coalesced within the interval")
    func uploads() {
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .continuous(), uploadThreshold: 3, minimumFlushInterval: 600))
        _ = tracker.handle(.command(.start), now: F.date(0))
        var flushes: [FlushReason] = []
        for i in 1...9 { flushes += tracker.handle(.fix(F.fix(east: Double(i) * 50, at: Double(i))), now: F.date(Double(i))).flushes }
        #expect(flushes == [.threshold])
        #expect(tracker.handle(.fix(F.fix(east: 2000, at: 700)), now: F.date(700)).flushes == [.threshold])
        #expect(tracker.handle(.lifecycle(.foreground), now: F.date(701)).flushes == [.foreground])
    }

    @Test("a coalesced upload is a deadline: it starts when its interval ends, with nothing else coming in")
    func coalescedUploadIsADeadline() {
        var tracker = Tracker(
            configuration: TrackerConfiguration(mode: .manual, minimumFlushInterval: 600),
            regions: [F.region("a", at: F.point(2000), radius: 300)])
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 50, at: 1)), now: F.date(1))
        #expect(tracker.handle(.lifecycle(.foreground), now: F.date(500)).flushes == [.foreground])
        let crossing = tracker.handle(.regionCrossing(id: "a", state: .inside), now: F.date(1000))
        #expect(crossing.events.map(\.kind) == [.enter])
        #expect(crossing.flushes.isEmpty, "within 600 s of the last upload: coalesced")
        #expect(tracker.nextDeadline == F.date(1100))
        #expect(tracker.handle(.wake, now: F.date(1100)).flushes == [.regionEvent])
        #expect(tracker.timers[.flush] == nil)
    }
}

@Suite("Tracker lifecycle")
struct TrackerLifecycleTests {
    typealias F = TestFixtures

    @Test("a relaunch by the OS restarts the location service, re-monitors the slots and asks for a fix")
    func relaunch() {
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .significant), regions: [F.region("a", at: F.point(3000))])
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.fix(F.fix(east: 0, accuracy: 50, at: 1)), now: F.date(1))
        let effects = tracker.handle(.lifecycle(.launchedByOS), now: F.date(100))
        #expect(effects.locationRequests == [LocationRequest(standard: nil, significantChange: true)])
        #expect(effects.monitors.count == 1)
        #expect(!effects.oneShots.isEmpty)
        var stopped = Tracker(configuration: TrackerConfiguration(mode: .significant))
        #expect(stopped.handle(.lifecycle(.launchedByOS), now: F.date(0)).isEmpty)
    }

    @Test("a dwell timer is scheduled on entering and the dwell is emitted when it fires")
    func dwellTimer() {
        var tracker = Tracker(
            configuration: TrackerConfiguration(mode: .continuous()), regions: [F.region("a", radius: 200, loitering: 120)])
        _ = tracker.handle(.command(.start), now: F.date(0))
        _ = tracker.handle(.fix(F.fix(east: 1000, at: 1)), now: F.date(1))
        _ = tracker.handle(.fix(F.fix(east: 0, at: 50)), now: F.date(50))
        #expect(tracker.timers[.dwell] == F.date(170))
        let fired = tracker.handle(.wake, now: F.date(400))
        #expect(fired.events.map(\.kind) == [.dwell])
        #expect(fired.events.first?.timestamp == F.date(170))
    }
}
