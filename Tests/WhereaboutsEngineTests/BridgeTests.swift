import Foundation
import Testing
import Whereabouts
import WhereaboutsCore
import WhereaboutsSimulator
import WhereaboutsStore
import WhereaboutsTestSupport

/// One bridge call's answer as JSON, parsed.
private func answer(_ bridge: Bridge, _ method: String, _ arguments: String? = nil) async -> [String: Any] {
    let text = await bridge.call(method, json: arguments)
    return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? ["unparsable": text]
}

/// The error code of a call that must fail, or `nil` when it succeeded.
private func errorCode(_ bridge: Bridge, _ method: String, _ arguments: String? = nil) async -> String? {
    guard case .failure(let error) = await bridge.call(method, arguments: arguments.map { Data($0.utf8) }) else { return nil }
    #expect(error.message.hasPrefix(method) || error.code == "unknownMethod", "message should name the method: \(error.message)")
    return error.code
}

@Suite("Bridge: every method with good and bad arguments")
struct BridgeTests {
    let app: EngineHarness
    let bridge: Bridge

    init() throws {
        app = try EngineHarness()
        bridge = Bridge(engine: app.engine)
    }

    @Test("an unknown method, a non-object and malformed JSON are errors with a message, never a crash")
    func malformedCalls() async {
        #expect(await errorCode(bridge, "teleport") == "unknownMethod")
        #expect(await errorCode(bridge, "startTracking", "[1, 2]") == "invalidArguments")
        #expect(await errorCode(bridge, "startTracking", "{\"mode\": ") == "invalidArguments")
        #expect(await errorCode(bridge, "startTracking", "\"adaptive\"") == "invalidArguments")
        let reply = await answer(bridge, "teleport")
        let error = reply["error"] as? [String: Any]
        #expect(error?["code"] as? String == "unknownMethod")
        #expect((error?["message"] as? String)?.contains("startTracking") == true)
    }

