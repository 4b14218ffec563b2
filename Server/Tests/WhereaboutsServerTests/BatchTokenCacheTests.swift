import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

/// The batch API keeps the token digests it has read, so a device's next batch skips that read and
/// its write confirms the digest instead. Each test uploads once (filling the cache), changes the
/// token behind the server's back, as `whereabouts-server device rotate-token` or another instance
/// does, and checks that the next request is refused with nothing stored or leased. `/pub` shares the
/// refusals that come before the body.
@Suite("Batch API: cached tokens never outlive a rotation or a removal")
struct BatchTokenCacheTests {
    private static func path(_ server: LiveServer) -> String { "/v1/devices/\(server.device)/locations" }

    /// The status of a one-location batch the server gets with `token`, the location `age` seconds old.
    private static func status(of upload: (server: LiveServer, token: String, age: Double)) async throws -> Int {
        let (server, token, age) = upload
        let body = batchBody(wireLocations(1, start: Date(timeIntervalSinceNow: -age)))
        return try await server.send("POST", path(server), token: token, body: body).status
    }

    /// How many locations the device has stored (a removed device keeps them).
    private static func locations(_ server: LiveServer) async throws -> Int {
        var count = 0
        try await server.storage.history(device: server.device, from: .distantPast, to: .distantFuture, page: 100) { count += $0.count }
        return count
    }

    @Test(
        "a rotated token is refused for a batch, an acknowledgement, an empty batch, an invalid batch and malformed JSON, each sent with the old token cached; nothing is stored, acknowledged or leased",
        arguments: StorageKind.available)
    func rotated(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            var invalid = wireLocations(1, start: Date(timeIntervalSince1970: 1_700_000_000))
            invalid[0].latitude = 91
            let bodies: [(String, (String) -> Data)] = [
                ("a batch", { _ in batchBody(wireLocations(2, start: Date(timeIntervalSinceNow: -3600))) }),
                ("an acknowledgement", { command in Data(#"{"locations":[],"acknowledged":["\#(command)"]}"#.utf8) }),
                ("an empty batch", { _ in Data(#"{"locations":[]}"#.utf8) }),
                ("a batch with no valid location", { _ in batchBody(invalid) }),
                ("malformed JSON", { _ in Data("{\"locations\": [".utf8) }),
            ]
            let token = Tokens.generate()
            for (index, (what, body)) in bodies.enumerated() {
                // Upload with the old token (caching its digest), queue a command, then rotate the token
                // behind the server's back, as `device rotate-token` or another instance does.
                #expect(try await server.storage.rotateToken(device: server.device, tokenHash: Tokens.hash(server.token)))
                #expect(try await Self.status(of: (server, server.token, 60 + Double(index))) == 200)
                let command = try await queueCommand(.reportLocation, device: server.device, in: server.storage)
                #expect(try await server.storage.rotateToken(device: server.device, tokenHash: Tokens.hash(token)))
                let reply = try await server.send("POST", Self.path(server), token: server.token, body: body(command.id))
                #expect(reply.status == 401, "\(what): \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
                // Still queued and not under lease: the next answer to the device's current token gets it.
                let due = try await server.storage.ingest(
                    [], device: server.device, tokenHash: Tokens.hash(token), acknowledging: [], at: Date(), lease: 30)
                #expect(due.commands.map(\.id) == [command.id], "\(what): neither acknowledged nor leased")
            }
            #expect(try await Self.locations(server) == bodies.count, "only the batches sent before each rotation")
            #expect(try await Self.status(of: (server, token, 30)) == 200)
        }
    }

    @Test(
        "a rotated token whose digest is cached gets 401, not 413 or 429, for too large a body or over its rate; the current token still gets 429",
        arguments: StorageKind.available, ["batch", "pub"])
    func refusedBeforeTheBody(_ kind: StorageKind, route: String) async throws {
        let settings = ServerSettings(maxBodyBytes: 4096, rateLimit: 0.001, rateBurst: 3, adminToken: LiveServer.adminToken)
        try await withLiveServer(kind, settings: settings) { server async throws in
            let send = { (token: String, body: Data) in
                guard route == "pub" else { return try await server.send("POST", Self.path(server), token: token, body: body).status }
                let basic = Data("\(server.device):\(token)".utf8).base64EncodedString()
                return try await server.send("POST", "/pub", token: nil, body: body, headers: ["Authorization": "Basic \(basic)"]).status
            }
            let tst = Int(Date().timeIntervalSince1970) - 600
            let one = { (offset: Int) in
                route == "pub"
                    ? Data(#"{"_type":"location","lat":47.37,"lon":8.54,"tst":\#(tst + offset),"acc":9}"#.utf8)
                    : batchBody(wireLocations(1, start: Date(timeIntervalSinceNow: Double(-600 + offset))))
            }
            let token = Tokens.generate()
            let statuses = [
                try await send(server.token, one(1)),  // admitted (1 of 3), caches the credential
                try await server.storage.rotateToken(device: server.device, tokenHash: Tokens.hash(token)) ? 0 : -1,
                try await send(server.token, Data(repeating: 0x20, count: 5000)),  // admitted (2 of 3), too large
                try await server.storage.rotateToken(device: server.device, tokenHash: Tokens.hash(server.token)) ? 0 : -1,
                try await send(server.token, one(2)),  // admitted (3 of 3), caches the credential again
                try await server.storage.rotateToken(device: server.device, tokenHash: Tokens.hash(token)) ? 0 : -1,
                try await send(server.token, one(3)),  // over the rate
                try await send(token, one(4)),  // the current token, over the rate
            ]
            #expect(statuses == [200, 0, 401, 0, 200, 0, 401, 429])
        }
    }

    @Test("a removed device's token is refused, and the admin token cannot write", arguments: StorageKind.available)
    func removed(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            #expect(try await server.send("POST", Self.path(server), token: server.token, body: batchBody(wireLocations(1))).status == 200)
            #expect(
                try await server.send("POST", Self.path(server), token: LiveServer.adminToken, body: batchBody(wireLocations(1))).status
                    == 403)
            #expect(try await server.storage.removeDevice(server.device) != nil)
            let reply = try await server.send("POST", Self.path(server), token: server.token, body: batchBody(wireLocations(2)))
            #expect(reply.status == 401)
            #expect(try await Self.locations(server) == 1, "only the batch sent before the removal")
        }
    }

    @Test("a token rotated and rotated back is accepted again; the cache follows the stored token", arguments: StorageKind.available)
    func rotatedBack(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server async throws in
            #expect(try await Self.status(of: (server, server.token, 100)) == 200)
            let other = Tokens.generate()
            #expect(try await server.storage.rotateToken(device: server.device, tokenHash: Tokens.hash(other)))
            #expect(try await Self.status(of: (server, other, 90)) == 200, "the new token works at once")
            #expect(try await Self.status(of: (server, server.token, 80)) == 401)
            #expect(try await server.storage.rotateToken(device: server.device, tokenHash: Tokens.hash(server.token)))
            #expect(try await Self.status(of: (server, other, 70)) == 401, "the cached new token is refused once it was rotated away")
            #expect(try await Self.status(of: (server, server.token, 60)) == 200)
            #expect(try await Self.locations(server) == 3)
        }
    }
}
