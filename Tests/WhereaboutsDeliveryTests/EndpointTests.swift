import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore
import WhereaboutsStoreTestSupport
import WhereaboutsTestServer
import WhereaboutsTestSupport

@Suite("OwnTracks, Firestore and Firebase tokens against a real server")
struct EndpointTests {
    private func uploader(_ store: SQLiteLocationStore, _ endpoint: any UploadEndpoint, _ credentials: any CredentialProvider) -> Uploader {
        Uploader(
            queue: store, endpoint: endpoint, credentials: credentials,
            configuration: UploaderConfiguration(requestTimeout: 30, backoff: Backoff(initial: 0.05, maximum: 0.2)))
    }

    @Test("OwnTracks HTTP: one location per POST with Basic auth and X-Limit headers; cmd answers are kept")
    func ownTracks() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.setBasicUsers(["alice:secret"])
        await server.state.queue([.reportLocation])
        let store = try makeStore()
        let records = sampleRecords(12)
        try store.append(records, at: Date())
        let endpoint = OwnTracksEndpoint(url: server.baseURL.appendingPathComponent("pub"), user: "alice", device: "phone")
        let report = await uploader(store, endpoint, FixedCredential(.basic(user: "alice", password: "secret"))).flush(
            .manual, acknowledging: [])
        #expect(report.delivered == 12)
        #expect(report.requests == 12)
        #expect(report.commands.map(\.command) == [.reportLocation])
        #expect(try store.commandAcknowledgements().isEmpty && store.unappliedCommands().count == 1, "OwnTracks has no acknowledgements")
        let messages = await server.state.ownTracks
        #expect(Set(messages.keys) == Set(records.map { $0.id.uuidString.lowercased() }))
        let first = try #require(messages[records[0].id.uuidString.lowercased()])
        #expect(first["X-Limit-U"] == "alice")
        #expect(first["X-Limit-D"] == "phone")
        #expect(first["tid"] == "ne")
        #expect(first["vel"] == "5")  // 1.5 m/s in km/h
        #expect(first["tst"] == "\(Int(records[0].fix.timestamp.timeIntervalSince1970))")
    }

    @Test("OwnTracks: region events go as transitions, a dwell update once as a location of its own; no message is posted twice")
    func ownTracksTransitionsAndDwell() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let store = try makeStore()
        let arrival = sampleRecords(1)[0]
        let event = EventRecord(
            event: RegionEvent(regionID: "office", kind: .exit, timestamp: arrival.fix.timestamp, initial: false, fix: arrival.fix))
        try store.apply([.record(arrival), .event(event)], at: Date())
        let endpoint = OwnTracksEndpoint(url: server.baseURL.appendingPathComponent("pub"), user: "alice", device: "phone")
        let uploader = uploader(store, endpoint, FixedCredential.none)
        #expect(await uploader.flush(.manual, acknowledging: []).requests == 2)
        try store.apply([.dwell(90, of: arrival.id)], at: Date())
        #expect(await uploader.flush(.manual, acknowledging: []).requests == 1)
        try store.apply([.dwell(240, of: arrival.id)], at: Date())
        #expect(await uploader.flush(.manual, acknowledging: []).requests == 1)
        #expect(await uploader.flush(.manual, acknowledging: []).requests == 0)
        #expect(try store.pendingCount() == 0)

        let messages = await server.state.ownTracks
        let receipts = await server.state.receipts
        #expect(messages.count == 4 && messages.keys.allSatisfy { receipts[$0] == 1 }, "four messages, each posted once: \(receipts)")
        let transition = try #require(messages[event.id.uuidString.lowercased()])
        #expect(
            transition["_type"] == "transition" && transition["event"] == "leave" && transition["rid"] == "office"
                && transition["desc"] == "office")
        #expect(transition["tst"] == "\(Int(arrival.fix.timestamp.timeIntervalSince1970))" && transition["lat"] != nil)
        let arrivalTime = Int(arrival.fix.timestamp.timeIntervalSince1970)
        let locations = messages.values.filter { $0["_type"] == "location" }.compactMap { $0["tst"].flatMap(Int.init) }.sorted()
        #expect(locations == [arrivalTime, arrivalTime + 90, arrivalTime + 240])
        #expect(messages[arrival.id.uuidString.lowercased()]?["tst"] == "\(arrivalTime)", "the arrival keeps the record's id and time")
        #expect(OwnTracksEndpoint.upload(of: arrival) == arrival)
    }

    @Test("OwnTracks with a wrong password: a 401 that no refresh can fix stops as signed out and keeps every record")
    func ownTracksWrongPassword() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.setBasicUsers(["alice:secret"])
        let store = try makeStore()
        try store.append(sampleRecords(3), at: Date())
        let endpoint = OwnTracksEndpoint(url: server.baseURL.appendingPathComponent("pub"), user: "alice", device: "phone")
        let report = await uploader(store, endpoint, FixedCredential(.basic(user: "alice", password: "wrong"))).flush(
            .manual, acknowledging: [])
        #expect(report.stoppedBy == .signedOut)
        #expect(try store.pendingCount() == 3)
    }

    @Test("OwnTracks cmd parsing: reportLocation and setWaypoints; junk is skipped")
    func ownTracksCommands() throws {
        let body = """
            [{"_type":"cmd","action":"reportLocation"},{"_type":"cmd","action":"setWaypoints","waypoints":{"_type":"waypoints",
            "waypoints":[{"_type":"waypoint","desc":"Home","lat":52.5,"lon":13.4,"rad":80,"rid":"h1"},{"desc":"bad","lat":99,"lon":0,"rad":5}]}},
            {"_type":"cmd","action":"dump"},"junk",{"_type":"location"}]
            """
        #expect(
            OwnTracksWire.commands(in: Data(body.utf8)) == [
                .reportLocation, .setRegions([WireRegion(id: "h1", latitude: 52.5, longitude: 13.4, radius: 80)]),
            ])
        #expect(OwnTracksWire.commands(in: Data("not json".utf8)).isEmpty)
        // What the server sends, the device reads back.
        let sent: [ServerCommand] = [.reportLocation, .setRegions([WireRegion(id: "h1", latitude: 52.5, longitude: 13.4, radius: 80)])]
        let encoded = try JSONEncoder().encode(sent.map(OwnTracksWire.Command.init))
        #expect(OwnTracksWire.commands(in: encoded) == sent)
    }

    @Test("Firestore: PATCH per document with typed fields; an expired ID token is refreshed once on 401")
    func firestoreWithRefresh() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.setValidTokens([])
        await server.state.setRefreshTokens(["refresh-1"])
        let store = try makeStore()
        try store.set(
            .authTokens,
            AuthTokens(idToken: "stale", expiresAt: Date(timeIntervalSinceNow: 3000), refreshToken: "refresh-1", userID: "user-1"))
        let records = sampleRecords(5)
        try store.append(records, at: Date())
        let tokens = FirebaseTokenProvider(store: store, apiKey: "key", base: server.baseURL, transport: URLSessionTransport())
        let endpoint = FirestoreEndpoint(base: server.baseURL, project: "travel", userID: "user-1")
        let report = await uploader(store, endpoint, tokens).flush(.manual, acknowledging: [])
        #expect(report.delivered == 5)
        #expect(report.stoppedBy == nil)
        #expect(try store.setting(.authTokens)?.idToken == "id-token-1")
        let documents = await server.state.documents
        let path = "locations/\(records[0].id.uuidString.lowercased())"
        let document = try #require(documents[path])
        let fields = try #require((try JSONSerialization.jsonObject(with: document) as? [String: Any])?["fields"] as? [String: Any])
        #expect((fields["userId"] as? [String: String])?["stringValue"] == "user-1")
        #expect((fields["timestamp"] as? [String: String])?["timestampValue"] == Timestamp.format(records[0].fix.timestamp))
        #expect(fields["latitude"] != nil && fields["wait_time"] != nil)
        // Upsert semantics: the same records sent again from another store rewrite the same documents.
        let again = try makeStore()
        try again.append(records, at: Date())
        try again.set(.authTokens, try store.setting(.authTokens))
        let tokensAgain = FirebaseTokenProvider(store: again, apiKey: "key", base: server.baseURL, transport: URLSessionTransport())
        #expect(await uploader(again, endpoint, tokensAgain).flush(.manual, acknowledging: []).delivered == 5)
        #expect(await server.state.documents.count == 5)
        #expect(await server.state.receipts.values.allSatisfy { $0 == 2 })
    }

    @Test("signed out: records wait on disk, nothing is dropped, and go out after sign-in")
    func signedOut() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.setRefreshTokens(["refresh-2"])
        let store = try makeStore()
        try store.append(sampleRecords(20), at: Date())
        let tokens = FirebaseTokenProvider(store: store, apiKey: "key", base: server.baseURL, transport: URLSessionTransport())
        let endpoint = FirestoreEndpoint(base: server.baseURL, project: "travel", userID: nil)
        let uploader = uploader(store, endpoint, tokens)
        #expect(await uploader.flush(.manual, acknowledging: []).stoppedBy == .signedOut)
        #expect(try store.pendingCount() == 20)
        #expect(await server.state.requests == 0)
        try store.set(.authTokens, AuthTokens(idToken: nil, expiresAt: nil, refreshToken: "refresh-2", userID: "u"))
        #expect(await uploader.flush(.manual, acknowledging: []).delivered == 20)
    }

    @Test("a sign-out while a token renewal is out stands: the renewal is not stored and nothing is uploaded")
    func signOutDuringRenewal() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.setRefreshTokens(["refresh-1"])
        let store = try makeStore()
        try store.append(sampleRecords(2), at: Date())
        try store.set(.authTokens, AuthTokens(idToken: nil, expiresAt: nil, refreshToken: "refresh-1", userID: "user-1"))
        // The user signs out as the renewal request leaves; the server answers it all the same.
        let transport = SignOutOnRenewal(store: store)
        let tokens = FirebaseTokenProvider(store: store, apiKey: "key", base: server.baseURL, transport: transport)
        let report = await uploader(store, FirestoreEndpoint(base: server.baseURL, project: "p", userID: "user-1"), tokens).flush(
            .manual, acknowledging: [])
        #expect(transport.renewals == 1)
        #expect(report.stoppedBy == .signedOut)
        #expect(try store.setting(.authTokens) == nil, "the sign-out is not undone")
        #expect(await server.state.documents.isEmpty)
        #expect(try store.pendingCount() == 2)
    }

    @Test("a token service that answers 429 or 408 is tried again after a back-off; the user stays signed in")
    func throttledRenewal() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.setRefreshTokens(["refresh-1"])
        await server.state.scriptTokenFaults([
            .status(429, retryAfter: nil, body: #"{"error":{"message":"TOO_MANY_ATTEMPTS_TRY_LATER"}}"#), .status(408),
        ])
        let store = try makeStore()
        try store.append(sampleRecords(2), at: Date())
        let saved = AuthTokens(idToken: nil, expiresAt: nil, refreshToken: "refresh-1", userID: "user-1")
        try store.set(.authTokens, saved)
        let tokens = FirebaseTokenProvider(store: store, apiKey: "key", base: server.baseURL, transport: URLSessionTransport())
        let uploader = uploader(store, FirestoreEndpoint(base: server.baseURL, project: "p", userID: "user-1"), tokens)
        for _ in 0..<2 {
            let report = await uploader.flush(.manual, acknowledging: [])
            guard case .failed = report.stoppedBy else {
                Issue.record("a busy token service is a failure to retry, not a sign-out: \(report)")
                return
            }
            #expect(try store.setting(.authTokens) == saved, "the tokens are kept")
        }
        #expect(await uploader.flush(.manual, acknowledging: []).delivered == 2)
    }

    @Test("a revoked refresh token signs the user out instead of failing forever")
    func revokedRefreshToken() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let store = try makeStore()
        try store.append(sampleRecords(2), at: Date())
        try store.set(.authTokens, AuthTokens(idToken: nil, expiresAt: nil, refreshToken: "revoked", userID: "u"))
        let tokens = FirebaseTokenProvider(store: store, apiKey: "key", base: server.baseURL, transport: URLSessionTransport())
        let report = await uploader(store, FirestoreEndpoint(base: server.baseURL, project: "p", userID: nil), tokens).flush(
            .manual, acknowledging: [])
        #expect(report.stoppedBy == .signedOut)
        #expect(try store.pendingCount() == 2)
    }
}

/// Our transport, which signs the user out (removes the stored tokens) as a token renewal leaves.
private final class SignOutOnRenewal: HTTPTransport, @unchecked Sendable {
    private let store: SQLiteLocationStore
    private let lock = NSLock()
    private var count = 0

    init(store: SQLiteLocationStore) { self.store = store }

    var renewals: Int { lock.withLock { count } }

    func send(_ request: OutgoingRequest, timeout: TimeInterval) async throws -> HTTPReply {
        if request.url.path.hasSuffix("/v1/token") {
            lock.withLock { count += 1 }
            try store.set(.authTokens, nil as AuthTokens?)
        }
        return try await URLSessionTransport().send(request, timeout: timeout)
    }
}
