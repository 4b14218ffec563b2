import Foundation
import Testing
import Whereabouts
import WhereaboutsApple
import WhereaboutsCore
import WhereaboutsTestServer

let home = try! Coordinate(latitude: 48.1372, longitude: 11.5756)

@Suite("The iOS adapter across a kill and a relaunch")
@MainActor
struct RelaunchTests {
    @Test("a region exit while the app was killed relaunches it: the exit is recorded, uploaded and notified once")
    func exitWhileKilled() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let app = PhoneApp(at: home)
        try app.launch(uploadTo: server.baseURL)
        try await app.engine.launch(.user)
        try await app.engine.addRegions([try Region(id: "home", center: home, radius: 150)])
        try await app.engine.start(mode: .significant)
        #expect(await soon { app.os.monitored["home"] != nil }, "the region is handed to the OS")
        await app.kill()

        app.os.move(to: Geodesy.destination(from: home, distance: 1_000, bearing: 90))
        #expect(app.os.launchPending, "the OS holds the exit for a relaunch")
        try app.launch(uploadTo: server.baseURL)
        let center = RecordingNotificationCenter()
        let notifier = RegionNotifier(engine: app.engine, center: center, kinds: [.exit], log: app.lines.log) { _ in "Home" }
        #expect(try await notifier.enable())
        let reason = RelaunchHandler.reason(launchOptionKeys: [RelaunchHandler.locationLaunchOptionKey])
        #expect(reason == .locationEvent)
        let outcome = await RelaunchHandler(engine: app.engine, log: app.lines.log).launch(reason).value
        #expect(outcome == .tracking(.significant))
        app.os.deliverHeldCrossings()

        let engine = try #require(app.engine)
        #expect(try await soon { try await engine.recordedRegionEvents().contains { $0.regionID == "home" && $0.kind == .exit } })
        let exits = try await engine.recordedRegionEvents().filter { $0.regionID == "home" && $0.kind == .exit }
        #expect(exits.count == 1 && exits.first?.initial == false, "one real exit, however many callbacks reported it")
        _ = await engine.flush()
        #expect(await server.state.events.values.contains { $0.regionId == "home" }, "the exit reached the server")
        #expect(await soon { await center.posted.count == 1 })
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(await center.posted.map(\.title) == ["Left Home"], "notified once")
        #expect(app.lines.messages(.launch).contains { $0.hasPrefix("locationEvent launch") })
        await app.kill()
    }

    /// An app tracking in significant mode inside region "home", with a notifier of exits whose
    /// permission question is out (unanswered) in `enabling`.
    private func askingAtHome() async throws -> (
        app: PhoneApp, center: RecordingNotificationCenter, notifier: RegionNotifier, enabling: Task<Bool, any Error>
    ) {
        let app = PhoneApp(at: home)
        try app.launch()
        try await app.engine.launch(.user)
        try await app.engine.addRegions([try Region(id: "home", center: home, radius: 150)])
        try await app.engine.start(mode: .significant)
        #expect(await soon { app.os.monitored["home"] != nil })
        #expect(try await soon { try await app.engine.recordedRegionEvents().contains { $0.regionID == "home" } })
        let center = RecordingNotificationCenter(answer: nil)
        let notifier = RegionNotifier(engine: app.engine, center: center, kinds: [.exit], log: app.lines.log)
        let enabling = Task { try await notifier.enable() }
        #expect(await soon { await center.asked == 1 }, "the question is out")
        return (app, center, notifier, enabling)
    }

    @Test("a notifier enabled at relaunch hears the event broadcast while its permission question is still out")
    func notifierListensBeforeAsking() async throws {
        let (app, center, notifier, enabling) = try await askingAtHome()
        app.os.move(to: Geodesy.destination(from: home, distance: 1_000, bearing: 90))
        let engine = try #require(app.engine)
        #expect(try await soon { try await engine.recordedRegionEvents().contains { $0.kind == .exit } })
        await center.answer(true)
        #expect(try await enabling.value)
        #expect(await soon { await center.posted.count == 1 }, "the exit broadcast before the answer is posted")
        // The notifier posts: it lives until here.
        withExtendedLifetime(notifier) {}
        await app.kill()
    }

    @Test("a disable() while the permission question is out wins over the enable() that asked it")
    func disableWhileAsking() async throws {
        let (app, center, notifier, enabling) = try await askingAtHome()
        notifier.disable()
        await center.answer(true)
        #expect(try await enabling.value == false, "notifications are off")
        app.os.move(to: Geodesy.destination(from: home, distance: 1_000, bearing: 90))
        let engine = try #require(app.engine)
        #expect(try await soon { try await engine.recordedRegionEvents().contains { $0.kind == .exit } })
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(await center.posted.isEmpty, "the exit is not notified")
        await app.kill()
    }

    @Test(
        "events held from holdEvents() are posted by the enable() that runs later; disable() drops them",
        arguments: [false, true])
    func heldEvents(disabledBetween: Bool) async throws {
        let app = PhoneApp(at: home)
        try app.launch()
        try await app.engine.launch(.user)
        try await app.engine.addRegions([try Region(id: "home", center: home, radius: 150)])
        try await app.engine.start(mode: .significant)
        #expect(try await soon { try await app.engine.recordedRegionEvents().contains { $0.regionID == "home" } })

        let center = RecordingNotificationCenter()
        let notifier = RegionNotifier(engine: app.engine, center: center, kinds: [.exit], log: app.lines.log)
        notifier.holdEvents()
        app.os.move(to: Geodesy.destination(from: home, distance: 1_000, bearing: 90))
        let engine = try #require(app.engine)
        #expect(try await soon { try await engine.recordedRegionEvents().contains { $0.kind == .exit } }, "broadcast before enable()")
        if disabledBetween { notifier.disable() }
        #expect(try await notifier.enable())
        if disabledBetween {
            try await Task.sleep(nanoseconds: 200_000_000)
            #expect(await center.posted.isEmpty, "disable() dropped the held exit")
        } else {
            #expect(await soon { await center.posted.count == 1 }, "the held exit is posted")
        }
        await app.kill()
    }
}
