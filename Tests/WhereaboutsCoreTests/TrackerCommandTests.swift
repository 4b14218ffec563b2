import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("Tracker: commands, merging, slots, OS crossings and uploads")
struct TrackerCommandTests {
    // MARK: Active sessions and mode changes

    @Test func activeTrackingSwitchesToContinuousBestAndRevertsAtItsEnd() {
        var (tracker, _) = startedTracker(.significant)
        let effects = tracker.send(.startActiveTracking(duration: 600), at: 10)
        #expect(effects == [.configureLocation(standard(.best))])
        #expect(tracker.timers[.activeTrackingEnd] == time(610))
        #expect(tracker.mode == .continuous(accuracy: .best, distanceFilter: nil))
        #expect(tracker.wake(at: 610) == [.configureLocation(significantOnly)])
        #expect(tracker.mode == .significant)
    }

    @Test func startingASessionAgainExtendsIt() {
        var (tracker, _) = startedTracker(.significant)
        _ = tracker.send(.startActiveTracking(duration: 600), at: 10)
        #expect(tracker.send(.startActiveTracking(duration: 900), at: 100).isEmpty)
        #expect(tracker.timers[.activeTrackingEnd] == time(1_000))
        #expect(tracker.wake(at: 610).isEmpty, "the first end no longer ends the longer session")
        #expect(tracker.mode == .continuous())
        #expect(tracker.wake(at: 1_000) == [.configureLocation(significantOnly)])
        #expect(tracker.mode == .significant)
    }

    @Test func aShorterSecondSessionDoesNotShortenTheFirst() {
        var (tracker, _) = startedTracker(.manual)
        _ = tracker.send(.startActiveTracking(duration: 600), at: 10)
        #expect(tracker.send(.startActiveTracking(duration: 60), at: 100).isEmpty)
        #expect(tracker.timers[.activeTrackingEnd] == time(610))
        #expect(tracker.wake(at: 160).isEmpty)
        #expect(tracker.wake(at: 610) == [.configureLocation(.off)])
    }

    @Test func setModeDuringASessionChangesTheModeRestoredAfterwards() {
        var (tracker, _) = startedTracker(.significant)
        _ = tracker.send(.startActiveTracking(duration: 600), at: 10)
        #expect(tracker.send(.setMode(.interval(interval: 60, displacement: 50)), at: 20).isEmpty)
        #expect(tracker.mode == .continuous(), "the session goes on")
        #expect(tracker.wake(at: 610) == [.configureLocation(standard(.tenMeters))])
        #expect(tracker.mode == .interval(interval: 60, displacement: 50))
    }

    @Test func setModeWhileRunningReconfigures() {
        var (tracker, _) = startedTracker(.significant)
        #expect(tracker.send(.setMode(.move()), at: 5) == [.configureLocation(standard(.best))])
        #expect(tracker.send(.setMode(.continuous()), at: 6).isEmpty, "same request: nothing to change")
        #expect(tracker.mode == .continuous())
    }

