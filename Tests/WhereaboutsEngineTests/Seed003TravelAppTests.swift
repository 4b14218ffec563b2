import Foundation
import Testing
import Whereabouts
import WhereaboutsCore
import WhereaboutsSimulator
import WhereaboutsTestServer

/// Seed 003: the travel app (Capacitor) replaces the Geolocation plugin with native tracking whose
/// store is the single source of truth, uploads each position to Firestore (an ID token renewed from
/// the refresh token `setAuth` gave), keeps `trackingEnabled`, and runs a background task that exits
/// at once while tracking is off. Its "Suggested Manual Test Plan", sections 1, 2, 3 and 5, automated
/// here; section 4 (the web path) is the browser path's own tests (`Integrations/typescript/test/web.test.cjs`).
@Suite("Seed003 travel app: Firestore uploads driven from JavaScript, the manual test plan automated")
struct Seed003TravelAppTests {
    /// The app configured as the travel app's JavaScript does: Firestore on the local server, signed in
    /// with a refresh token only (the ID token is fetched when first needed).
    func signedIn(_ js: SeedJavaScript, _ server: TestServer) async throws {
        let url = server.baseURL.absoluteString
        try await js.call(
            "configure",
            #"{"upload": {"kind": "firestore", "project": "travel", "apiKey": "key", "url": "\#(url)", "tokenUrl": "\#(url)"}}"#)
        try await js.call("setAuth", #"{"refreshToken": "refresh-1", "userId": "user-1"}"#)
    }

    /// The local server answering as Firestore and its token endpoint (the ID token it accepts is the one
    /// the refresh token gets), and the app launched with the bridge's uploader.
    func launched() async throws -> (TestServer, EngineHarness, SeedJavaScript) {
        let server = try await TestServer.start()
        await server.state.setValidTokens(["id-token-1"])
        await server.state.setRefreshTokens(["refresh-1"])
        let app = try EngineHarness(uploader: { store, clock in Bridge.uploader(store: store, clock: clock) })
        let js = SeedJavaScript(Bridge(engine: app.engine))
        try await app.engine.launch(.user)
        return (server, app, js)
    }

    @Test("1 foreground, 2 background, 3 the toggle: pending entries with wait_time, Firestore documents, uploaded flags, the skipped run")
    func plan() async throws {
        let (server, app, js) = try await launched()
        defer { Task { await server.stop() } }
        try await signedIn(js, server)

        // 1. iOS foreground tracking.
        try await js.call("startTracking", #"{"mode": "continuous"}"#)
        #expect(try app.store.setting(.trackingEnabled) == true)
        await app.play(to: 400)
        let pending = try #require(try await js.call("getLocations") as? [[String: Any]])
        #expect(pending.count > 3)
        #expect(pending.allSatisfy { $0["dwell"] is NSNumber && $0["uploaded"] as? Bool == false })
        let flushed = try #require(try await js.call("flush") as? [String: Any])
        #expect(flushed["stoppedBy"] is NSNull && (flushed["delivered"] as? Int ?? 0) >= pending.count)
        let documents = await server.state.documents
        for entry in pending {
            let id = try #require(entry["id"] as? String)
            let document = try #require(documents["locations/\(id)"], "the Firestore document has the record's id")
            let fields = try #require((try JSONSerialization.jsonObject(with: document) as? [String: Any])?["fields"] as? [String: Any])
            #expect((fields["userId"] as? [String: String])?["stringValue"] == "user-1")
            #expect(fields["wait_time"] != nil && fields["latitude"] != nil)
        }
        let trail = try #require(try await js.call("getLocations", #"{"includeUploaded": true}"#) as? [[String: Any]])
        #expect(trail.allSatisfy { $0["uploaded"] as? Bool == true })
        let current = try #require(try await js.call("getCurrentLocation") as? [String: Any])
        #expect(current["lat"] is NSNumber && current["lng"] is NSNumber && current["timestamp"] is NSNumber)

        // 2. iOS background tracking: the app in the background, the device moving, the background task.
        app.phone.setForeground(false)
        try await app.engine.appDidEnterBackground()
        let before = try app.store.allRecords().count
        await app.play(to: 900)
        let (engine, phone) = (app.engine, app.phone)
        // The harness plays a phone second per turn while the refresh runs, far faster than the
        // Firestore uploads (one request a record) answer, and a drain claims nothing after its
        // deadline: the window ends after the path, where the phone's time stops.
        let window = Date(timeIntervalSince1970: app.truth.end + 3600)
        let outcome = await app.play { await engine.backgroundRefresh(until: window) }
        guard case .ran(let fix, _, let stillPending) = outcome else {
            Issue.record("the background task did not run: \(outcome)")
            return
        }
        #expect(fix != nil && stillPending == 0, "one fix taken, everything uploaded")
        #expect(try app.store.allRecords().count > before, "entries were added while in the background")
        #expect(try app.store.allRecords().allSatisfy { $0.state == .delivered })
        app.phone.setForeground(true)
        try await app.engine.appDidBecomeActive()

        // 3. The toggle: off, the background task logs and skips, no document is written.
        try await js.call("stopTracking")
        #expect(try app.store.setting(.trackingEnabled) == false)
        let written = await server.state.documents.count
        #expect(await app.engine.backgroundRefresh(until: Date(timeIntervalSince1970: phone.now + 30)) == .trackingDisabled)
        #expect(app.log.messages.contains { $0.contains("tracking is disabled; the background refresh is skipped") })
        await app.play(to: 1200)
        #expect(await server.state.documents.count == written)
        try await js.call("startTracking")
        #expect(try app.store.setting(.trackingEnabled) == true)
    }

    @Test("5 failures: a denied permission is logged and refused with a code; offline, entries stay un-uploaded for later")
    func failures() async throws {
        let denied = try EngineHarness(authorization: PlatformAuthorization(status: .denied, canPrompt: false))
        let refusing = SeedJavaScript(Bridge(engine: denied.engine))
        try await denied.engine.launch(.user)
        #expect(await refusing.refusal("startTracking") == "permissionDenied", "the UI gets an error state, not a crash")
        denied.phone.setAuthorization(PlatformAuthorization(status: .denied, canPrompt: false))
        await denied.settle()
        #expect(denied.log.messages.contains { $0.contains("location permission refused (foregroundDenied") })

        let (server, app, js) = try await launched()
        defer { Task { await server.stop() } }
        let offline = try await TestServer.freePort()
        try await js.call(
            "configure",
            #"{"upload": {"kind": "firestore", "project": "travel", "apiKey": "key", "url": "http://127.0.0.1:\#(offline)", "tokenUrl": "\#(server.baseURL.absoluteString)"}}"#
        )
        try await js.call("setAuth", #"{"refreshToken": "refresh-1", "userId": "user-1"}"#)
        try await js.call("startTracking", #"{"mode": "continuous"}"#)
        await app.play(to: 200)
        _ = try await js.call("flush")
        let waiting = try #require(try await js.call("getLocations") as? [[String: Any]])
        #expect(!waiting.isEmpty && waiting.allSatisfy { $0["uploaded"] as? Bool == false }, "offline: nothing is marked uploaded")
        #expect(try app.store.pendingRecords().count == waiting.count, "and nothing is dropped")

        try await signedIn(js, server)
        await app.settle()
        let online = try #require(try await js.call("flush") as? [String: Any])
        #expect((online["delivered"] as? Int ?? 0) >= waiting.count, "back online, the same entries go out")
        #expect(try app.store.pendingRecords().isEmpty)
    }
}