    @Test("options the glue hands over that JSON cannot hold (NaN, infinity) are refused naming the value, never sent as none")
    func nonJSONOptions() async throws {
        let cases: [([AnyHashable: Any], String)] = [
            (["mode": "move", "distance": Double.nan], #""distance""#),
            (["regions": [["id": "a", "latitude": 52.5, "longitude": 13.4, "radius": Double.infinity]]], #""regions[0].radius""#),
        ]
        for (options, path) in cases {
            let outcome = Outcome<BridgeError?>()
            bridge.forward(
                options["regions"] == nil ? "startTracking" : "addRegions", options: options, resolve: { _ in outcome.set(nil) },
                reject: { outcome.set($0) })
            #expect(await eventually { outcome.value != nil })
            let error = try #require(outcome.value ?? nil, "\(options) was taken")
            #expect(error.code == "invalidArguments")
            #expect(error.message.contains(path), "\(error.message)")
        }
        #expect(await !app.engine.isTrackingEnabled, "tracking did not start on the old settings")
    }

    @Test("calls the glue forwards run in the order JavaScript made them, without waiting for each other's answers")
    func forwardedCallsKeepTheirOrder() async throws {
        let answered = Outcome<[Int]>()
        answered.set([])
        let count = 200
        for call in 0..<count {
            let (method, options): (String, [AnyHashable: Any]) =
                call % 2 == 0
                ? ("setRegions", ["regions": [["id": "r\(call)", "latitude": 52.5, "longitude": 13.4, "radius": 100]]])
                : ("getRegions", [:])
            bridge.forward(
                method, options: options,
                resolve: { value in
                    // Each read sees the regions the call just before it set.
                    let seen = (value as? [[String: Any]])?.first?["id"] as? String
                    answered.update { $0.append(method == "getRegions" && seen != "r\(call - 1)" ? -call : call) }
                }, reject: { _ in answered.update { $0.append(-call) } })
        }
        #expect(await eventually { answered.value?.count == count })
        #expect(answered.value == Array(0..<count), "answered out of order or on stale regions: \(answered.value ?? [])")
        #expect(try await app.engine.regions().map(\.id) == ["r\(count - 2)"])
    }

    @Test("a forwarded call that waits for a fix does not hold up the calls after it")
    func waitingCallLetsOthersPass() async throws {
        let answered = Outcome<[String]>()
        answered.set([])
        for (method, options) in [("addRegionHere", ["id": "here", "radius": 50, "timeout": 5]), ("getRegions", [:])]
            as [(String, [AnyHashable: Any])]
        {
            bridge.forward(
                method, options: options, resolve: { _ in answered.update { $0.append(method) } },
                reject: { _ in answered.update { $0.append(method) } })
        }
        // The harness's phone gives no fix, so addRegionHere is still waiting when getRegions answers.
        #expect(await eventually { answered.value == ["getRegions"] })
    }

    @Test("startTracking and stopTracking, with and without a mode")
    func startStop() async throws {
        #expect(await errorCode(bridge, "startTracking", "{\"mode\": \"teleport\"}") == "invalidArguments")
        #expect(await errorCode(bridge, "startTracking", "{\"mode\": 5}") == "invalidArguments")
        #expect(await errorCode(bridge, "startTracking", "{\"distance\": 50}") == "invalidArguments")
        #expect(await errorCode(bridge, "startTracking", "{\"mode\": \"move\", \"distance\": -5}") == "invalidArguments")
        #expect(await errorCode(bridge, "startTracking", "{\"mode\": \"continuous\", \"accuracy\": \"perfect\"}") == "invalidArguments")
        #expect(await !app.engine.isTrackingEnabled)

        #expect(
            await bridge.call("startTracking", json: "{\"mode\": \"move\", \"distance\": 50, \"interval\": 120}") == "{\"result\":null}")
        #expect(await app.engine.mode == .move(distance: 50, interval: 120))
        #expect(try app.store.setting(.trackingEnabled) == true)
        #expect(await bridge.call("startTracking", json: nil) == "{\"result\":null}")
        #expect(await app.engine.mode == .move(distance: 50, interval: 120))
        #expect(await bridge.call("stopTracking", json: "{}") == "{\"result\":null}")
        #expect(try app.store.setting(.trackingEnabled) == false)
    }

    @Test("getCurrentLocation is null before any fix, then the newest fix; getLocations lists the pending queue")
    func locations() async throws {
        #expect(await bridge.call("getCurrentLocation", json: nil) == "{\"result\":null}")
        #expect(await answer(bridge, "getLocations")["result"] as? [Any] != nil)
        _ = await bridge.call("startTracking", json: "{\"mode\": \"continuous\"}")
        await app.play(to: 300)
        let current = try #require(await answer(bridge, "getCurrentLocation")["result"] as? [String: Any])
        let last = try #require(await app.engine.currentLocation())
        #expect(last.timestamp.timeIntervalSince1970 == app.phone.now, "continuous GPS delivered a fix this second")
        #expect(abs(try #require(current["lat"] as? Double) - last.coordinate.latitude) < 1e-12)
        #expect(abs(try #require(current["lng"] as? Double) - last.coordinate.longitude) < 1e-12)
        #expect((current["timestamp"] as? NSNumber)?.int64Value == JavaScriptTime.milliseconds(last.timestamp))
        #expect(Set(current.keys) == ["lat", "lng", "timestamp"])

        let pending = try #require(await answer(bridge, "getLocations")["result"] as? [[String: Any]])
        #expect(pending.count == (try app.store.pendingRecords().count))
        #expect(pending.first.map { Set($0.keys) } == ["id", "latitude", "longitude", "timestamp", "accuracy", "dwell", "uploaded"])
        #expect(await errorCode(bridge, "getLocations", "[]") == "invalidArguments")
    }

    @Test("getLocationData has the story app's shape; requestLocationUpdate sets lastTriedAt")
    func locationData() async throws {
        let first = try #require(await answer(bridge, "getLocationData")["result"] as? [String: Any])
        #expect(
            Set(first.keys) == [
                "lastTriedAt", "lastLocation", "fence", "report", "foregroundPermission", "backgroundPermission", "setupProblems",
            ])
        #expect(first["setupProblems"] as? [Any] != nil, "an empty list where nothing is missing")
        #expect(first["lastTriedAt"] is NSNull)
        #expect(await bridge.call("requestLocationUpdate", json: "{}") == "{\"result\":null}")
        let data = try #require(await answer(bridge, "getLocationData")["result"] as? [String: Any])
        #expect((data["lastTriedAt"] as? NSNumber)?.int64Value == JavaScriptTime.milliseconds(Date(timeIntervalSince1970: app.phone.now)))
        await app.play(to: 30)
        let after = try #require(await answer(bridge, "getLocationData")["result"] as? [String: Any])
        let last = try #require(after["lastLocation"] as? [String: Any])
        #expect(Set(last.keys) == ["id", "latitude", "longitude", "timestamp"])
        let report = try #require(after["report"] as? [String: Any])
        #expect((report["order"] as? [String])?.count == 1)
    }

