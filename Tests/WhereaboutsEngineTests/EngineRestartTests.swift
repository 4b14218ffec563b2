import Foundation
import Testing
import Whereabouts
import WhereaboutsCore
import WhereaboutsSimulator
import WhereaboutsStore

/// Still at home for `stay` seconds, then east at 4 m/s into the café 1.2 km away (300 s), where the
/// device stays for `visit` seconds.
func walkInScenario(stay: Double = 300, visit: Double = 600) -> Scenario {
    let home = try! Coordinate(latitude: 48.1372, longitude: 11.5756)
    var trace: [TracePoint] = []
    var position = home
    let start = 1_714_980_600.0
    for second in 0..<Int(stay + 300 + visit) {
        trace.append(TracePoint(coordinate: position, time: start + Double(second)))
        if Double(second) >= stay && Double(second) < stay + 300 {
            position = Geodesy.destination(from: position, distance: 4, bearing: 90)
        }
    }
    let regions = [try! Region(id: "cafe", center: Geodesy.destination(from: home, distance: 1_200, bearing: 90), radius: 150)]
    return Scenario(name: "walk-in", trace: trace, regions: regions)
}

@Suite("LocationEngine across a kill and a relaunch")
struct EngineRestartTests {
    @Test("a region entered while the app was dead, last judged outside, is a real entry after the relaunch")
    func entryWhileKilled() async throws {
        let app = try EngineHarness(scenario: walkInScenario(), pad: 0)
        try await app.startTracking(.continuous())
        await app.play(to: 120)
        let judged = try app.store.regionStates()
        #expect(judged.map(\.regionID) == ["cafe"] && judged.first?.inside == false, "the outside state is stored too")
        #expect(try app.store.allEvents().isEmpty, "outside the café: no event, not even an initial one")
        await app.kill()

        while !app.phone.launchPending && app.elapsed < 1150 { await app.play(to: app.elapsed + 1) }
        #expect(app.phone.launchPending, "the OS holds the café's entry for a relaunch")
        _ = try await app.relaunch(.locationEvent)
        await app.play(to: app.elapsed + 30)
        let enter = try #require(try app.store.allEvents().map(\.record.event).first { $0.regionID == "cafe" })
        #expect(enter.kind == .enter)
        #expect(!enter.initial, "a transition seen across the relaunch, not a state found at start")
    }

    @Test(
        "an app killed while suspended at a stop learns at the relaunch when the device set off (the motion history since): the stay ends when the walk began, not when the drive did"
    )
    func departureWhileKilled() async throws {
        let adaptive = TrackingMode.adaptive(.adaptive)
        let app = try EngineHarness(scenario: walkThenDrive(), pad: 0, configuration: TrackerConfiguration(mode: adaptive))
        try await app.startTracking(adaptive)
        try await app.background()
        await app.play(to: 1_500)
        await app.kill()

        await app.play(to: 2_300)
        #expect(app.phone.launchPending, "the OS holds the departure's events for a relaunch")
        _ = try await app.relaunch(.locationEvent)
        await app.play(to: 2_700)
        let stay = try #require(try app.store.allRecords().map(\.record).max { $0.dwell < $1.dwell }, "the stop is the longest stay")
        let left = stay.fix.timestamp.timeIntervalSince1970 - app.truth.start + stay.dwell
        #expect((1_790...1_860).contains(left), "the stay ends when the walk began (\(left) s), not when the drive did (2,100 s)")
    }

    /// Still for 30 minutes, then a 5-minute walk east to a car, 5 minutes' drive, and a stop.
    private func walkThenDrive() -> Scenario {
        var position = try! Coordinate(latitude: 48.1372, longitude: 11.5756)
        var trace: [TracePoint] = []
        for second in 0..<2_700 {
            trace.append(TracePoint(coordinate: position, time: 1_714_980_600 + Double(second)))
            let speed = (1_800..<2_100).contains(second) ? 1.4 : (2_100..<2_400).contains(second) ? 12 : 0
            position = Geodesy.destination(from: position, distance: speed, bearing: 90)
        }
        return Scenario(name: "walk-then-drive", trace: trace, regions: [])
    }

    @Test("a command stored before the app died is carried out at the next launch, once")
    func commandAcrossACrash() async throws {
        let app = try EngineHarness()
        try await app.engine.launch(.user)
        try await app.engine.start(mode: .significant)
        await app.play(to: 10)
        await app.kill()
        let office = WireRegion(id: "office", latitude: 52.53, longitude: 13.41, radius: 120)
        try app.store.enqueueCommands([DeviceCommand(id: "c-1", command: .setRegions([office]))], at: Date())

        _ = try await app.relaunch(.locationEvent)
        #expect(try await app.engine.regions().map(\.id) == ["office"])
        #expect(try app.store.unappliedCommands().isEmpty)
        #expect(try app.store.commandAcknowledgements() == ["c-1"], "acknowledged with the next upload")
        try app.store.enqueueCommands([DeviceCommand(id: "c-1", command: .setRegions([]))], at: Date())
        #expect(try app.store.unappliedCommands().isEmpty, "sent again before the acknowledgement: recognised by its id")
    }

    @Test("start without a mode during active tracking remembers the configured mode, not the session's")
    func startDuringActiveSession() async throws {
        let app = try EngineHarness()
        try await app.engine.launch(.user)
        try await app.engine.start(mode: .significant)
        try await app.engine.startActiveTracking(for: 600)
        try await app.engine.start()
        #expect(try app.store.setting(.configuration)?.mode == .significant)
        await app.kill()
        #expect(try await app.relaunch(.user) == .tracking(.significant))
    }

    @Test("an app killed during active tracking goes on with it after a relaunch until its end, then the configured mode")
    func activeTrackingSurvivesRelaunch() async throws {
        let app = try EngineHarness()
        try await app.engine.launch(.user)
        try await app.engine.start(mode: .significant)
        try await app.engine.startActiveTracking(for: 600)
        #expect(try app.store.setting(.activeTrackingEnd) != nil)
        await app.kill()
        _ = try await app.relaunch(.locationEvent)
        #expect(await app.engine.mode == .continuous(accuracy: .best, distanceFilter: nil), "the 10 minutes are not over")
        await app.play(to: 700)
        #expect(await app.engine.mode == .significant, "then the configured mode")
        #expect(try app.store.setting(.activeTrackingEnd) == nil)
        await app.kill()
        _ = try await app.relaunch(.locationEvent)
        #expect(await app.engine.mode == .significant)
    }
}
