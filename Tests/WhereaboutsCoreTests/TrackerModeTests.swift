import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("Tracker: starting, stopping and recording in each mode")
struct TrackerModeTests {
    struct StartCase: Sendable, CustomTestStringConvertible {
        let mode: TrackingMode
        let request: LocationRequest
        let oneShot: Bool
        var testDescription: String { mode.name }
    }

    @Test(arguments: [
        StartCase(mode: .manual, request: .off, oneShot: true),
        StartCase(mode: .significant, request: significantOnly, oneShot: true),
        StartCase(mode: .move(), request: standard(.best), oneShot: false),
        StartCase(mode: .interval(interval: 60, displacement: 50), request: standard(.tenMeters), oneShot: false),
        StartCase(mode: .continuous(), request: standard(.best), oneShot: false),
        StartCase(
            mode: .continuous(accuracy: .hundredMeters, distanceFilter: 25), request: standard(.hundredMeters, filter: 25),
            oneShot: false),
        StartCase(
            mode: .adaptive(),
            request: LocationRequest(
                standard: StandardUpdates(accuracy: .hundredMeters, distanceFilter: 20), significantChange: false, visits: true,
                motionActivity: true),
            oneShot: false),
        StartCase(mode: .adaptive(.stopDetect), request: standard(.best, filter: 10), oneShot: false),
    ])
    func startConfiguresLocationForTheMode(_ c: StartCase) {
        let (tracker, effects) = startedTracker(c.mode)
        let expected: [TrackerEffect] = [.configureLocation(c.request)] + (c.oneShot ? [.requestOneShot(.best)] : [])
        #expect(effects == expected)
        #expect(tracker.isRunning)
    }

    @Test func modeNames() {
        #expect(TrackingMode.manual.name == "manual")
        #expect(TrackingMode.move().name == "move")
        #expect(TrackingMode.adaptive().name == "adaptive")
        #expect(TrackingMode.adaptive(.stopDetect).name == "stop-detect")
    }

    @Test func oneShotUsesTheConfiguredAccuracy() {
        let (_, effects) = startedTracker(.significant) { $0.oneShotAccuracy = .hundredMeters }
        #expect(effects.oneShots == [.hundredMeters])
    }

    @Test func startingTwiceDoesNothing() {
        var (tracker, _) = startedTracker(.move())
        #expect(tracker.send(.start, at: 1).isEmpty)
    }

    @Test func stopTurnsEverythingOff() {
        var (tracker, _) = startedTracker(.adaptive(), regions: [region("home", home, radius: 100, loiteringDelay: 600)])
        _ = tracker.feed(fix(home, acc: 40, t: 5))
        _ = tracker.send(.startActiveTracking(duration: 600), at: 10)
        let effects = tracker.send(.stop, at: 20)
        #expect(effects.first == .configureLocation(.off))
        #expect(effects.monitors == [[]])
        #expect(tracker.timers.isEmpty)
        #expect(effects.flushes == [.stopped])
        #expect(effects.records.isEmpty && effects.events.isEmpty)
        #expect(!tracker.isRunning)
        #expect(tracker.slotPlan == nil)
        #expect(tracker.mode == .adaptive(), "the mode before the session is restored")
        // Nothing happens while stopped.
        #expect(tracker.feed(fix(point(home, metres: 500), t: 30)).isEmpty)
        #expect(tracker.wake(at: 700).isEmpty)
        #expect(tracker.cross(MonitoredRegion.refreshRegionID, .outside, at: 701).isEmpty)
        #expect(tracker.send(.stop, at: 702).isEmpty)
    }