    @Test("startActiveTracking takes 1...1440 minutes and needs tracking on")
    func activeTracking() async {
        #expect(await errorCode(bridge, "startActiveTracking", "{\"minutes\": 10}") == "trackingDisabled")
        _ = await bridge.call("startTracking", json: "{\"mode\": \"significant\"}")
        #expect(await errorCode(bridge, "startActiveTracking", "{}") == "invalidArguments")
        #expect(await errorCode(bridge, "startActiveTracking", "{\"minutes\": \"ten\"}") == "invalidArguments")
        #expect(await errorCode(bridge, "startActiveTracking", "{\"minutes\": 0}") == "invalidArguments")
        #expect(await errorCode(bridge, "startActiveTracking", "{\"minutes\": 1441}") == "invalidArguments")
        #expect(await bridge.call("startActiveTracking", json: "{\"minutes\": 10}") == "{\"result\":null}")
        #expect(await app.engine.mode == .continuous(accuracy: .best, distanceFilter: nil))
    }

    @Test("checkPermissions, requestPermission and locationAction answer the records and the problems")
    func permissions() async throws {
        let phone = SimulatedPhone(truth: app.truth, seed: 1, authorization: PlatformAuthorization(status: .notDetermined))
        phone.answers[.foreground] = PlatformAuthorization(status: .whenInUse)
        let store = try SQLiteLocationStore(path: temporaryFolder().appendingPathComponent("p.sqlite").path)
        let bridge = Bridge(engine: LocationEngine(store: store, service: phone, clock: phone.clock))

        let unknown = try #require(await answer(bridge, "checkPermissions")["result"] as? [String: Any])
        #expect(unknown["foregroundPermission"] is NSNull)
        #expect(unknown["backgroundPermission"] is NSNull)
        #expect(await errorCode(bridge, "requestPermission", "{\"kind\": \"sideways\"}") == "invalidArguments")
        #expect(await errorCode(bridge, "requestPermission", "{}") == "invalidArguments")
        let asked = try #require(await answer(bridge, "requestPermission", "{\"kind\": \"foreground\"}")["result"] as? [String: Any])
        #expect(phone.authorizationRequests == [.foreground])
        let foreground = try #require(asked["foregroundPermission"] as? [String: Any])
        #expect(foreground["requestedAt"] is NSNumber)
        let checked = try #require(await answer(bridge, "checkPermissions")["result"] as? [String: Any])
        #expect((checked["foregroundPermission"] as? [String: Any])?["isGranted"] as? Bool == true)
        #expect(phone.authorizationRequests == [.foreground, .background])

        phone.setAuthorization(PlatformAuthorization(status: .denied))
        let denied = try #require(await answer(bridge, "locationAction")["result"] as? [String: Any])
        #expect((denied["problems"] as? [[String: Any]])?.first?["code"] as? String == "foregroundDenied")
        #expect(phone.settingsOpened == 1)
        #expect(await errorCode(bridge, "startTracking", "{}") == "permissionDenied")
    }

