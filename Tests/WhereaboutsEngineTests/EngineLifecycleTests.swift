import Foundation
import Testing
import Whereabouts
import WhereaboutsCore
import WhereaboutsSimulator
import WhereaboutsStore

/// A walk that starts inside a region, stays, then leaves it eastwards.
func walkOutScenario(stay: Double = 400, walk: Double = 900, loiteringDelay: TimeInterval? = 120) -> Scenario {
    let home = try! Coordinate(latitude: 48.1372, longitude: 11.5756)
    var trace: [TracePoint] = []
    var position = home
    let start = 1_714_980_600.0
    for second in 0..<Int(stay + walk) {
        trace.append(TracePoint(coordinate: position, time: start + Double(second)))
        if Double(second) >= stay { position = Geodesy.destination(from: position, distance: 4, bearing: 90) }
    }
    let regions = [
        try! Region(id: "home", center: home, radius: 150, loiteringDelay: loiteringDelay),
        try! Region(id: "far", center: Geodesy.destination(from: home, distance: 20_000, bearing: 0), radius: 200),
    ]
    return Scenario(name: "walk-out", trace: trace, regions: regions)
}

@Suite("LocationEngine lifecycle on the simulated phone")
struct EngineLifecycleTests {
    @Test("start records fixes into the store, streams them and publishes the snapshot")
    func startRecordsAndPublishes() async throws {
        let app = try EngineHarness()
        #expect(try await app.engine.launch(.user) == .idle)
        try await app.engine.addRegions(app.scenario.regions)
        let locations = app.engine.locations()
        let snapshots = app.engine.snapshots()
        try await app.engine.start(mode: .continuous())
        await app.play(to: 300)
        let beforeBackground = try app.store.allRecords().count
        try await app.background()
        await app.play(to: 600)

        let stored = try app.store.allRecords()
        #expect(stored.count > 10)
        #expect(stored.count > beforeBackground, "tracking goes on in the background")
        let recorded = try await app.engine.recordedLocations()
        #expect(recorded.map(\.id) == stored.map(\.record.id), "recordedLocations lists the store's records, oldest first")
        #expect(try await app.engine.recordedLocations(limit: 3).map(\.id) == stored.suffix(3).map(\.record.id))
        let snapshot = await app.engine.snapshot()
        #expect(snapshot.lastLocation?.id == stored.last?.record.id.uuidString.lowercased())
        #expect(snapshot.report.order.count == stored.count)
        #expect(snapshot.lastTriedAt != nil)
        let fence = try #require(snapshot.fence)
        #expect(fence.location.id == MonitoredRegion.refreshRegionID)
        #expect(fence.distanceToDiscovery > 0)
        #expect(app.phone.monitoredRegions.count <= 20)
        #expect(app.phone.monitoredRegions.contains { $0.id == MonitoredRegion.refreshRegionID })

        await app.engine.shutdown()
        var streamed = 0
        for await _ in locations { streamed += 1 }
        #expect(streamed == stored.count)
        var published: [LocationData] = []
        for await snapshot in snapshots { published.append(snapshot) }
        #expect(published.count > 1)
        #expect(published.last == snapshot)
    }

    @Test("killed and relaunched by the OS, the engine restores itself from the store, restarts and asks for a fix")
    func killAndRelaunch() async throws {
        let app = try EngineHarness()
        try await app.startTracking(.move(distance: 100, interval: 300))
        await app.play(to: 900)
        let before = try app.store.pendingRecords().map(\.id)
        #expect(!before.isEmpty)
        await app.kill()
        #expect(!app.phone.standardUpdatesOn)

        await app.play(to: 1200)
        let outcome = try await app.relaunch(.locationEvent)
        #expect(outcome == .tracking(.move(distance: 100, interval: 300)))
        #expect(await app.engine.isTrackingEnabled)
        #expect(app.phone.standardUpdatesOn)
        #expect(try await app.engine.regions().count == app.scenario.regions.count)
        await app.play(to: 1500)
        let after = try app.store.pendingRecords().map(\.id)
        #expect(Array(after.prefix(before.count)) == before)
        #expect(after.count > before.count)
        #expect(await app.engine.snapshot().report.order.count == after.count)
    }