    @Test func aFixBeforeStartIsIgnored() {
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .continuous()), regions: [region("h", home, radius: 100)])
        #expect(tracker.feed(fix(home, t: 0)).isEmpty)
        #expect(tracker.lastFix == nil)
        #expect(tracker.statistics.accepted == 0)
        #expect(tracker.geofences.state(of: "h") == nil)
    }

    @Test func startAfterStopConfiguresAgain() {
        var (tracker, _) = startedTracker(.move())
        _ = tracker.send(.stop, at: 10)
        #expect(tracker.send(.start, at: 20) == [.configureLocation(standard(.best))])
    }

    @Test func manualRecordsOnlyRequestedFixes() {
        var (tracker, _) = startedTracker(.manual)
        #expect(tracker.feed(fix(home, t: 1)).records.isEmpty)
        #expect(tracker.send(.requestFix, at: 10) == [.requestOneShot(.best)])
        let requested = tracker.feed(fix(point(home, metres: 300), t: 12))
        #expect(requested.records == [.record(fix(point(home, metres: 300), t: 12), trigger: .request)])
        #expect(tracker.feed(fix(point(home, metres: 900), t: 40)).records.isEmpty, "only the next fix")
    }

    @Test func requestFixIsKeptUntilAFixIsAccepted() {
        var (tracker, _) = startedTracker(.manual)
        _ = tracker.feed(fix(home, t: 10))
        _ = tracker.send(.requestFix, at: 20)
        #expect(tracker.handle(.fix(fix(point(home, metres: 300), t: 5)), now: time(21)).records.isEmpty, "stale, dropped")
        #expect(tracker.statistics.rejected[.stale] == 1)
        #expect(tracker.feed(fix(point(home, metres: 300), t: 25)).recordTriggers == [.request])
    }

    @Test func requestFixWhileStoppedRecordsWithoutJudgingRegions() {
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .move()), regions: [region("h", home, radius: 100)])
        #expect(tracker.send(.requestFix, at: 0) == [.requestOneShot(.best)])
        let effects = tracker.feed(fix(home, t: 3))
        #expect(effects == [.record(fix(home, t: 3), trigger: .request)])
        #expect(tracker.geofences.state(of: "h") == nil)
    }

    @Test func significantRecordsFirstFixThenEvery500MetresAnd5Minutes() {
        var (tracker, _) = startedTracker(.significant)
        #expect(tracker.feed(fix(home, acc: 100, t: 10)).recordTriggers == [.policy])
        #expect(tracker.feed(fix(point(home, metres: 600), acc: 100, t: 200)).records.isEmpty, "too soon")
        #expect(tracker.feed(fix(point(home, metres: 300), acc: 100, t: 400)).records.isEmpty, "too near")
        #expect(tracker.feed(fix(point(home, metres: 1_200), acc: 100, t: 700)).records.count == 1)
    }

    @Test func moveRecordsEvery100MetresOr300Seconds() {
        var (tracker, _) = startedTracker(.move())
        var recordedAt: [TimeInterval] = []
        // 6 m/s east for 100 s, then standing still for 700 s; a fix every 10 s.
        var t = 0.0
        while t <= 800 {
            let x = min(t, 100) * 6
            let effects = tracker.feed(fix(east(of: home, x), acc: 5, t: t))
            if !effects.records.isEmpty { recordedAt.append(t) }
            t += 10
        }
        // Every 120 m while moving (the first fix past 100 m); standing still, the time-triggered
        // records are merged into the last one (the device has not moved), so no new row appears and
        // its stay, written when tracking stops, lasts the 700 s.
        #expect(recordedAt == [0, 20, 40, 60, 80, 100])
        #expect(tracker.send(.stop, at: 800).dwellExtensions.map(\.dwell) == [700])
    }

    @Test func intervalNeedsBothTimeAndDisplacement() {
        var (tracker, _) = startedTracker(.interval(interval: 60, displacement: 50))
        #expect(tracker.feed(fix(home, t: 0)).records.count == 1)
        #expect(tracker.feed(fix(point(home, metres: 500), t: 30)).records.isEmpty)
        #expect(tracker.feed(fix(point(home, metres: 520), t: 90)).records.count == 1)
        #expect(tracker.feed(fix(point(home, metres: 540), t: 200)).records.isEmpty)
    }

    @Test func tooCoarseFixesAreNotRecordedButStillJudgeRegions() {
        var (tracker, _) = startedTracker(.continuous(), regions: [region("h", home, radius: 100)])
        _ = tracker.feed(fix(home, acc: 5, t: 0))
        let effects = tracker.feed(fix(point(home, metres: 5_000), acc: 500, t: 100))
        #expect(effects.records.isEmpty && effects.dwellExtensions.isEmpty)
        #expect(tracker.statistics.tooCoarseToRecord == 1)
        #expect(tracker.statistics.accepted == 2)
        #expect(effects.events.map(\.kind) == [.exit], "two accuracies beyond the band: decisive alone")
        #expect(tracker.geofences.state(of: "h") == .outside)
    }

    @Test func rejectedFixesAreCountedByReason() {
        var (tracker, _) = startedTracker(.continuous())
        _ = tracker.feed(fix(home, t: 100))
        _ = tracker.feed(fix(home, t: 100))
        _ = tracker.feed(fix(point(home, metres: 10_000), t: 101))
        _ = tracker.handle(.fix(fix(home, t: 500)), now: time(200))
        #expect(tracker.statistics.rejected == [.stale: 1, .impossibleSpeed: 1, .fromTheFuture: 1])
        #expect(tracker.statistics.accepted == 1)
        #expect(tracker.lastFix == fix(home, t: 100))
    }

    // MARK: Stop forgets region states

    /// A restart hours later must not fire the dwell of a region entered before the stop.
    @Test func restartingDoesNotFireADwellThatFellDueWhileStopped() {
        var (tracker, _) = startedTracker(.move(), regions: [region("desk", home, radius: 100, loiteringDelay: 600)])
        _ = tracker.feed(fix(home, t: 0))
        #expect(tracker.timers[.dwell] == time(600))
        _ = tracker.send(.stop, at: 100)
        let restart = tracker.send(.start, at: 10_000)
        #expect(restart.events.isEmpty, "got \(restart.events.map { "\($0.kind) at \($0.timestamp)" })")
    }

    /// Bug: a fix asked for at the last record's place merged into it and wrote nothing, so the
    /// location button (OwnTracks' manual mode), a server's reportLocation and a background refresh
    /// published nothing while the device stayed.
    @Test func aRequestedFixAtTheSamePlaceWritesTheStay() {
        var (tracker, _) = startedTracker(.manual)
        _ = tracker.send(.requestFix, at: 10)
        #expect(tracker.feed(fix(home, t: 12)).records.count == 1)
        _ = tracker.send(.requestFix, at: 3600)
        let second = tracker.feed(fix(home, t: 3602))
        #expect(second.records.isEmpty)
        #expect(second.contains(.extendDwell(dwell: 3590, lastSeen: time(3602))), "\(second)")
    }

    /// Bug: a cell fix too coarse to record used up a pending request, so the fine fix after it fell
    /// under the mode's own rule and the request produced no record.
    @Test func aCoarseFixLeavesTheRequestForTheNextOne() {
        var (tracker, _) = startedTracker(.significant)
        #expect(tracker.feed(fix(home, t: 0)).records.count == 1)
        _ = tracker.send(.requestFix, at: 100)
        #expect(tracker.feed(fix(point(home, metres: 60), acc: 1000, t: 101)).records.isEmpty)
        let fine = tracker.feed(fix(point(home, metres: 60), acc: 5, t: 105))
        #expect(fine.contains(.record(fix(point(home, metres: 60), acc: 5, t: 105), trigger: .request)), "\(fine)")
    }

    /// Bug: a slot count of 0 was taken, then trapped at the first fix, and every relaunch after.
    @Test func noSlotsAtAllStillHandsTheRefreshRegion() {
        var (tracker, _) = startedTracker(.move(), regions: [region("desk", home, radius: 100)]) { $0.slotCount = 0 }
        let effects = tracker.feed(fix(home, t: 0))
        let handed = effects.compactMap { effect -> [MonitoredRegion]? in
            guard case .monitor(let regions) = effect else { return nil }
            return regions
        }.last
        #expect(handed?.map(\.id) == [MonitoredRegion.refreshRegionID])
    }

    /// Bug: a stop left the stay open, so the first fix at the same place after a restart a day
    /// later merged into the old record and wrote a dwell spanning the time tracking was off.
    @Test func aRestartAtTheSamePlaceStartsARecordNotADayLongStay() {
        var (tracker, _) = startedTracker(.continuous())
        _ = tracker.feed(fix(home, t: 0))
        _ = tracker.feed(fix(home, t: 60))
        _ = tracker.send(.stop, at: 100)
        _ = tracker.send(.start, at: 86_400)
        var effects = tracker.feed(fix(home, t: 86_401))
        effects += tracker.send(.stop, at: 86_500)
        let dwells = effects.compactMap { effect -> TimeInterval? in
            guard case .extendDwell(let dwell, _) = effect else { return nil }
            return dwell
        }
        #expect(dwells.allSatisfy { $0 < 200 }, "a dwell spans the stop: \(dwells)")
        #expect(effects.records.count == 1, "the fix after the restart starts a record of its own")
    }

    /// After a restart the first fix reports the states it finds as initial.
    @Test func theFirstFixAfterARestartReportsStatesAsInitial() {
        var (tracker, _) = startedTracker(.move(), regions: [region("desk", home, radius: 100)])
        _ = tracker.feed(fix(home, t: 0))
        _ = tracker.send(.stop, at: 100)
        _ = tracker.send(.start, at: 10_000)
        let effects = tracker.feed(fix(point(home, metres: 5_000), t: 10_001))
        #expect(effects.events.allSatisfy { $0.initial }, "got \(effects.events.map { "\($0.kind) initial \($0.initial)" })")
    }
}