    @Test("addRegions, removeRegions and getRegions, with bad regions refused whole")
    func regions() async throws {
        let circle = "{\"id\": \"cafe\", \"latitude\": 52.52, \"longitude\": 13.405, \"radius\": 80, \"loiteringDelay\": 120}"
        #expect(await errorCode(bridge, "addRegions", "{}") == "invalidArguments")
        #expect(await errorCode(bridge, "addRegions", "{\"regions\": {}}") == "invalidArguments")
        #expect(
            await errorCode(bridge, "addRegions", "{\"regions\": [{\"id\": \"x\", \"latitude\": 91, \"longitude\": 0, \"radius\": 50}]}")
                == "invalidArguments")
        #expect(
            await errorCode(bridge, "addRegions", "{\"regions\": [{\"id\": \"x\", \"latitude\": 1, \"longitude\": 0, \"radius\": -5}]}")
                == "invalidArguments")
        #expect(
            await errorCode(bridge, "addRegions", "{\"regions\": [{\"id\": \"\", \"latitude\": 1, \"longitude\": 0, \"radius\": 5}]}")
                == "invalidArguments")
        #expect(await errorCode(bridge, "addRegions", "{\"regions\": [\(circle), \(circle)]}") == "duplicateRegion")
        #expect(await errorCode(bridge, "addRegions", "{\"geojson\": \"{\\\"type\\\": \"}") == "invalidArguments")
        #expect(await errorCode(bridge, "addRegions", "{\"regions\": [], \"geojson\": \"{}\"}") == "invalidArguments")
        #expect(try await app.engine.regions().isEmpty)

        #expect(await bridge.call("addRegions", json: "{\"regions\": [\(circle)]}") == "{\"result\":{\"added\":1}}")
        let geojson = """
            {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"id": "park"}, "geometry": \
            {"type": "Polygon", "coordinates": [[[13.40, 52.51], [13.41, 52.51], [13.41, 52.52], [13.40, 52.51]]]}}]}
            """
        let encoded = String(decoding: try JSONEncoder().encode(["geojson": geojson]), as: UTF8.self)
        #expect(await bridge.call("addRegions", json: encoded) == "{\"result\":{\"added\":1}}")
        let listed = try #require(await answer(bridge, "getRegions")["result"] as? [[String: Any]])
        #expect(listed.map { $0["id"] as? String } == ["cafe", "park"])
        #expect(listed.map { $0["shape"] as? String } == ["circle", "polygon"])
        #expect(listed.first?["loiteringDelay"] as? Double == 120)

        #expect(await errorCode(bridge, "removeRegions", "{\"ids\": \"cafe\"}") == "invalidArguments")
        #expect(await bridge.call("removeRegions", json: "{\"ids\": [\"cafe\"]}") == "{\"result\":null}")
        #expect(try await app.engine.regions().map(\.id) == ["park"])
    }

    @Test("events push locationData, location and region as JSON")
    func events() async throws {
        let app = try EngineHarness(scenario: walkOutScenario(), pad: 0)
        let bridge = Bridge(engine: app.engine)
        let events = bridge.events()
        try await app.engine.launch(.user)
        #expect(
            await bridge.call(
                "addRegions", json: "{\"regions\": [{\"id\": \"home\", \"latitude\": 48.1372, \"longitude\": 11.5756, \"radius\": 150}]}")
                == "{\"result\":{\"added\":1}}")
        _ = await bridge.call("startTracking", json: "{\"mode\": \"continuous\"}")
        await app.play(to: 120)
        await app.engine.shutdown()
        var names: Set<BridgeEventName> = []
        var region: [String: Any]?
        for await event in events {
            names.insert(event.name)
            let body = try JSONSerialization.jsonObject(with: event.body) as? [String: Any]
            #expect(body != nil)
            if event.name == .region, region == nil { region = body }
        }
        #expect(names == [.locationData, .location, .region])
        #expect(region?["regionId"] as? String == "home")
        #expect(region?["kind"] as? String == "enter")
    }

    /// A notifier whose permission dialog stays on screen until the test answers it.
    final class DialogNotifier: RegionNotificationControl, @unchecked Sendable {
        private let lock = NSLock()
        private var waiting: CheckedContinuation<Bool, Never>?

        func apply(_ settings: RegionNotificationSettings) async -> Bool {
            await withCheckedContinuation { continuation in lock.withLock { waiting = continuation } }
        }

        var isAsking: Bool { lock.withLock { waiting != nil } }

        func answer(_ allowed: Bool) { lock.withLock { waiting }?.resume(returning: allowed) }
    }

    /// Bug: configureNotifications held up every later call until the user answered the
    /// notification dialog, with no time limit.
    @Test("calls forwarded after configureNotifications run while its dialog waits for the user")
    func notificationDialogHoldsNothingUp() async throws {
        let notifier = DialogNotifier()
        let bridge = Bridge(engine: app.engine, notifications: notifier)
        let answered = Outcome<[String]>()
        answered.set([])
        for (method, options) in [("configureNotifications", ["enabled": true]), ("getRegions", [:])] as [(String, [AnyHashable: Any])] {
            bridge.forward(
                method, options: options, resolve: { _ in answered.update { $0.append(method) } },
                reject: { _ in answered.update { $0.append(method) } })
        }
        #expect(await eventually { answered.value == ["getRegions"] && notifier.isAsking })
        notifier.answer(true)
        #expect(await eventually { answered.value == ["getRegions", "configureNotifications"] })
    }

    @Test("configureNotifications stores the settings; without a notifier nothing is allowed; bad kinds and actions are refused")
    func notifications() async throws {
        #expect(await errorCode(bridge, "configureNotifications", #"{"enabled": true, "kinds": ["wander"]}"#) == "invalidArguments")
        #expect(
            await errorCode(
                bridge, "configureNotifications", #"{"enabled": true, "actions": [{"id": "a", "title": "A"}, {"id": "a", "title": "B"}]}"#)
                == "invalidArguments")
        #expect(await errorCode(bridge, "configureNotifications", #"{"kinds": ["exit"]}"#) == "invalidArguments", "enabled is required")
        let reply = await answer(bridge, "configureNotifications", #"{"enabled": true, "kinds": ["exit"], "category": "LEFT"}"#)
        #expect(reply["result"] as? [String: Bool] == ["enabled": true, "allowed": false])
        let stored = try #require(try app.store.setting(.regionNotifications))
        #expect(stored.kinds == [.exit] && stored.categoryIdentifier == "LEFT" && stored.enabled)
    }

    @Test("addRegionHere refuses a bad radius, accuracy or timeout before asking for any fix")
    func regionHereArguments() async throws {
        #expect(await errorCode(bridge, "addRegionHere", #"{"id": "here"}"#) == "invalidArguments")
        #expect(await errorCode(bridge, "addRegionHere", #"{"id": "here", "radius": -5}"#) == "invalidArguments")
        #expect(await errorCode(bridge, "addRegionHere", #"{"id": "", "radius": 50}"#) == "invalidArguments")
        #expect(await errorCode(bridge, "addRegionHere", #"{"id": "here", "radius": 50, "accuracy": 0}"#) == "invalidArguments")
        #expect(await errorCode(bridge, "addRegionHere", #"{"id": "here", "radius": 50, "timeout": 600}"#) == "invalidArguments")
        #expect(try await app.engine.regions().isEmpty)
    }

    @Test("a bad argument gets invalidArguments whether the bridge or the engine finds it, with the shape to send")
    func oneCodeForBadArguments() async throws {
        let circle = #"{"regions": [{"id": "x", "latitude": 1, "longitude": 0, "radius": -1}]}"#
        #expect(await errorCode(bridge, "addRegions", circle) == "invalidArguments", "the bridge's check")
        #expect(await errorCode(bridge, "addRegionHere", #"{"id": "here", "radius": -1}"#) == "invalidArguments", "the engine's check")
        #expect(
            await errorCode(bridge, "markRegion", #"{"id": "9b2e0c1e-0000-7000-8000-000000000000", "radius": -1}"#) == "invalidArguments")
        let reply = await answer(bridge, "addRegionHere", #"{"id": "here", "radius": -1}"#)
        let message = try #require((reply["error"] as? [String: Any])?["message"] as? String)
        #expect(message.hasPrefix("addRegionHere: ") && message.contains("radius") && message.contains("; pass {\"id\""), "\(message)")
        #expect(!BridgeError.codes.contains("invalidArgument"))
    }

    @Test("configure refuses upload settings that can never work, naming each field, the problem and the fix")
    func uploadSettingsThatCannotWork() async throws {
        let app = try EngineHarness(uploader: { store, clock in Bridge.uploader(store: store, clock: clock) })
        let bridge = Bridge(engine: app.engine)
        let cases: [(String, [String])] = [
            (
                #"{"kind": "whereabouts", "url": "https://", "device": ""}"#,
                ["upload.url \"https://\" has no host", "upload.device is empty"]
            ),
            (#"{"kind": "whereabouts", "url": "https:foo", "device": "phone"}"#, ["upload.url \"https:foo\" has no host"]),
            (#"{"kind": "whereabouts", "url": "https://x.example", "device": "a/b"}"#, ["upload.device \"a/b\" contains \"/\" or \"..\""]),
            (#"{"kind": "whereabouts", "url": "https://x.example", "device": ".."}"#, ["upload.device \"..\" contains"]),
            (#"{"kind": "owntracks", "url": "https://x.example", "user": " ", "device": "p"}"#, ["upload.user is empty"]),
            (#"{"kind": "firestore", "project": "", "apiKey": ""}"#, ["upload.project is empty", "upload.apiKey is empty"]),
        ]
        for (upload, problems) in cases {
            let reply = await answer(bridge, "configure", "{\"upload\": \(upload)}")
            let error = try #require(reply["error"] as? [String: Any], "\(upload) was taken")
            #expect(error["code"] as? String == "invalidArguments")
            let message = error["message"] as? String ?? ""
            for problem in problems { #expect(message.contains(problem), "\(message) should say \(problem)") }
            #expect(message.contains("; pass "), "\(message) should say what to pass")
        }
        #expect(await app.engine.uploadAccount.settings == nil, "nothing was configured")
        let good = #"{"upload": {"kind": "whereabouts", "url": "https://tracks.example.com/api", "device": "phone-1"}}"#
        #expect(await bridge.call("configure", json: good) == "{\"result\":null}")
    }

    @Test("options forwarded as JSON text keep their nulls: configure({upload: null}) stops uploading; no text is no options")
    func forwardedJSON() async throws {
        let app = try EngineHarness(uploader: { store, clock in Bridge.uploader(store: store, clock: clock) })
        let bridge = Bridge(engine: app.engine)
        let answers = Outcome<[String]>()
        answers.set([])
        let calls: [(String, String?)] = [
            ("configure", #"{"upload": {"kind": "whereabouts", "url": "https://tracks.example.com", "device": "p"}}"#),
            ("configure", #"{"upload": null}"#), ("flush", "{}"), ("setMode", nil), ("getLocations", nil),
        ]
        for (method, json) in calls {
            bridge.forward(
                method, json: json, resolve: { _ in answers.update { $0.append("\(method): ok") } },
                reject: { error in answers.update { $0.append("\(method): \(error.code)") } })
        }
        #expect(await eventually { answers.value?.count == calls.count })
        #expect(
            Set(answers.value ?? []) == [
                "configure: ok", "flush: notConfigured", "setMode: invalidArguments", "getLocations: ok",
            ])
        #expect(await app.engine.uploadAccount.settings == nil)
    }

    @Test("requestPermission and locationAction answer once the user has answered the dialog they showed, and at once when none showed")
    func permissionAnswerWaitsForTheUser() async throws {
        // No answers set: each dialog stays up until the test answers it, as a user who takes a while.
        let phone = SimulatedPhone(truth: app.truth, seed: 1, authorization: PlatformAuthorization(status: .notDetermined))
        phone.setForeground(true)
        let store = try SQLiteLocationStore(path: temporaryFolder().appendingPathComponent("p.sqlite").path)
        let bridge = Bridge(engine: LocationEngine(store: store, service: phone, clock: phone.clock))
        /// Forwards a permission call; the outcome gets its `location`, `backgroundLocation` and `granted`.
        func ask(_ method: String, _ options: [AnyHashable: Any]) -> Outcome<[String]> {
            let outcome = Outcome<[String]>()
            bridge.forward(
                method, options: options,
                resolve: { value in
                    let result = value as? [String: Any] ?? [:]
                    outcome.set(["location", "backgroundLocation", "granted"].map { "\(result[$0] ?? "none")" })
                }, reject: { outcome.set(["error", $0.code]) })
            return outcome
        }

        let foreground = ask("requestPermission", ["kind": "foreground"])
        #expect(await eventually { phone.authorizationRequests == [.foreground] })
        let later = Outcome<Bool>()
        bridge.forward("getRegions", options: [:], resolve: { _ in later.set(true) }, reject: { _ in later.set(false) })
        #expect(await eventually { later.value == true }, "a call after it is not held up while the dialog shows")
        #expect(foreground.value == nil, "answered while the dialog was showing")
        phone.setAuthorization(PlatformAuthorization(status: .whenInUse))
        #expect(await eventually { foreground.value != nil })
        #expect(foreground.value == ["granted", "prompt", "1"], "the user's answer")

        let background = ask("requestPermission", ["kind": "background"])
        #expect(await eventually { phone.authorizationRequests == [.foreground, .background] })
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(background.value == nil, "answered while the Always dialog was showing")
        phone.setAuthorization(PlatformAuthorization(status: .always))
        #expect(await eventually { background.value != nil })
        #expect(background.value == ["granted", "granted", "1"])

        // Nothing left to ask: no dialog, so the answer comes at once.
        let none = try #require(await answer(bridge, "locationAction")["result"] as? [String: Any])
        #expect(none["granted"] as? Bool == true)
        #expect(phone.authorizationRequests == [.foreground, .background])
    }

    @Test("a permission dialog the OS never reports an answer to (keeping While Using in the Always dialog) answers after 30 s")
    func permissionAnswerTimesOut() async throws {
        let phone = SimulatedPhone(truth: app.truth, seed: 1, authorization: PlatformAuthorization(status: .whenInUse))
        phone.setForeground(true)
        let store = try SQLiteLocationStore(path: temporaryFolder().appendingPathComponent("p.sqlite").path)
        let bridge = Bridge(engine: LocationEngine(store: store, service: phone, clock: phone.clock))
        let reply = Outcome<String>()
        bridge.forward(
            "requestPermission", options: ["kind": "background"],
            resolve: { value in reply.set("\((value as? [String: Any])?["backgroundLocation"] ?? "none")") },
            reject: { reply.set($0.code) })
        #expect(await eventually { phone.authorizationRequests == [.background] })
        let asked = phone.now
        // The phone's seconds pass one by one, each once the app has done all it can; the wait
        // starts after the dialog was asked for, so its end is 30 s after that at the earliest.
        while reply.value == nil, phone.now < asked + 3 * Bridge.permissionAnswerWait {
            try await Task.sleep(nanoseconds: 5_000_000)
            await phone.advance(to: phone.now + 1)
        }
        #expect(await eventually { reply.value != nil })
        #expect(phone.now - asked >= Bridge.permissionAnswerWait, "answered before the wait was over")
        #expect(reply.value == "denied", "asked and not granted: only Settings can grant it now")
    }
}