    @Test func setModeWhileStoppedOnlyChangesTheMode() {
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .manual))
        #expect(tracker.send(.setMode(.move()), at: 0).isEmpty)
        #expect(tracker.send(.start, at: 1) == [.configureLocation(standard(.best))])
    }

    // MARK: Merging and uploads

    @Test func aStayLastsUntilAFixShowsTheDeviceLeft() {
        var (tracker, _) = startedTracker(.continuous())
        let a = fix(home, acc: 10, t: 0)
        #expect(tracker.feed(a).records == [.record(a, trigger: .policy)])
        // Merge radius 25 + ½(10 + 10) = 35 m: these fixes show the device still there, and write nothing.
        let b = tracker.feed(fix(point(home, metres: 20), acc: 10, t: 30))
        #expect(b.records.isEmpty && b.dwellExtensions.isEmpty)
        let c = tracker.feed(fix(point(home, metres: 34, bearing: 200), acc: 10, t: 90))
        #expect(c.records.isEmpty && c.dwellExtensions.isEmpty)
        // 300 m away 30 s later: the device left after the last fix that saw it there.
        let d = tracker.feed(fix(point(home, metres: 300), acc: 10, t: 120))
        #expect(d.records.count == 1)
        #expect(d.dwellExtensions.map(\.dwell) == [90], "dwell counts from the record to the last fix there")
        #expect(d.dwellExtensions.map(\.lastSeen) == [time(90)])
        let e = tracker.feed(fix(point(home, metres: 305), acc: 10, t: 150))
        #expect(e.dwellExtensions.isEmpty)
        #expect(tracker.send(.stop, at: 160).dwellExtensions.map(\.dwell) == [30], "stopping writes the stay seen so far")
    }

    @Test func aStaySeenOnlyByADistantFixEndsWhenTheDeviceMustHaveLeftAtWalkingPace() {
        var (tracker, _) = startedTracker(.significant)
        _ = tracker.feed(fix(home, acc: 150, t: 0, source: .significantChange))
        // 1 h later, 1 435 m away: beyond the merge radius (25 + 150 = 175 m) lie 1 260 m, 900 s of walking.
        let next = tracker.feed(fix(point(home, metres: 1_435), acc: 150, t: 3_600, source: .significantChange))
        #expect(next.records.count == 1)
        #expect(next.dwellExtensions.map(\.dwell) == [2_700])
    }

    @Test func aMovingFixEndsTheStayEvenWithinTheMergeRadius() {
        var (tracker, _) = startedTracker(.continuous())
        _ = tracker.feed(fix(home, acc: 5, t: 0, speed: 0))
        _ = tracker.feed(fix(point(home, metres: 2), acc: 5, t: 60, speed: 0))
        let walking = tracker.feed(fix(point(home, metres: 4), acc: 5, t: 61, speed: 1.4))
        #expect(walking.records.isEmpty)
        #expect(walking.dwellExtensions.map(\.dwell) == [61])
        #expect(tracker.send(.stop, at: 100).dwellExtensions.isEmpty, "the stay ended when the device walked off")
    }

    @Test func mergeRadiusGrowsWithAccuracy() {
        var (precise, _) = startedTracker(.continuous())
        _ = precise.feed(fix(home, acc: 5, t: 0))
        #expect(precise.feed(fix(point(home, metres: 32), acc: 5, t: 10)).records.count == 1, "32 m > 30 m")
        var (noisy, _) = startedTracker(.continuous())
        _ = noisy.feed(fix(home, acc: 20, t: 0))
        #expect(noisy.feed(fix(point(home, metres: 32), acc: 20, t: 10)).records.isEmpty, "32 m ≤ 45 m")
    }

    @Test func uploadsAreFlushedAtTheThreshold() {
        var (tracker, _) = startedTracker(.continuous()) {
            $0.uploadThreshold = 3
            $0.minimumFlushInterval = 0
        }
        var flushedAt: [Int] = []
        for i in 0..<7 {
            let effects = tracker.feed(fix(east(of: home, Double(i) * 100), acc: 5, t: Double(i) * 10))
            #expect(effects.records.count == 1)
            if effects.flushes == [.threshold] { flushedAt.append(i) }
        }
        #expect(flushedAt == [2, 5])
    }

    @Test func aRegionEventFlushRestartsTheThresholdCount() {
        var (tracker, _) = startedTracker(.continuous(), regions: [region("r", east(of: home, 250), radius: 100)]) {
            $0.uploadThreshold = 3
            $0.minimumFlushInterval = 0
        }
        _ = tracker.feed(fix(home, acc: 5, t: 0))
        _ = tracker.feed(fix(east(of: home, 100), acc: 5, t: 10))
        let enter = tracker.feed(fix(east(of: home, 250), acc: 5, t: 20))
        #expect(enter.flushes == [.regionEvent], "the region flush sends the pending records")
        #expect(tracker.feed(fix(east(of: home, 400), acc: 5, t: 30)).flushes == [.regionEvent], "exit")
        #expect(tracker.feed(fix(east(of: home, 500), acc: 5, t: 40)).flushes.isEmpty)
        #expect(tracker.feed(fix(east(of: home, 600), acc: 5, t: 50)).flushes == [.threshold])
    }

    @Test func foregroundFlushes() {
        var (tracker, _) = startedTracker(.move())
        #expect(tracker.handle(.lifecycle(.foreground), now: time(5)) == [.flushUploads(.foreground)])
        #expect(tracker.handle(.lifecycle(.background), now: time(6)).isEmpty)
    }

    // MARK: Slot plan

    private func scatteredRegions(_ count: Int, seed: UInt64) -> [Region] {
        var g = SeededGenerator(seed: seed)
        return (0..<count).map { i in
            region(
                String(format: "r%03d", i),
                point(home, metres: Double.random(in: 300...6_000, using: &g), bearing: Double.random(in: 0..<360, using: &g)),
                radius: Double.random(in: 50...300, using: &g))
        }
    }

    @Test(arguments: [20, 5])
    func firstFixHandsTheNearestRegionsAndTheRefreshRegionToTheOS(slotCount: Int) throws {
        let regions = scatteredRegions(60, seed: 11)
        var (tracker, _) = startedTracker(.move(), regions: regions) { $0.slotCount = slotCount }
        let effects = tracker.feed(fix(home, t: 1))
        let monitored = try #require(effects.monitors.first)
        #expect(effects.monitors.count == 1)
        #expect(monitored.count == slotCount)
        #expect(monitored.last?.id == MonitoredRegion.refreshRegionID)
        #expect(monitored.last?.center == home)
        let nearest = bruteForceNearest(regions, to: home, limit: slotCount)
        #expect(monitored.dropLast().map(\.id) == nearest.prefix(slotCount - 1).map(\.id))
        let reach = RegionCushion.iOS.leavingRadius(flippingAt: nearest[slotCount - 1].distance)
        #expect(abs(monitored.last!.radius - min(5_000, max(150, reach))) < 1e-9)
        #expect(tracker.slotPlan?.regions == monitored)
    }

    @Test func leavingTheRefreshRegionReplans() throws {
        var (tracker, _) = startedTracker(.move(), regions: scatteredRegions(60, seed: 12))
        let first = try #require(tracker.feed(fix(home, t: 1)).monitors.first)
        let radius = first.last!.radius
        #expect(tracker.feed(fix(point(home, metres: radius * 0.9), t: 200)).monitors.isEmpty)
        let moved = point(home, metres: radius + 50)
        let replanned = try #require(tracker.feed(fix(moved, t: 400)).monitors.first)
        #expect(replanned.last?.id == MonitoredRegion.refreshRegionID)
        #expect(replanned.last?.center == moved)
        #expect(tracker.slotPlan?.refresh.center == moved)
    }

    @Test func noRegionsStillMonitorsTheRefreshRegion() {
        var (tracker, _) = startedTracker(.significant)
        let effects = tracker.feed(fix(home, acc: 50, t: 1))
        #expect(effects.monitors == [[MonitoredRegion(id: MonitoredRegion.refreshRegionID, center: home, radius: 5_000)]])
    }

    @Test func addingAndRemovingRegionsReplansAndAsksForAPosition() throws {
        var (tracker, _) = startedTracker(.significant, regions: [region("a", point(home, metres: 1_000), radius: 100)])
        _ = tracker.feed(fix(home, acc: 50, t: 1))
        let added = tracker.send(.addRegions([region("b", point(home, metres: 500), radius: 100)]), at: 10)
        let afterAdd = try #require(added.monitors.first)
        #expect(afterAdd.map(\.id) == ["b", "a", MonitoredRegion.refreshRegionID])
        #expect(added.oneShots == [.best], "the new region's state needs a position")
        let removed = tracker.send(.removeRegions(["a"]), at: 20)
        #expect(removed.monitors.first?.map(\.id) == ["b", MonitoredRegion.refreshRegionID])
        #expect(removed.events.isEmpty)
    }

    // MARK: OS crossings

    @Test func anOSCrossingEmitsTheEventFlushesAndRecordsTheNextFix() {
        let shop = point(home, metres: 2_000)
        var (tracker, _) = startedTracker(.significant, regions: [region("shop", shop, radius: 150)])
        _ = tracker.feed(fix(home, acc: 50, t: 1))
        #expect(tracker.geofences.state(of: "shop") == .outside)
        let effects = tracker.cross("shop", .inside, at: 200)
        let event = RegionEvent(regionID: "shop", kind: .enter, timestamp: time(200), initial: false, fix: nil)
        let state = RegionStateRecord(regionID: "shop", inside: true, since: time(200), dwelt: false)
        let refit: [MonitoredRegion] = [
            MonitoredRegion(id: "shop", center: shop, radius: 150),
            MonitoredRegion(id: MonitoredRegion.refreshRegionID, center: home, radius: 5_000),
        ]
        #expect(
            effects == [.emit(event), .flushUploads(.regionEvent), .monitor(refit), .requestOneShot(.best), .saveRegionStates([state])],
            "inside now, the shop is handed as it is: the last position is too old to hand its leaving circle")
        #expect(tracker.cross("shop", .inside, at: 210).isEmpty, "deduplicated")
        // 230 s after the last record: the significant policy alone would not record it.
        let next = tracker.feed(fix(shop, acc: 10, t: 231))
        #expect(next.recordTriggers == [.region])
        #expect(next.events.isEmpty, "the fix agrees with the OS")
    }

    @Test func anOSCrossingWithStandardUpdatesOnAsksForNoOneShot() {
        var (tracker, _) = startedTracker(.move(), regions: [region("shop", point(home, metres: 2_000), radius: 150)])
        _ = tracker.feed(fix(home, t: 1))
        let effects = tracker.cross("shop", .inside, at: 200)
        #expect(effects.events.map(\.kind) == [.enter])
        #expect(effects.oneShots.isEmpty)
    }

    @Test func crossingsOfUnknownRegionsAreIgnored() {
        var (tracker, _) = startedTracker(.significant)
        #expect(tracker.cross("ghost", .inside, at: 5).isEmpty)
    }

    @Test func leavingTheRefreshRegionAsksForAPosition() {
        var (tracker, _) = startedTracker(.significant)
        _ = tracker.feed(fix(home, acc: 50, t: 1))
        #expect(tracker.cross(MonitoredRegion.refreshRegionID, .outside, at: 100) == [.requestOneShot(.best)])
        #expect(tracker.cross(MonitoredRegion.refreshRegionID, .inside, at: 101).isEmpty)
        var (moving, _) = startedTracker(.move())
        _ = moving.feed(fix(home, t: 1))
        #expect(moving.cross(MonitoredRegion.refreshRegionID, .outside, at: 100).isEmpty, "fixes are flowing anyway")
    }

    @Test func aFixBasedTransitionIsRecordedAsARegionRecord() {
        var (tracker, _) = startedTracker(.move(), regions: [region("gate", point(home, metres: 300), radius: 100)])
        _ = tracker.feed(fix(home, t: 0))
        let effects = tracker.feed(fix(point(home, metres: 300), t: 30))
        #expect(effects.events.map(\.kind) == [.enter])
        #expect(effects.events.first?.initial == false)
        #expect(effects.flushes == [.regionEvent])
        #expect(effects.recordTriggers == [.region])
    }

    @Test func initialStatesAreEmittedWithoutFlushOrRecordTrigger() {
        var (tracker, _) = startedTracker(.manual, regions: [region("home", home, radius: 100)])
        let effects = tracker.feed(fix(home, t: 1))
        #expect(effects.events.map(\.initial) == [true])
        #expect(effects.flushes.isEmpty)
        #expect(effects.records.isEmpty)
    }

    // MARK: Dwell and relaunch

    @Test func dwellTimerFiresTheDwellStampedWhenItWasDue() {
        var (tracker, _) = startedTracker(.move(), regions: [region("desk", home, radius: 100, loiteringDelay: 60)])
        let first = tracker.feed(fix(home, t: 0))
        #expect(first.events.map(\.kind) == [.enter])
        #expect(tracker.timers[.dwell] == time(60))
        let fired = tracker.wake(at: 75)
        #expect(fired.events == [RegionEvent(regionID: "desk", kind: .dwell, timestamp: time(60), initial: false, fix: nil)])
        #expect(fired.flushes == [.regionEvent])
        #expect(tracker.wake(at: 80).isEmpty, "once")
    }

    @Test func anExitCancelsThePendingDwellTimer() {
        var (tracker, _) = startedTracker(.move(), regions: [region("desk", home, radius: 100, loiteringDelay: 60)])
        _ = tracker.feed(fix(home, t: 0))
        let exit = tracker.feed(fix(point(home, metres: 300), t: 30))
        #expect(exit.events.map(\.kind) == [.exit])
        #expect(tracker.timers[.dwell] == nil)
        #expect(tracker.wake(at: 60).events.isEmpty)
    }

    @Test func launchByTheOSRestoresConfigurationAndRegions() throws {
        var (tracker, _) = startedTracker(.significant, regions: [region("a", point(home, metres: 900), radius: 100)])
        let plan = try #require(tracker.feed(fix(home, acc: 50, t: 1)).monitors.first)
        let effects = tracker.handle(.lifecycle(.launchedByOS), now: time(500))
        #expect(effects == [.configureLocation(significantOnly), .monitor(plan), .requestOneShot(.best)])
    }
}
