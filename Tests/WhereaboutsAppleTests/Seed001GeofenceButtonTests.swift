import Foundation
import Testing
import Whereabouts
import WhereaboutsApple
import WhereaboutsCore
import WhereaboutsTestSupport

/// Seed 001: the geofence experiment (a native iOS app). One button saves a region around where the
/// device is now; leaving it, in the background or after the app was killed, records the event, shows
/// it on the view and posts a notification of the app's category; without Always the app presents
/// Settings.
@Suite("Seed001 geofence button: a region here in one call, the exit backgrounded and killed, notified with its category")
@MainActor
struct Seed001GeofenceButtonTests {
    /// One process of the app: the automatic set-up's engine, bridge and notifier on the emulated OS,
    /// without installing the bridge globally.
    struct Process {
        let started: AutomaticSetup.Started
        let center: RecordingNotificationCenter

        func call(_ method: String, _ arguments: String = "{}") async throws -> [String: Any] {
            let text = await started.bridge.call(method, json: arguments)
            return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        }
    }

    func launch(_ app: PhoneApp, _ reason: LaunchReason, support: URL) throws -> Process {
        let center = RecordingNotificationCenter()
        let setup = AutomaticSetup(bundleIdentifier: "com.example.geofence", reading: { _ in nil }, applicationSupport: support)
        let started = try #require(
            setup.make(
                reason: reason, service: app.makeService(), scheduler: RecordingScheduler(), notificationCenter: center, log: app.lines.log)
        )
        return Process(started: started, center: center)
    }

    @Test("the document's story, in its order")
    func story() async throws {
        let app = PhoneApp(at: home, status: CoreLocationConstants.authorizationNotDetermined)
        let support = temporaryFolder("geofence")
        var process = try launch(app, .user, support: support)
        _ = await process.started.launch.value

        // Full access: When In Use, then Always.
        _ = try await process.call("requestPermission", #"{"kind": "foreground"}"#)
        _ = try await process.call("requestPermission", #"{"kind": "background"}"#)
        #expect(await soon { app.os.status == CoreLocationConstants.authorizationAlways })
        _ = try await process.call("startTracking", #"{"mode": "significant"}"#)
        let first = process.started.engine
        #expect(await soon { await first.currentLocation() != nil }, "the start's own fix has come")

        // The button, when no fix is precise enough: nothing is saved, and no older position is used.
        app.os.oneShotAccuracy = 65
        let tooCoarse = try await process.call("addRegionHere", #"{"id": "saved", "radius": 100, "accuracy": 20, "timeout": 1}"#)
        #expect((tooCoarse["error"] as? [String: Any])?["code"] as? String == "locationUnavailable")
        #expect(try await process.started.engine.regions().isEmpty)

        // The button: one call, a fresh fix within 20 m, the region around it.
        app.os.oneShotAccuracy = 5
        let saved = try #require(try await process.call("addRegionHere", #"{"id": "saved", "radius": 100}"#)["result"] as? [String: Any])
        let region = try #require(saved["region"] as? [String: Any])
        #expect(region["id"] as? String == "saved" && region["radius"] as? Double == 100 && region["inside"] as? Bool == true)
        #expect(abs((region["latitude"] as? Double ?? 0) - home.latitude) < 1e-9 && saved["accuracy"] as? Double == 5)
        #expect(await soon { app.os.monitored["saved"] != nil }, "handed to the OS")

        // Notifications of the app's category, with its action, switched on from JavaScript.
        let notifications = try await process.call(
            "configureNotifications",
            #"{"enabled": true, "kinds": ["exit"], "category": "REGION_EXIT", "actions": [{"id": "OPEN", "title": "Open", "opensApp": true}]}"#
        )
        #expect(notifications["result"] as? [String: Bool] == ["enabled": true, "allowed": true])
        #expect(await process.center.categories["REGION_EXIT"]?.map(\.identifier) == ["OPEN"])

        // Leaving while the app is in the background: the event is recorded and notified.
        try await process.started.engine.appDidEnterBackground()
        let away = Geodesy.destination(from: home, distance: 800, bearing: 90)
        app.os.move(to: away)
        let engine = process.started.engine
        #expect(try await soon { try await engine.recordedRegionEvents().contains { $0.regionID == "saved" && $0.kind == .exit } })
        #expect(await soon { await process.center.posted.count == 1 })
        #expect(await process.center.posted.first?.category == "REGION_EXIT")
        #expect(await process.center.posted.first?.title == "Left saved")

        // Back inside (an entry is not notified: the app asked for exits), then killed; leaving relaunches it.
        app.os.move(to: home)
        #expect(try await soon { try await engine.recordedRegionEvents().filter { $0.regionID == "saved" }.last?.kind == .enter })
        await engine.shutdown()
        app.os.killProcess()
        app.os.move(to: away)
        #expect(app.os.launchPending)
        process = try launch(app, .locationEvent, support: support)
        #expect(await process.started.launch.value == .tracking(.significant))
        app.os.deliverHeldCrossings()
        let relaunched = process.started.engine
        #expect(try await soon { try await relaunched.recordedRegionEvents().filter { $0.regionID == "saved" }.last?.kind == .exit })
        #expect(await soon { await process.center.posted.count == 1 }, "the stored settings turn notifications back on in the new process")
        #expect(await process.center.posted.first?.category == "REGION_EXIT")
        let shown = try await relaunched.recordedRegionEvents().filter { $0.regionID == "saved" && !$0.initial }.map(\.kind)
        #expect(shown == [.exit, .enter, .exit], "the view's label: every event, kept across the kill")

        // Always taken away in Settings: asking again presents Settings, once per back-off.
        app.os.changeAuthorization(to: CoreLocationConstants.authorizationWhenInUse)
        _ = try await process.call("requestPermission", #"{"kind": "background"}"#)
        #expect(await soon { app.settingsOpened == 1 })
        _ = try await process.call("requestPermission", #"{"kind": "background"}"#)
        await app.drainMain()
        #expect(app.settingsOpened == 1)
        await relaunched.shutdown()
    }

    @Test(
        "the exit that relaunched the app is notified even when the engine broadcasts it before the main actor runs again",
        .timeLimit(.minutes(1)))
    func relaunchExitBeforeMainRuns() async throws {
        let app = PhoneApp(at: home)
        let support = temporaryFolder("geofence")
        let first = try launch(app, .user, support: support)
        _ = await first.started.launch.value
        _ = try await first.call("configureNotifications", #"{"enabled": true, "kinds": ["exit"]}"#)
        try await first.started.engine.addRegions([try Region(id: "saved", center: home, radius: 100)])
        try await first.started.engine.start(mode: .significant)
        #expect(await soon { await first.started.engine.insideRegionIDs == ["saved"] })
        await first.started.engine.shutdown()
        app.os.killProcess()
        app.os.move(to: Geodesy.destination(from: home, distance: 800, bearing: 90))
        #expect(app.os.launchPending)

        let process = try launch(app, .locationEvent, support: support)
        let heard = Latest<Bool>()
        let events = process.started.engine.regionEvents()
        let listener = Task.detached {
            for await event in events where event.regionID == "saved" && event.kind == .exit { heard.set(true) }
        }
        defer { listener.cancel() }
        app.os.deliverHeldCrossings()
        // The main actor stays busy, as while the app finishes launching: the task the set-up started to
        // turn notifications on cannot run until the engine has broadcast the exit.
        let deadline = Date(timeIntervalSinceNow: 20)
        while heard.value == nil, Date() < deadline { usleep(10_000) }
        #expect(heard.value == true, "the relaunched engine broadcast the exit while the main actor was busy")
        #expect(await soon { await process.center.posted.count == 1 }, "the exit is notified all the same")
        await process.started.engine.shutdown()
    }
}
