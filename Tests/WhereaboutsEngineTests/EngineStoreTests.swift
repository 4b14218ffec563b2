import Foundation
import Testing
import Whereabouts
import WhereaboutsCore
import WhereaboutsSimulator
import WhereaboutsStore

@Suite("LocationEngine and its store: one write path, the snapshot in memory")
struct EngineStoreTests {
    /// Tracks inside home until 200 s, fills the disk with records of its own (their ids returned),
    /// then walks out by 600 s: the exit and what follows wait in the writer's backlog.
    private static func walkOutOnAFullDisk(_ app: EngineHarness) async throws -> Set<UUID> {
        try await app.engine.addRegions(app.scenario.regions)
        try await app.engine.start(mode: .continuous())
        await app.play(to: 200)
        try app.store.setMaxPageCount(1)
        let filler = try #require(await app.engine.currentLocation())
        var fillers: Set<UUID> = []
        while true {
            let record = LocationRecord(fix: filler, trigger: .request)
            guard (try? app.store.append([record], at: Date())) != nil else { break }
            fillers.insert(record.id)
        }
        await app.play(to: 600)
        #expect(await app.engine.diagnostics.storeBacklog > 0, "the exit waits for space")
        return fillers
    }

    @Test("on a full disk, a region's event and its state wait together: a kill meanwhile loses neither transition")
    func fullDiskKeepsEventsAndStatesTogether() async throws {
        let app = try EngineHarness(scenario: walkOutScenario(stay: 300, walk: 400), pad: 0)
        try await app.engine.launch(.user)
        let streamed = app.engine.regionEvents()
        _ = try await Self.walkOutOnAFullDisk(app)
        #expect(try app.store.allEvents().map(\.record.event.kind) == [.enter, .dwell])
        #expect(try app.store.regionStates().first { $0.regionID == "home" }?.inside == true, "and so does the state it changes")

        await app.kill()
        var announced: [RegionEventKind] = []
        for await event in streamed { announced.append(event.kind) }
        #expect(announced == [.enter, .dwell], "an event is streamed once stored, not before")
        try app.store.setMaxPageCount(nil)
        _ = try await app.relaunch(.user)
        await app.play(to: 640)
        let events = try app.store.allEvents().map(\.record.event)
        #expect(events.map(\.kind) == [.enter, .dwell, .exit], "the exit is found again after the relaunch")
        #expect(events.last?.initial == false)
        #expect(try app.store.regionStates().first { $0.regionID == "home" }?.inside == false)
    }

    @Test("writes that waited for space are streamed once the writer reports them stored, each once")
    func backlogAnnouncedWhenStored() async throws {
        let app = try EngineHarness(scenario: walkOutScenario(stay: 300, walk: 400), pad: 0)
        try await app.engine.launch(.user)
        let events = app.engine.regionEvents()
        let locations = app.engine.locations()
        let fillers = try await Self.walkOutOnAFullDisk(app)

        try app.store.setMaxPageCount(nil)
        await app.play(to: 640)
        #expect(await app.engine.diagnostics.storeBacklog == 0)
        await app.kill()
        var announced: [RegionEventKind] = []
        for await event in events { announced.append(event.kind) }
        #expect(announced == [.enter, .dwell, .exit], "the waiting exit is streamed once it is stored, and only once")
        var streamed: [UUID] = []
        for await record in locations { streamed.append(record.id) }
        let stored = try app.store.allRecords().map(\.record.id).filter { !fillers.contains($0) }
        #expect(streamed == stored, "every record the engine stored is streamed once, in order, the waiting ones included")
    }

    /// Bug: the streams kept the newest 256 values a subscriber had not read, so a burst (a replay,
    /// a busy upload loop on the app's side) lost records and region events from the stream.
    @Test("a subscriber that reads late still gets every record and region event of a long burst")
    func lateSubscriberGetsTheWholeBurst() async throws {
        let app = try EngineHarness(configuration: TrackerConfiguration(mode: .move(distance: 5, interval: 2), mergeRadius: 2))
        try await app.engine.launch(.user)
        let locations = app.engine.locations()
        let events = app.engine.regionEvents()
        try await app.startTracking(.move(distance: 5, interval: 2))
        await app.playToEnd()
        await app.kill()
        var streamed = 0
        for await _ in locations { streamed += 1 }
        var announced = 0
        for await _ in events { announced += 1 }
        let stored = try app.store.allRecords().count
        #expect(stored > 256, "the burst is longer than the old buffer: \(stored) records")
        #expect(streamed == stored)
        #expect(announced == (try app.store.allEvents().count))
    }

    @Test("the newest location is the newest fix: a fix at the same place moves its time on")
    func newestFixNotNewestRecord() async throws {
        let app = try EngineHarness(pad: 600)
        try await app.engine.launch(.user)
        try await app.engine.start(mode: .manual)
        try await app.engine.requestLocationUpdate()
        await app.play(to: 60)
        let record = try #require(try app.store.allRecords().last?.record)
        try await app.engine.requestLocationUpdate()
        await app.play(to: 200)
        #expect(try app.store.allRecords().count == 1, "the second fix merged into the first record")
        let current = try #require(await app.engine.currentLocation())
        #expect(current.timestamp > record.fix.timestamp)
        let last = try #require(await app.engine.snapshot().lastLocation)
        #expect(last.timestamp == current.timestamp)
        #expect(last.id == record.id.uuidString.lowercased(), "still the record the fix merged into")
    }

    @Test("a stop is placed by one GPS fix: the stored record and the pending list take its position, at the record's time")
    func stopPlaced() async throws {
        let app = try EngineHarness(pad: 600)
        try await app.startTracking(.adaptive())
        await app.play(to: 5)
        let first = try #require(try app.store.allRecords().first?.record)
        #expect(first.fix.source == .wifi, "tracking starts on Wi-Fi")
        await app.play(to: 300)
        let stored = try app.store.allRecords().map(\.record)
        #expect(stored.count == 1, "still at the start: one stay")
        let placed = try #require(stored.first)
        #expect(placed.id == first.id && placed.fix.timestamp == first.fix.timestamp)
        #expect(placed.fix.source == .gps && placed.fix.horizontalAccuracy <= 15, "\(placed.fix)")
        let item = await app.engine.snapshot().report.items[placed.id.uuidString.lowercased()]
        #expect(item == LocationData.ReportItem(record: placed), "the snapshot's pending list learnt it too")
    }

    @Test("the snapshot is kept in memory: publishing reads nothing from the store")
    func snapshotWithoutTheStore() async throws {
        let app = try EngineHarness()
        try await app.startTracking(.continuous())
        await app.play(to: 300)
        let before = await app.engine.snapshot()
        #expect(before.report.order.count == (try app.store.pendingRecords().count))
        try app.store.close()
        #expect(await app.engine.snapshot() == before, "answered with the store closed")
    }
}