    @Test("a background launch with tracking off starts nothing and exits")
    func trackingDisabledRespected() async throws {
        let app = try EngineHarness()
        try await app.startTracking(.continuous())
        await app.play(to: 300)
        try await app.engine.stop()
        await app.settle()
        let recorded = try app.store.allRecords().count
        #expect(app.phone.monitoredRegions.isEmpty)
        await app.kill()

        #expect(try await app.relaunch(.locationEvent) == .trackingDisabled)
        #expect(app.log.messages.contains("notice: tracking is disabled; the locationEvent launch starts nothing and the app may exit"))
        #expect(!app.phone.standardUpdatesOn)
        #expect(app.phone.monitoredRegions.isEmpty)
        #expect(await app.engine.backgroundRefresh(until: Date(timeIntervalSince1970: app.phone.now + 30)) == .trackingDisabled)
        #expect(app.log.messages.last == "notice: tracking is disabled; the background refresh is skipped")
        await app.play(to: 900)
        #expect(try app.store.allRecords().count == recorded)
        #expect(try await app.engine.pendingLocations().count == recorded)
    }

    @Test("a region left while the app was dead is reported as an exit after the relaunch, and its dwell is not repeated")
    func exitWhileKilled() async throws {
        let app = try EngineHarness(scenario: walkOutScenario(), pad: 0)
        try await app.startTracking(.continuous())
        await app.play(to: 300)
        let early = try app.store.allEvents().map { "\($0.record.event.regionID) \($0.record.event.kind)" }
        #expect(early == ["home enter", "home dwell"])
        await app.kill()

        await app.play(to: 700)
        while !app.phone.launchPending && app.elapsed < 1250 { await app.play(to: app.elapsed + 1) }
        #expect(app.phone.launchPending, "the OS should hold the exit crossing for a relaunch")
        #expect(try await app.relaunch(.locationEvent) == .tracking(.continuous()))
        await app.play(to: app.elapsed + 60)
        let all = try app.store.allEvents().map(\.record.event)
        #expect(all.map { "\($0.regionID) \($0.kind)" } == ["home enter", "home dwell", "home exit"])
        #expect(all.last?.initial == false)
        #expect(try app.store.regionStates().first { $0.regionID == "home" }?.inside == false)
    }

    @Test("a dwell due while the app was suspended fires once, stamped when the delay ended")
    func dwellAcrossRelaunch() async throws {
        let app = try EngineHarness(scenario: walkOutScenario(stay: 600, loiteringDelay: 300), pad: 0)
        try await app.startTracking(.continuous())
        await app.play(to: 60)
        let entered = try #require(try app.store.allEvents().first?.record.event)
        #expect(entered.kind == .enter)
        await app.kill()
        await app.play(to: 500)
        _ = try await app.relaunch(.user)
        await app.play(to: 520)
        let dwells = try app.store.allEvents().map(\.record.event).filter { $0.kind == .dwell }
        #expect(dwells.count == 1)
        #expect(dwells.first?.timestamp == entered.timestamp.addingTimeInterval(300))
    }

    @Test("regions: duplicate ids in one call are refused whole; replacing a region forgets its state")
    func regions() async throws {
        let app = try EngineHarness()
        try await app.engine.launch(.user)
        let a = try Region(id: "a", center: Coordinate(latitude: 52.52, longitude: 13.405), radius: 100)
        let b = try Region(id: "b", center: Coordinate(latitude: 52.53, longitude: 13.41), radius: 100)
        await #expect(throws: EngineError.self) { try await app.engine.addRegions([a, b, a]) }
        #expect(try await app.engine.regions().isEmpty)
        do {
            try await app.engine.addRegions([a, a])
        } catch {
            #expect(error.code == .duplicateRegion)
            #expect(error.message.contains("\"a\""))
        }
        try await app.engine.addRegions([a, b])
        try app.store.apply(
            [
                .regionStates([
                    RegionStateRecord(regionID: "a", inside: true, since: Date(timeIntervalSince1970: 1_714_980_600), dwelt: false)
                ])
            ], at: Date())
        try await app.engine.addRegions([a])
        #expect(try app.store.regionStates().allSatisfy { $0.regionID != "a" })
        try await app.engine.removeRegions(["b", "unknown"])
        #expect(try await app.engine.regions().map(\.id) == ["a"])
    }

    @Test("active tracking needs tracking on and a duration in range")
    func activeTracking() async throws {
        let app = try EngineHarness()
        try await app.engine.launch(.user)
        await #expect(throws: EngineError(.trackingDisabled, "active tracking needs tracking on; call start first")) {
            try await app.engine.startActiveTracking(for: 600)
        }
        try await app.engine.start(mode: .significant)
        await #expect(throws: EngineError.self) { try await app.engine.startActiveTracking(for: .nan) }
        await #expect(throws: EngineError.self) { try await app.engine.startActiveTracking(for: 0) }
        try await app.engine.startActiveTracking(for: 120)
        await app.play(to: 60)
        #expect(app.phone.standardUpdatesOn)
        #expect(await app.engine.mode == .continuous(accuracy: .best, distanceFilter: nil))
        await app.play(to: 200)
        #expect(!app.phone.standardUpdatesOn)
        #expect(await app.engine.mode == .significant)
    }
}
