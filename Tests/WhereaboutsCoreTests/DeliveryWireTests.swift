import Foundation
import Testing
import WhereaboutsCore

@Suite("Delivery wire formats and policies")
struct DeliveryWireTests {
    private let now = Date(timeIntervalSince1970: 1_750_000_000)

    private func record() throws -> LocationRecord {
        let fix = try Fix(
            coordinate: Coordinate(latitude: 48.8566, longitude: 2.3522), horizontalAccuracy: 7.5, altitude: 35, speed: 2,
            course: 180, timestamp: Date(timeIntervalSince1970: 1_749_999_000.123), source: .gps)
        return LocationRecord(id: UUID(uuidString: "6F1C2B8E-6B1A-4D55-9C3B-1F2E3D4C5B6A")!, fix: fix, trigger: .region, dwell: 30)
    }

    @Test("a record's wire form has the documented keys and round-trips")
    func batchRoundTrip() throws {
        let original = try record()
        let data = try JSONEncoder().encode(LocationBatch(locations: [WireLocation(original)]))
        let object = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["locations"] as? [[String: Any]])
        #expect(object[0]["id"] as? String == "6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a")
        #expect(object[0]["timestamp"] as? String == "2025-06-15T14:50:00.123Z")
        #expect(object[0]["trigger"] as? String == "region")
        #expect(object[0]["dwell"] as? Double == 30)
        let decoded = try JSONDecoder().decode(LocationBatch.self, from: data).locations[0].validated(now: now)
        #expect(decoded.id == original.id)
        #expect(decoded.fix.coordinate == original.fix.coordinate)
        #expect(abs(decoded.fix.timestamp.timeIntervalSince(original.fix.timestamp)) < 0.001)
        #expect(decoded.dwell == 30)
    }

    @Test(
        "validation names the field, the problem and the fix",
        arguments: [
            ("id", "not-a-uuid", 1.0, 2.0, 5.0, "2025-06-15T00:00:00.000Z"),
            ("latitude", "6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a", 91.0, 2.0, 5.0, "2025-06-15T00:00:00.000Z"),
            ("accuracy", "6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a", 1.0, 2.0, -1.0, "2025-06-15T00:00:00.000Z"),
            ("accuracy", "6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a", 1.0, 2.0, 1.7e308, "2025-06-15T00:00:00.000Z"),
            ("timestamp", "6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a", 1.0, 2.0, 5.0, "2025-02-30T00:00:00.000Z"),
            ("timestamp", "6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a", 1.0, 2.0, 5.0, "2025-06-15T23:59:60.000Z"),
            ("timestamp", "6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a", 1.0, 2.0, 5.0, "2025-06-15T10:00:00+99:99"),
            ("timestamp", "6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a", 1.0, 2.0, 5.0, "1970-01-01T00:00:00.000Z"),
            ("timestamp", "6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a", 1.0, 2.0, 5.0, "2100-01-01T00:00:00.000Z"),
            ("timestamp", "6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a", 1.0, 2.0, 5.0, "yesterday"),
        ])
    func validation(field: String, id: String, latitude: Double, longitude: Double, accuracy: Double, timestamp: String) throws {
        var wire = WireLocation(try record())
        wire.id = id
        wire.latitude = latitude
        wire.longitude = longitude
        wire.accuracy = accuracy
        wire.timestamp = timestamp
        #expect {
            try wire.validated(now: now)
        } throws: { error in
            guard let error = error as? ValidationError else { return false }
            return error.field == field && !error.fix.isEmpty
        }
    }

    @Test(
        "altitude, speed and dwell have bounds; the error names the field, the value and the range",
        arguments: [
            ("altitude", 1.7e308), ("altitude", -1_001), ("speed", 1_000.5), ("speed", 1e300), ("dwell", 1.7e308), ("dwell", 31_622_401),
        ])
    func bounds(field: String, value: Double) throws {
        var wire = WireLocation(try record())
        switch field {
        case "altitude": wire.altitude = value
        case "speed": wire.speed = value
        default: wire.dwell = value
        }
        #expect {
            try wire.validated(now: now)
        } throws: { error in
            guard let error = error as? ValidationError else { return false }
            return error.field == field && error.value == "\(value)" && error.problem.contains(" to ")
        }
    }

    @Test("the edges of the bounds are accepted")
    func boundEdges() throws {
        var wire = WireLocation(try record())
        (wire.accuracy, wire.altitude, wire.speed, wire.dwell) = (100_000, -1_000, 1_000, 31_622_400)
        _ = try wire.validated(now: now)
        (wire.accuracy, wire.altitude, wire.speed, wire.dwell) = (0, 100_000, 0, 0)
        _ = try wire.validated(now: now)
        _ = try WireRegion(id: String(repeating: "é", count: 200), latitude: 1, longitude: 2, radius: 1).region()
        _ = try WireRegion(id: "r", latitude: 1, longitude: 2, radius: 1_000_000).region()
    }

    @Test(
        "regions: radius 1 m to 1000 km, ids of at most 200 characters; events share the id rule",
        arguments: [("radius", 0.5, "r"), ("radius", 1.7e308, "r"), ("id", 50.0, String(repeating: "w", count: 100_000)), ("id", 50.0, "")])
    func regionBounds(field: String, radius: Double, id: String) {
        #expect {
            try WireRegion(id: id, latitude: 1, longitude: 2, radius: radius).region()
        } throws: { error in (error as? ValidationError)?.field == field }
        #expect {
            try OwnTracksWire.waypoint(["desc": id, "lat": NSNumber(value: 1), "lon": NSNumber(value: 2), "rad": NSNumber(value: radius)])
        } throws: { error in (error as? ValidationError)?.field == field }
        let event = WireEvent(
            id: "6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a", regionId: String(repeating: "w", count: 201), kind: "enter",
            timestamp: "2025-06-15T00:00:00.000Z",
            latitude: nil, longitude: nil)
        #expect(throws: ValidationError.self) { try event.validated(now: now) }
    }

    @Test("OwnTracks numbers: true and false are not numbers")
    func ownTracksNumbers() throws {
        let message = try #require(
            try JSONSerialization.jsonObject(with: Data(#"{"a":true,"b":1,"c":-2.5,"d":"3"}"#.utf8)) as? [String: Any])
        #expect(OwnTracksWire.number(message["a"]) == nil)
        #expect(OwnTracksWire.number(message["b"]) == 1)
        #expect(OwnTracksWire.number(message["c"]) == -2.5)
        #expect(OwnTracksWire.number(message["d"]) == nil)
    }

    @Test("answers are classified as the issue prescribes")
    func verdicts() {
        func verdict(_ status: Int, _ headers: [String: String] = [:]) -> UploadVerdict {
            UploadVerdict.classify(HTTPReply(status: status, headers: headers, body: Data("nope".utf8)), now: now)
        }
        #expect(verdict(200) == .delivered)
        #expect(verdict(204) == .delivered)
        #expect(verdict(409) == .delivered)
        #expect(verdict(401) == .refreshCredential)
        #expect(verdict(413) == .split)
        #expect(verdict(408) == .retry(after: nil))
        #expect(verdict(429, ["Retry-After": "7"]) == .retry(after: 7))
        #expect(verdict(503, ["retry-after": "Sun, 15 Jun 2025 15:06:50 GMT"]) == .retry(after: 10))
        #expect(verdict(500, ["Retry-After": "soon"]) == .retry(after: nil))
        #expect(verdict(503, ["Retry-After": "31536000"]) == .retry(after: 86_400), "a year is taken as a day")
        #expect(verdict(503, ["Retry-After": "Fri, 15 Jun 2035 15:06:50 GMT"]) == .retry(after: 86_400))
        #expect(verdict(400) == .reject(Rejection(status: 400, reason: "nope")))
        #expect(verdict(404) == .misconfigured(status: 404))
        #expect(verdict(405) == .misconfigured(status: 405))
        #expect(verdict(403) == .forbidden(reason: "nope"))
        let admin = HTTPReply(status: 403, body: Data(#"{"error":"forbidden","message":"the admin token reads"}"#.utf8))
        #expect(UploadVerdict.classify(admin, now: now) == .forbidden(reason: "the admin token reads"))
        #expect(verdict(410) == .reject(Rejection(status: 410, reason: "nope")))
        let badDevice = HTTPReply(status: 400, body: Data(#"{"error":"bad_device_id","message":"device id \"a b\" contains \" \""}"#.utf8))
        #expect(UploadVerdict.classify(badDevice, now: now) == .badDevice(reason: #"device id "a b" contains " ""#))
        let unreadable = HTTPReply(status: 400, body: Data(#"{"error":"unreadable_body","message":"framing"}"#.utf8))
        #expect(UploadVerdict.classify(unreadable, now: now) == .retry(after: nil))
        let badRecords = HTTPReply(status: 400, body: Data(#"{"error":"malformed_json","message":"no"}"#.utf8))
        #expect(
            UploadVerdict.classify(badRecords, now: now)
                == .reject(Rejection(status: 400, reason: #"{"error":"malformed_json","message":"no"}"#)))
        #expect(verdict(302) == .retry(after: nil))
    }

    @Test("back-off grows exponentially, is capped, jittered and never sooner than Retry-After")
    func backoff() {
        let policy = Backoff(initial: 2, multiplier: 2, maximum: 60, jitter: 0.5)
        #expect(policy.delay(afterFailures: 1, retryAfter: nil, unit: 0) == 2)
        #expect(policy.delay(afterFailures: 3, retryAfter: nil, unit: 0) == 8)
        #expect(policy.delay(afterFailures: 3, retryAfter: nil, unit: 0.999) > 4)
        #expect(policy.delay(afterFailures: 30, retryAfter: nil, unit: 0) == 60)
        #expect(policy.delay(afterFailures: 1, retryAfter: 300, unit: 0.5) == 300)
    }

    @Test("OwnTracks message and Firestore document carry the record")
    func otherFormats() throws {
        let message =
            try JSONSerialization.jsonObject(with: OwnTracksEndpoint.message(for: try record(), trackerID: "ph")) as? [String: Any]
        #expect(message?["_type"] as? String == "location")
        #expect(message?["tst"] as? Int == 1_749_999_000)
        #expect(message?["t"] as? String == "c")
        #expect(message?["vel"] as? Int == 7)
        let endpoint = FirestoreEndpoint(project: "p", userID: "u1")
        let request = try endpoint.request(for: [try record()], credential: .bearer("tok"))
        #expect(request.method == "PATCH")
        #expect(
            request.url.absoluteString.hasSuffix(
                "/v1/projects/p/databases/(default)/documents/locations/6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a"))
        #expect(request.headers["Authorization"] == "Bearer tok")
        #expect(String(decoding: request.body, as: UTF8.self).contains("\"timestampValue\":\"2025-06-15T14:50:00.123Z\""))
    }

    @Test("server commands decode, and unknown ones fail with a clear message")
    func commands() throws {
        let text =
            #"[{"type":"reportLocation"},{"type":"startActiveTracking","minutes":5},{"type":"setRegions","regions":[{"id":"a","latitude":1,"longitude":2,"radius":30}]}]"#
        let commands = try JSONDecoder().decode([ServerCommand].self, from: Data(text.utf8))
        #expect(
            commands == [
                .reportLocation, .startActiveTracking(minutes: 5),
                .setRegions([WireRegion(id: "a", latitude: 1, longitude: 2, radius: 30)]),
            ])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ServerCommand.self, from: Data(#"{"type":"selfDestruct"}"#.utf8)) }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ServerCommand.self, from: Data(#"{"type":"startActiveTracking","minutes":0}"#.utf8))
        }
    }

    @Test("a command carries its id both ways; one without an id gets a fresh one")
    func commandIDs() throws {
        let sent = DeviceCommand(id: "c-7", command: .startActiveTracking(minutes: 5))
        let text = String(decoding: try JSONEncoder().encode(sent), as: UTF8.self)
        #expect(text.contains(#""id":"c-7""#) && text.contains(#""type":"startActiveTracking""#))
        #expect(try JSONDecoder().decode(DeviceCommand.self, from: Data(text.utf8)) == sent)
        let bare = try JSONDecoder().decode(
            [DeviceCommand].self, from: Data(#"[{"type":"reportLocation"},{"type":"reportLocation"}]"#.utf8))
        #expect(bare.map(\.command) == [.reportLocation, .reportLocation])
        #expect(bare[0].id != bare[1].id, "two commands without ids are two commands")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DeviceCommand.self, from: Data(#"{"id":"","type":"reportLocation"}"#.utf8))
        }
        let batch = LocationBatch(locations: [], acknowledged: ["c-7"])
        #expect(String(decoding: try JSONEncoder().encode(batch), as: UTF8.self).contains(#""acknowledged":["c-7"]"#))
        #expect(String(decoding: try JSONEncoder().encode(LocationBatch(locations: [])), as: UTF8.self) == #"{"locations":[]}"#)
    }

    @Test("an event's initial flag travels on the wire; a missing one is a transition")
    func initialOnTheWire() throws {
        let found = RegionEvent(regionID: "home", kind: .enter, timestamp: now, initial: true, fix: nil)
        let wire = WireEvent(EventRecord(event: found))
        let text = String(decoding: try JSONEncoder().encode(wire), as: UTF8.self)
        #expect(text.contains(#""initial":true"#))
        #expect(try JSONDecoder().decode(WireEvent.self, from: Data(text.utf8)).validated(now: now).initial)
        let older = #"{"id":"6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a","regionId":"home","kind":"exit","timestamp":"2025-06-15T14:50:00.123Z"}"#
        #expect(try !JSONDecoder().decode(WireEvent.self, from: Data(older.utf8)).initial)
    }

    @Test("an ID token is used until a minute before it expires; a renewal keeps what the answer leaves out")
    func tokenFreshness() {
        let tokens = AuthTokens(idToken: "id", expiresAt: now.addingTimeInterval(120), refreshToken: "r", userID: "u")
        #expect(tokens.usableIDToken(at: now) == "id")
        #expect(tokens.usableIDToken(at: now.addingTimeInterval(61)) == nil)
        #expect(AuthTokens(idToken: "id", expiresAt: nil, refreshToken: "r", userID: nil).usableIDToken(at: now) == nil)
        let renewed = tokens.renewed(idToken: "id2", lifetime: 3600, refreshToken: nil, userID: nil, at: now)
        #expect(renewed == AuthTokens(idToken: "id2", expiresAt: now.addingTimeInterval(3600), refreshToken: "r", userID: "u"))
    }
}
