import Foundation
import Testing
import Whereabouts
import WhereaboutsCore
import WhereaboutsSimulator
import WhereaboutsTestServer

/// One stretch of the story's ground truth: standing still, or heading east at a steady pace.
private enum Leg {
    case still(seconds: Int)
    case east(metres: Double, seconds: Int)
}

/// Where the story starts (the OwnTracks user's home) and when.
private let home = try! Coordinate(latitude: 48.1372, longitude: 11.5756)
private let storyStart = 1_714_980_600.0

/// A scenario walking `legs` from home, one point a second.
private func story(_ name: String, _ legs: [Leg]) -> Scenario {
    var trace: [TracePoint] = []
    var position = home
    for leg in legs {
        let (seconds, step) =
            switch leg {
            case .still(let seconds): (seconds, 0.0)
            case .east(let metres, let seconds): (seconds, metres / Double(seconds))
            }
        for _ in 0..<seconds {
            trace.append(TracePoint(coordinate: position, time: storyStart + Double(trace.count)))
            position = Geodesy.destination(from: position, distance: step, bearing: 90)
        }
    }
    trace.append(TracePoint(coordinate: position, time: storyStart + Double(trace.count)))
    return Scenario(name: name, trace: trace, regions: [])
}

/// The OwnTracks-style app: its JavaScript calling the bridge on a simulated phone, with a real store,
/// publishing to a real local server over OwnTracks' HTTP mode.
private final class OwnTracksApp: @unchecked Sendable {
    let phone: EngineHarness
    let bridge: Bridge
    let server: TestServer
    private let lock = NSLock()
    private var pushed: [BridgeEvent] = []
    private var listener: Task<Void, Never>?

    init(_ scenario: Scenario) async throws {
        server = try await TestServer.start()
        phone = try EngineHarness(scenario: scenario, pad: 0, uploader: { store, clock in Bridge.uploader(store: store, clock: clock) })
        bridge = Bridge(engine: phone.engine)
        let events = bridge.events()
        listener = Task { [weak self] in
            for await event in events { self?.lock.withLock { self?.pushed.append(event) } }
        }
        try await phone.engine.launch(.user)
        try await phone.engine.appDidBecomeActive()
        #expect(
            try await call(
                "configure",
                "{\"upload\": {\"kind\": \"owntracks\", \"url\": \"\(server.baseURL)/pub\", \"user\": \"jane\", \"device\": \"phone\"}}")
                is NSNull)
    }

    /// Calls a method as JavaScript does; the result, or a failed expectation and the error.
    @discardableResult
    func call(_ method: String, _ arguments: String = "{}", sourceLocation: SourceLocation = #_sourceLocation) async throws -> Any {
        let text = await bridge.call(method, json: arguments)
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return try #require(reply["result"], "\(method) failed: \(text)", sourceLocation: sourceLocation)
    }

    /// The error a call must fail with: its code and message.
    func failure(_ method: String, _ arguments: String) async -> (code: String, message: String) {
        guard case .failure(let error) = await bridge.call(method, arguments: Data(arguments.utf8)) else { return ("none", "") }
        return (error.code, error.message)
    }

    /// Every stored location, uploaded or not, oldest first (`getLocations` with `includeUploaded`).
    func locations() async throws -> [[String: Any]] {
        try #require(try await call("getLocations", "{\"includeUploaded\": true}") as? [[String: Any]])
    }

    /// Publishes what is pending now (`flush`): the report's delivered count.
    @discardableResult
    func publish() async throws -> Int {
        let report = try #require(try await call("flush") as? [String: Any])
        return report["delivered"] as? Int ?? -1
    }

    /// Starts tracking with `arguments` in the background and plays the story: only the start's
    /// location until `quietUntil` seconds, then exactly one more by `oneMoreBy`; answers the two.
    func backgroundPublishes(
        _ arguments: String, quietUntil: Double, oneMoreBy: Double, _ why: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (first: [String: Any], second: [String: Any]) {
        try await phone.background()
        try await call("startTracking", arguments)
        await phone.play(to: quietUntil)
        #expect(try await locations().count == 1, "only the start's location: \(why)", sourceLocation: sourceLocation)
        await phone.play(to: oneMoreBy)
        let locations = try await locations()
        try #require(locations.count == 2, "one location more: \(why)", sourceLocation: sourceLocation)
        return (locations[0], locations[1])
    }

    /// Whether the device is inside each region, as `getRegions` lists them.
    func regionInside() async throws -> [Bool] {
        try #require(try await call("getRegions") as? [[String: Any]]).map { $0["inside"] as? Bool ?? false }
    }

    /// What the server stored of one `_type`, in the order of their `tst`.
    func received(_ type: String) async -> [[String: String]] {
        await server.state.ownTracks.values.filter { $0["_type"] == type }.sorted { seconds($0) < seconds($1) }
    }

    /// The region events JavaScript was pushed, oldest first: `(regionId, kind, initial)`.
    var regionEvents: [(id: String, kind: String, initial: Bool)] {
        lock.withLock { pushed }.filter { $0.name == .region }.compactMap { event in
            guard let body = try? JSONSerialization.jsonObject(with: event.body) as? [String: Any] else { return nil }
            return (body["regionId"] as? String ?? "", body["kind"] as? String ?? "", body["initial"] as? Bool ?? false)
        }
    }

    func stop() async {
        listener?.cancel()
        await server.stop()
    }
}

