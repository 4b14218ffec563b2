import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

/// The batch API keeps the token digests it has read, so a device's next batch skips that read and
/// its write confirms the digest instead. Each test uploads once (filling the cache), changes the
/// token behind the server's back, as `whereabouts-server device rotate-token` or another instance
/// does, and checks that the next request is refused with nothing stored or leased.
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
        "a rotated token is refused for a batch, an acknowledgement, an invalid batch and malformed JSON, each sent with the old token cached; nothing is stored or acknowledged",
        arguments: StorageKind.available)
    func rotated(_ kind: StorageKind) async throws {
        // Leases run out at once, so every accepted upload's answer shows every command not acknowledged.
        let settings = ServerSettings(rateLimit: 0, adminToken: LiveServer.adminToken, commandLease: 0.001)
        try await withLiveServer(kind, settings: settings) { server in
            var invalid = wireLocations(1, start: Date(timeIntervalSince1970: 1_700_000_000))
            invalid[0].latitude = 91
            let bodies: [(String, (String) -> Data)] = [
                ("a batch", { _ in batchBody(wireLocations(2, start: Date(timeIntervalSinceNow: -3600))) }),
                ("an acknowledgement", { command in Data(#"{"locations":[],"acknowledged":["\#(command)"]}"#.utf8) }),
                ("a batch with no valid location", { _ in batchBody(invalid) }),
                ("malformed JSON", { _ in Data("{\"locations\": [".utf8) }),
            ]
            let token = Tokens.generate()
            var queued: [String] = []
            for (what, body) in bodies {
                // Upload with the old token (caching its digest), queue a command, then rotate the token
                // behind the server's back, as `device rotate-token` or another instance does.
                #expect(try await server.storage.rotateToken(device: server.device, tokenHash: Tokens.hash(server.token)))
                let age = 60 + Double(queued.count)
                let first = try await server.send(
                    "POST", Self.path(server), token: server.token,
                    body: batchBody(wireLocations(1, start: Date(timeIntervalSinceNow: -age))))
                #expect(first.status == 200)
                queued.append(try await server.storage.queue(.reportLocation, device: server.device, at: Date()).id)
                #expect(try await server.storage.rotateToken(device: server.device, tokenHash: Tokens.hash(token)))
                let reply = try await server.send("POST", Self.path(server), token: server.token, body: body(queued.last!))
                #expect(reply.status == 401, "\(what): \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
            }
            #expect(try await Self.locations(server) == queued.count, "only the batches sent before each rotation")

            let new = try await server.send("POST", Self.path(server), token: token, body: batchBody(wireLocations(1)))
            #expect(new.status == 200)
            let commands = server.json(new)["commands"] as? [[String: Any]] ?? []
            #expect(commands.compactMap { $0["id"] as? String } == queued, "no refused request acknowledged a command")
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
