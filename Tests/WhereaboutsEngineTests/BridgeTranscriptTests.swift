import Foundation
import Testing
import Whereabouts
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsSimulator
import WhereaboutsStore
import WhereaboutsTestServer
import WhereaboutsTestSupport

/// The reply's `result`, or `nil` for an error.
private func result(_ reply: [String: Any]) -> Any? { reply["result"] }

/// The reply's error code, or `nil` for a result.
private func code(_ reply: [String: Any]) -> String? { (reply["error"] as? [String: Any])?["code"] as? String }

@Suite("Bridge transcripts: what JavaScript sees, recorded for the TypeScript tests")
struct BridgeTranscriptTests {
    @Test("the contract: every method, event, error code, mode name, upload trigger and upload stop")
    func contract() throws {
        let contract = [
            "methods": BridgeMethod.allCases.map(\.rawValue), "events": BridgeEventName.allCases.map(\.rawValue),
            "errorCodes": BridgeError.codes, "modes": TrackingMode.names, "uploadTriggers": UploadTrigger.allCases.map(\.rawValue),
            "uploadStops": BridgeUploadStop.allCases.map(\.rawValue),
        ]
        try Golden.check(contract, as: "contract")
        let data = try Data(contentsOf: Golden.folder.appendingPathComponent("contract.json"))
        let golden = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String]])
        for (list, names) in contract {
            #expect(golden[list] == names, "the TypeScript side must learn every one of the \(list) (its test compares them)")
        }
    }

    @Test("tracking, modes, locations and regions with inside state")
    func tracking() async throws {
        let app = try EngineHarness(scenario: walkOutScenario(), pad: 0)
        let transcript = BridgeTranscript(Bridge(engine: app.engine))
        try await app.engine.launch(.user)
        #expect(code(await transcript.call("teleport")) == "unknownMethod")
        #expect(result(await transcript.call("getCurrentLocation")) is NSNull)
        let home = "{\"id\": \"home\", \"latitude\": 48.1372, \"longitude\": 11.5756, \"radius\": 150}"
        #expect(code(await transcript.call("addRegions", "{\"regions\": [\(home), \(home)]}")) == "duplicateRegion")
        await transcript.call("addRegions", "{\"regions\": [\(home)]}")
        #expect(code(await transcript.call("startTracking", "{\"mode\": \"teleport\"}")) == "invalidArguments")
        await transcript.call("startTracking", "{\"mode\": \"continuous\"}")
        await app.play(to: 120)
        let regions = try #require(result(await transcript.call("getRegions")) as? [[String: Any]])
        #expect(regions.first?["inside"] as? Bool == (await app.engine.insideRegionIDs.contains("home")))
        let park = "{\"id\": \"park\", \"latitude\": 48.2, \"longitude\": 11.6, \"radius\": 300, \"loiteringDelay\": 60}"
        #expect(result(await transcript.call("setRegions", "{\"regions\": [\(home), \(park)]}")) as? [String: Int] == ["count": 2])
        #expect(try await app.engine.regions().map(\.id) == ["home", "park"])
        await transcript.call("removeRegions", "{\"ids\": [\"park\"]}")
        await transcript.call("getCurrentLocation")
        await transcript.call("getLocationData")
        let pending = try #require(result(await transcript.call("getLocations", "{\"limit\": 3}")) as? [[String: Any]])
        #expect((1...3).contains(pending.count))
        #expect(pending.allSatisfy { $0["uploaded"] as? Bool == false })
        #expect(code(await transcript.call("getLocations", "{\"limit\": 0}")) == "invalidArguments")
        let marked = try #require(pending.first?["id"] as? String)
        #expect(code(await transcript.call("markRegion", "{\"id\": \"\(marked)\", \"radius\": -1}")) == "invalidArguments")
        let mark = try #require(result(await transcript.call("markRegion", "{\"id\": \"\(marked)\", \"radius\": 100}")) as? [String: Any])
        #expect(mark["id"] as? String == marked)
        #expect(result(await transcript.call("markRegion", "{\"id\": \"\(marked)\", \"radius\": 0}")) is NSNull)
        #expect(code(await transcript.call("setMode", "{}")) == "invalidArguments")
        await transcript.call("setMode", "{\"mode\": \"move\", \"distance\": 50}")
        #expect(try app.store.setting(.configuration)?.mode.name == "move")
        #expect(code(await transcript.call("startActiveTracking", "{\"minutes\": 0}")) == "invalidArguments")
        await transcript.call("startActiveTracking", "{\"minutes\": 5}")
        await transcript.call("requestLocationUpdate")
        await transcript.call("stopTracking")
        #expect(code(await transcript.call("startActiveTracking", "{\"minutes\": 5}")) == "trackingDisabled")
        try await transcript.finish("tracking")
    }

    @Test("uploads configured from JavaScript: configure, setAuth, flush, getLocations with uploaded, signOut, clearLocations")
    func uploads() async throws {
        let server = try await TestServer.start()
        await server.state.setValidTokens(["device-token"])
        let app = try EngineHarness(uploader: { store, clock in Bridge.uploader(store: store, clock: clock) })
        let transcript = BridgeTranscript(Bridge(engine: app.engine))
        try await app.engine.launch(.user)
        await transcript.call("startTracking", "{\"mode\": \"continuous\"}")
        await app.play(to: 60)
        let waiting = try app.store.pendingRecords().count
        #expect(waiting > 0)
        #expect(code(await transcript.call("flush")) == "notConfigured")
        #expect(code(await transcript.call("configure", "{}")) == "invalidArguments")
        #expect(
            code(await transcript.call("configure", "{\"upload\": {\"kind\": \"whereabouts\", \"url\": \"ftp://x\", \"device\": \"p\"}}"))
                == "invalidArguments")
        #expect(
            code(await transcript.call("configure", "{\"upload\": {\"kind\": \"owntracks\", \"url\": \"https://x\"}}"))
                == "invalidArguments")
        #expect(code(await transcript.call("configure", "{\"upload\": {\"kind\": \"carrier-pigeon\"}}")) == "invalidArguments")
        let configure = "{\"upload\": {\"kind\": \"whereabouts\", \"url\": \"\(server.baseURL.absoluteString)\", \"device\": \"phone-1\"}}"
        await transcript.call("configure", configure)
        // The upload interval: set, refused (nothing changes then, the upload settings included),
        // and given back to the mode.
        let interval = { () throws -> TimeInterval? in try app.store.setting(.configuration)?.minimumFlushInterval }
        let elsewhere = "{\"upload\": {\"kind\": \"whereabouts\", \"url\": \"https://elsewhere.example\", \"device\": \"p\"}"
        await transcript.call("configure", String(configure.dropLast()) + ", \"uploadInterval\": 3600}")
        #expect(try interval() == 3600)
        for bad in ["-1", "86401", "\"hourly\""] {
            #expect(code(await transcript.call("configure", elsewhere + ", \"uploadInterval\": \(bad)}")) == "invalidArguments", "\(bad)")
        }
        #expect(try interval() == 3600)
        #expect(await app.engine.uploadAccount.settings?.url == server.baseURL, "a refused interval leaves the upload settings too")
        await transcript.call("configure", String(configure.dropLast()) + ", \"uploadInterval\": null}")
        #expect(try interval() == nil, "null gives the interval back to the mode")
        let signedOut = try #require(result(await transcript.call("flush")) as? [String: Any])
        #expect(signedOut["stoppedBy"] as? String == "signedOut")
        #expect(code(await transcript.call("setAuth", "{}")) == "invalidArguments")
        await transcript.call("setAuth", "{\"token\": \"device-token\", \"userId\": \"u1\"}")
        await transcript.call("stopTracking")
        await app.settle()
        let flushed = try #require(result(await transcript.call("flush")) as? [String: Any])
        #expect(flushed["stoppedBy"] is NSNull)
        #expect(try app.store.pendingRecords().isEmpty)
        #expect(await server.state.locations.count >= waiting)
        let all = try #require(
            result(await transcript.call("getLocations", "{\"includeUploaded\": true, \"limit\": 5}")) as? [[String: Any]])
        #expect(all.count == min(5, try app.store.allRecords().count))
        #expect(all.allSatisfy { $0["uploaded"] as? Bool == true })
        #expect((result(await transcript.call("getLocations")) as? [Any])?.isEmpty == true)
        await transcript.call("signOut")
        #expect(try app.store.setting(.authTokens) == nil)
        await transcript.call("configure", "{\"upload\": null}")
        #expect(await app.engine.uploadAccount.settings == nil, "null stops uploading")
        #expect(code(await transcript.call("flush")) == "notConfigured")
        let total = try app.store.allRecords().count
        #expect(result(await transcript.call("clearLocations")) as? [String: Int] == ["removed": total])
        #expect(try app.store.allRecords().isEmpty)
        #expect(await app.engine.snapshot().report.order.isEmpty)
        try await transcript.finish("uploads")
        await server.stop()
    }

    @Test("permissions in Capacitor's and Expo's conventions, and the permission event")
    func permissions() async throws {
        let harness = try EngineHarness()
        let phone = SimulatedPhone(truth: harness.truth, seed: 1, authorization: PlatformAuthorization(status: .notDetermined))
        phone.answers[.foreground] = PlatformAuthorization(status: .whenInUse)
        let store = try SQLiteLocationStore(path: temporaryFolder().appendingPathComponent("p.sqlite").path)
        let engine = LocationEngine(store: store, service: phone, clock: phone.clock)
        try await engine.launch(.user)
        let transcript = BridgeTranscript(Bridge(engine: engine))
        let unknown = try #require(result(await transcript.call("checkPermissions")) as? [String: Any])
        #expect(unknown["location"] as? String == "prompt")
        #expect(unknown["status"] as? String == "undetermined")
        #expect(code(await transcript.call("requestPermission", "{\"kind\": \"sideways\"}")) == "invalidArguments")
        let asked = try #require(result(await transcript.call("requestPermission", "{\"kind\": \"foreground\"}")) as? [String: Any])
        #expect(asked["location"] as? String == "granted", "it answers once the user has answered the dialog")
        #expect(asked["granted"] as? Bool == true)
        let answered = try #require(result(await transcript.call("checkPermissions")) as? [String: Any])
        #expect(answered["location"] as? String == "granted")
        #expect(answered["granted"] as? Bool == true)
        phone.setAuthorization(PlatformAuthorization(status: .denied))
        await phone.idle()
        let denied = try #require(result(await transcript.call("locationAction")) as? [String: Any])
        #expect(denied["location"] as? String == "denied")
        #expect(denied["canAskAgain"] as? Bool == false)
        #expect(code(await transcript.call("startTracking")) == "permissionDenied")
        try await transcript.finish("permissions")
    }
}