/// A message's `tst` in seconds since the story started.
private func seconds(_ message: [String: String]) -> Double { (Double(message["tst"] ?? "") ?? .nan) - storyStart }

/// A stored location's time in seconds since the story started.
private func seconds(_ location: [String: Any]) -> Double {
    ((location["timestamp"] as? NSNumber)?.doubleValue ?? .nan) / 1000 - storyStart
}

/// Metres between two stored locations.
private func distance(_ a: [String: Any], _ b: [String: Any]) -> Double {
    func coordinate(_ l: [String: Any]) -> Coordinate {
        try! Coordinate(latitude: l["latitude"] as? Double ?? 0, longitude: l["longitude"] as? Double ?? 0)
    }
    return Geodesy.distance(coordinate(a), coordinate(b))
}

/// OwnTracks' "How obtaining location is implemented" (seed 002), told in its order by the developer
/// of an OwnTracks-style app: Android's interval and displacement, iOS's move, significant and manual
/// modes, and regions marked on published locations.
@Suite("Seed002 OwnTracks: location publication modes and regions", .serialized)
struct Seed002OwnTracksTests {
    @Test("Android: an update only after the interval AND a displacement of 50 m in the foreground, 500 m in the background")
    func androidIntervalAndDisplacement() async throws {
        let app = try await OwnTracksApp(story("android-walk", [.east(metres: 900, seconds: 600), .east(metres: 1800, seconds: 1200)]))
        try await app.call("startTracking", "{\"mode\": \"interval\", \"interval\": 60}")
        await app.phone.play(to: 600)
        let foreground = try await app.locations()
        #expect(foreground.count >= 8, "in the foreground a 90 m minute passes the 50 m displacement: \(foreground.count)")
        try await app.phone.background()
        await app.phone.play(to: 1800)
        let background = Array(try await app.locations().dropFirst(foreground.count))
        #expect((2...4).contains(background.count), "1800 m walked in the background is three 500 m displacements: \(background.count)")
        for (earlier, later) in zip([foreground.last!] + background, background) {
            #expect(distance(earlier, later) >= 450, "a background update needs 500 m moved")
            #expect(seconds(later) - seconds(earlier) >= 60, "and the interval passed")
        }
        #expect(try await app.publish() == foreground.count + background.count)
        #expect(await app.received("location").count == foreground.count + background.count)
        await app.stop()
    }

    @Test("Android: interval 10 min, 1000 m in 5 min: the update comes after 10 minutes, not after 5")
    func androidTenMinutes() async throws {
        let app = try await OwnTracksApp(
            story("android-drive", [.still(seconds: 30), .east(metres: 1000, seconds: 300), .still(seconds: 900)]))
        let (first, second) = try await app.backgroundPublishes(
            "{\"mode\": \"interval\", \"interval\": 600}", quietUntil: 400, oneMoreBy: 700,
            "1000 m moved, but 10 minutes have not passed")
        #expect(seconds(second) - seconds(first) >= 600)
        #expect(seconds(second) < 620, "published as soon as the 10 minutes passed")
        await app.stop()
    }

