import Foundation
import Testing
import Whereabouts
import WhereaboutsCore
import WhereaboutsSimulator

/// Seed 000: the story app (React Native) keeps `locationData` in its store, asks for foreground
/// permission on a location action and background when it comes to the foreground, waits two hours
/// after a refused background request, is fed locations while the user moves, asks for an update or
/// active tracking on demand, and reads the fence around the device.
@Suite("Seed000 story app: permissions with the two-hour back-off, locations while moving, the fence")
struct Seed000StoryAppTests {
    static let hour = 3600.0

    @Test("the document's story, in its order")
    func story() async throws {
        let pad = 2 * Self.hour + 900
        let app = try EngineHarness(pad: pad, authorization: PlatformAuthorization(status: .notDetermined))
        app.phone.answers[.foreground] = PlatformAuthorization(status: .whenInUse)
        app.phone.answers[.background] = PlatformAuthorization(status: .whenInUse, canPrompt: false)
        let js = SeedJavaScript(Bridge(engine: app.engine))
        js.listen()
        try await app.engine.launch(.user)
        try await app.engine.addRegions(app.scenario.regions)

        // 1. The location store: never asked, so both permissions are null.
        let first = try await js.locationData()
        #expect(first["foregroundPermission"] is NSNull && first["backgroundPermission"] is NSNull)
        #expect(first["lastLocation"] is NSNull)

        // 2. Permissions. Coming to the foreground asks nothing before foreground is granted; a location
        // action asks for foreground; the next time in the foreground asks for background.
        try await js.call("checkPermissions")
        #expect(app.phone.authorizationRequests.isEmpty)
        try await js.call("locationAction")
        #expect(app.phone.authorizationRequests == [.foreground])
        await app.settle()
        let foreground = try #require(try await js.locationData()["foregroundPermission"] as? [String: Any])
        #expect(foreground["isGranted"] as? Bool == true && foreground["canAskAgain"] as? Bool == true)
        try await js.call("checkPermissions")
        #expect(app.phone.authorizationRequests == [.foreground, .background])
        await app.settle()
        let refused = try #require(try await js.locationData()["backgroundPermission"] as? [String: Any])
        #expect(refused["isGranted"] as? Bool == false && refused["requestedAt"] is NSNumber, "the user kept While Using")
        #expect(app.log.messages.contains { $0.contains("location permission refused (backgroundDenied") }, "the refusal is logged")

        // Within two hours neither the foreground nor start() pesters the user: no dialog, no Settings.
        await app.play(to: 600)
        try await js.call("checkPermissions")
        try await js.call("startTracking", #"{"mode": "adaptive"}"#)
        #expect(app.phone.authorizationRequests == [.foreground, .background])
        #expect(app.phone.settingsOpened == 0)

        // After two hours iOS will not show the Always dialog again: start() opens Settings, once.
        await app.play(to: 2 * Self.hour + 60)
        try await js.call("startTracking")
        #expect(app.phone.settingsOpened == 1)
        try await js.call("startTracking")
        try await js.call("checkPermissions")
        #expect(app.phone.settingsOpened == 1, "not on every call: the back-off starts again")
        #expect(app.phone.authorizationRequests == [.foreground, .background])

        // 3. Receiving locations: the native side pushes them while the user moves.
        let before = js.events("location").count
        await app.play(to: pad + 900)
        #expect(js.events("location").count > before + 3, "locations are pushed while moving")
        let moving = try await js.locationData()
        let last = try #require(moving["lastLocation"] as? [String: Any])
        #expect(last["id"] is String && last["latitude"] is NSNumber)
        #expect((moving["report"] as? [String: Any])?["order"] as? [Any] != nil)

        // An update on demand sets lastTriedAt; active tracking runs for its minutes, then ends.
        try await js.call("requestLocationUpdate")
        let tried = try await js.locationData()["lastTriedAt"] as? NSNumber
        #expect(tried?.doubleValue == app.phone.now * 1000)
        try await js.call("startActiveTracking", #"{"minutes": 2}"#)
        #expect(await app.engine.mode.name == "continuous")
        await app.play(to: app.elapsed + 150)
        #expect(await app.engine.mode.name == "adaptive", "active tracking is time-limited")

        // The fence: the refresh region around the device, with the distance to the nearest discovery.
        let fence = try #require(try await js.locationData()["fence"] as? [String: Any])
        #expect(fence["distanceToDiscovery"] is NSNumber && fence["location"] is [String: Any])

        // Clearing the history leaves the engine recording: the next fixes make a new record.
        await app.play(to: app.truth.end - app.truth.start - 60)
        try await js.call("clearLocations")
        #expect(try app.store.allRecords().isEmpty)
        for _ in 0..<3 {
            try await js.call("requestLocationUpdate")
            await app.play(to: app.elapsed + 10)
        }
        let records = try app.store.allRecords()
        #expect(records.count == 1, "three fixes at one spot after a clear make one record, not none")
        let cleared = try #require(try await js.locationData()["lastLocation"] as? [String: Any])
        #expect(cleared["id"] as? String == records.first?.record.id.uuidString.lowercased())
    }
}