    @Test(
        "iOS MOVE mode: a location every 100 m or every 300 s, whatever happens first; still, the location is published again every 300 s")
    func moveMode() async throws {
        let app = try await OwnTracksApp(story("move", [.still(seconds: 1800), .east(metres: 900, seconds: 600)]))
        try await app.call("startTracking", "{\"mode\": \"move\"}")
        await app.phone.play(to: 60)
        #expect(try await app.publish() == 1, "the first fix is published")
        let stay = try #require(try await app.locations().first)
        for period in 1...5 {
            await app.phone.play(to: seconds(stay) + Double(period) * 300 + 5)
            let locations = try await app.locations()
            #expect(locations.count == 1, "a 30-minute stop is one record, updated")
            #expect(locations.first?["id"] as? String == stay["id"] as? String)
            let dwell = locations.first?["dwell"] as? Double ?? 0
            #expect(dwell >= Double(period) * 300 - 5, "after \(period * 300) s the stay's location was published again: dwell \(dwell)")
            #expect(locations.first?["uploaded"] as? Bool == false, "the update waits to be published")
            #expect(try await app.publish() == 1)
        }
        let stayMessages = await app.received("location").map(seconds)
        #expect(stayMessages.count == 6, "the server saw the stay's location at the start and every 300 s: \(stayMessages)")
        for (earlier, later) in zip(stayMessages, stayMessages.dropFirst()) { #expect((295...310).contains(later - earlier)) }
        await app.phone.play(to: 2400)
        let moving = Array(try await app.locations().dropFirst())
        #expect((7...10).contains(moving.count), "900 m walked in 10 minutes: a location every 100 m, first: \(moving.count)")
        await app.stop()
    }

    @Test("iOS SIGNIFICANT mode: nothing while still for hours, one location after 500 m and 5 min, one for 10 km in 5 min")
    func significantMode() async throws {
        let app = try await OwnTracksApp(
            story("significant", [.still(seconds: 7200), .east(metres: 10_000, seconds: 300), .still(seconds: 1200)]))
        let (first, second) = try await app.backgroundPublishes(
            "{\"mode\": \"significant\"}", quietUntil: 7200, oneMoreBy: 8700, "two hours still, then 10 km in 5 minutes: one location")
        #expect(distance(first, second) >= 500)
        #expect(seconds(second) - seconds(first) >= 300)
        await app.stop()
    }

    @Test("iOS MANUAL mode: nothing in the background; the location button publishes the current location")
    func manualMode() async throws {
        let app = try await OwnTracksApp(story("manual", [.still(seconds: 60), .east(metres: 2000, seconds: 900), .still(seconds: 300)]))
        try await app.call("startTracking", "{\"mode\": \"manual\"}")
        try await app.phone.background()
        await app.phone.play(to: 1200)
        #expect(try await app.locations().isEmpty, "no location monitored in the background")
        try await app.call("requestLocationUpdate")
        await app.phone.play(to: 1230)
        let button = try await app.locations()
        #expect(button.count == 1)
        #expect(try await app.publish() == 1)
        #expect(await app.received("location").map { $0["t"] } == ["u"], "published as the user's request")
        await app.stop()
    }

    @Test("REGION monitoring: mark a published location as a region with a radius; leaving and entering publish; radius 0 unmarks")
    func regions() async throws {
        let app = try await OwnTracksApp(
            story(
                "regions",
                [
                    .still(seconds: 120), .east(metres: 1500, seconds: 900), .still(seconds: 300), .east(metres: -1500, seconds: 900),
                    .still(seconds: 300), .east(metres: 1500, seconds: 900), .still(seconds: 300),
                ]))
        try await app.call("startTracking", "{\"mode\": \"manual\"}")
        try await app.call("requestLocationUpdate")
        await app.phone.play(to: 60)
        let published = try #require(try await app.locations().first)
        let id = try #require(published["id"] as? String)
        #expect(try await app.publish() == 1)

        #expect(
            await app.failure("markRegion", "{\"id\": \"9b2e0c1e-0000-7000-8000-000000000000\", \"radius\": 100}").code
                == "invalidArguments"
        )
        let negative = await app.failure("markRegion", "{\"id\": \"\(id)\", \"radius\": -5}")
        #expect(negative.code == "invalidArguments")
        #expect(negative.message.contains("radius -5.0") && negative.message.contains("0 to unmark"))
        #expect(await app.failure("markRegion", "{\"id\": \"\(id)\", \"radius\": 250000}").code == "invalidArguments")
        #expect(await app.failure("markRegion", "{\"id\": \"home\", \"radius\": 100}").code == "invalidArguments")
        #expect((try await app.call("getRegions") as? [Any])?.isEmpty == true)

        let marked = try #require(try await app.call("markRegion", "{\"id\": \"\(id)\", \"radius\": 200}") as? [String: Any])
        #expect(marked["id"] as? String == id)
        #expect(marked["radius"] as? Double == 200)
        #expect(marked["latitude"] as? Double == published["latitude"] as? Double)
        let regions = try #require(try await app.call("getRegions") as? [[String: Any]])
        #expect(regions.map { $0["id"] as? String } == [id])
        await app.phone.play(to: 100)
        #expect(try await app.regionInside() == [true], "the map draws the region red: the device is within it")

        try await app.phone.background()
        await app.phone.play(to: 1400)
        #expect(app.regionEvents.filter { !$0.initial }.map(\.kind) == ["exit"], "leaving the region: \(app.regionEvents)")
        #expect(try await app.regionInside() == [false], "and blue once outside")
        await app.phone.play(to: 2700)
        #expect(app.regionEvents.filter { !$0.initial }.map(\.kind) == ["exit", "enter"], "back inside: \(app.regionEvents)")
        try await app.publish()
        let transitions = await app.received("transition").filter { $0["initial"] == nil }
        #expect(transitions.map { $0["event"] } == ["leave", "enter"])
        #expect(transitions.allSatisfy { $0["desc"] == id })
        let regionPublishes = await app.received("location").filter { $0["t"] == "c" }
        #expect(regionPublishes.count == 2, "the location is published additionally at each transition")

        #expect(try await app.call("markRegion", "{\"id\": \"\(id)\", \"radius\": 0}") is NSNull)
        #expect((try await app.call("getRegions") as? [Any])?.isEmpty == true)
        await app.phone.play(to: 4200)
        #expect(app.regionEvents.filter { !$0.initial }.count == 2, "unmarked: leaving again publishes nothing")
        await app.stop()
    }
}
