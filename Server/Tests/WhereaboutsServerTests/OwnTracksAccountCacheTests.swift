import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

/// `/pub` keeps the accounts it has read, so a device's next request skips that read. Each test
/// publishes once (filling the cache), changes the account behind the server's back, as a
/// `whereabouts-server device` command or another instance does, and checks the next request sees
/// the change: a rotated or removed token is refused with nothing stored or taken, and a changed
/// profile is used at once.
@Suite("OwnTracks /pub: cached accounts never outlive a change")
struct OwnTracksAccountCacheTests {
    private static let tst = Int(Date().timeIntervalSince1970) - 600

    private static func location(_ offset: Int) -> Data {
        Data(#"{"_type":"location","lat":47.37,"lon":8.54,"tst":\#(tst + offset),"acc":9}"#.utf8)
    }

    private static func basic(_ device: String, _ token: String) -> [String: String] {
        ["Authorization": "Basic \(Data("\(device):\(token)".utf8).base64EncodedString())"]
    }

    private static func locations(_ server: LiveServer) async throws -> Int {
        try await server.storage.devices().first { $0.id == server.device }?.locations ?? 0
    }

    @Test(
        "a rotated token is refused for a location, a card and an empty body, each sent with the old account cached; nothing is stored or taken",
        arguments: StorageKind.available)
    func rotated(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let old = Self.basic(server.device, server.token)
            try await queueCommand(.reportLocation, device: server.device, in: server.storage)
            let token = Tokens.generate()
            var offset = 0
            for body in [Self.location(1), Data(#"{"_type":"card","name":"me"}"#.utf8), Data()] {
                // Publish with the old token (caching its account and taking the command), then rotate it
                // behind the server's back, as `device rotate-token` or another instance does.
                #expect(try await server.storage.rotateToken(device: server.device, tokenHash: Tokens.hash(server.token)))
                offset += 10
                #expect(try await server.send("POST", "/pub", token: nil, body: Self.location(offset), headers: old).status == 200)
                try await queueCommand(.reportLocation, device: server.device, in: server.storage)
                #expect(try await server.storage.rotateToken(device: server.device, tokenHash: Tokens.hash(token)))
                let reply = try await server.send("POST", "/pub", token: nil, body: body, headers: old)
                #expect(reply.status == 401, "\(String(decoding: body, as: UTF8.self)): \(reply.status)")
            }
            #expect(try await Self.locations(server) == 3, "only the three sent before each rotation")
            #expect(try await server.storage.lastMessage("card", device: server.device) == nil)

            let new = try await server.send("POST", "/pub", token: nil, body: Self.location(2), headers: Self.basic(server.device, token))
            #expect(new.status == 200)
            #expect(String(decoding: new.body, as: UTF8.self) == #"[{"_type":"cmd","action":"reportLocation"}]"#, "the command waited")
            #expect(try await Self.locations(server) == 4)
        }
    }

    @Test("a key set after the account was cached opens the very next encrypted message", arguments: StorageKind.available)
    func keySet(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let auth = Self.basic(server.device, server.token)
            #expect(try await server.send("POST", "/pub", token: nil, body: Self.location(0), headers: auth).status == 200)
            #expect(try await server.storage.saveOwnTracksProfile(OwnTracksProfile(device: server.device, key: "s3cret")))
            let sealed = OwnTracksBooklet.encrypted(String(decoding: Self.location(1), as: UTF8.self), passphrase: "s3cret")
            let reply = try await server.send("POST", "/pub", token: nil, body: Data(sealed.utf8), headers: auth)
            #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
            #expect(try await Self.locations(server) == 2)
        }
    }

    @Test("a friends group cleared after the account was cached shows no friend in the next answer", arguments: StorageKind.available)
    func groupCleared(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let friend = uniqueDevice("friend")
            let friendToken = Tokens.generate()
            try await server.storage.addDevice(id: friend, tokenHash: Tokens.hash(friendToken), at: Date())
            let group = uniqueDevice("group")
            #expect(try await server.storage.saveOwnTracksProfile(OwnTracksProfile(device: friend, group: group)))
            #expect(try await server.storage.saveOwnTracksProfile(OwnTracksProfile(device: server.device, group: group)))
            let fromFriend = Self.basic(friend, friendToken)
            #expect(try await server.send("POST", "/pub", token: nil, body: Self.location(0), headers: fromFriend).status == 200)
            let auth = Self.basic(server.device, server.token)
            let before = try await server.send("POST", "/pub", token: nil, body: Self.location(1), headers: auth)
            #expect(String(decoding: before.body, as: UTF8.self).contains(friend), "the friend is in the group")
            #expect(try await server.storage.saveOwnTracksProfile(OwnTracksProfile(device: server.device)))
            for body in [Self.location(2), Data()] {
                let after = try await server.send("POST", "/pub", token: nil, body: body, headers: auth)
                #expect(after.status == 200 && String(decoding: after.body, as: UTF8.self) == "[]")
            }
        }
    }

    @Test("a removed device's token is refused", arguments: StorageKind.available)
    func removed(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let auth = Self.basic(server.device, server.token)
            #expect(try await server.send("POST", "/pub", token: nil, body: Self.location(0), headers: auth).status == 200)
            #expect(try await server.storage.removeDevice(server.device) != nil)
            #expect(try await server.send("POST", "/pub", token: nil, body: Self.location(1), headers: auth).status == 401)
            let stored = try await server.storage.ownTracksLocations(
                device: server.device, from: .distantPast, to: .distantFuture, limit: nil)
            #expect(stored.count == 1)
        }
    }

    @Test("a key set after the account was cached encrypts the very next answer", arguments: StorageKind.available)
    func profileChanged(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let auth = Self.basic(server.device, server.token)
            #expect(try await server.send("POST", "/pub", token: nil, body: Self.location(0), headers: auth).status == 200)
            #expect(try await server.storage.saveOwnTracksProfile(OwnTracksProfile(device: server.device, key: "s3cret")))
            let reply = try await server.send("POST", "/pub", token: nil, body: Self.location(1), headers: auth)
            #expect(reply.status == 200)
            #expect(server.json(reply)["_type"] as? String == "encrypted")
            #expect(try await Self.locations(server) == 2)
        }
    }

    @Test("the storage write refuses an account that is no longer the device's, and writes nothing", arguments: StorageKind.available)
    func storageConfirms(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let device = uniqueDevice("acct")
            try await storage.addDevice(id: device, tokenHash: Tokens.hash("one"), at: Date())
            try await queueCommand(.reportLocation, device: device, in: storage)
            let stale = OwnTracksAccount(tokenHash: Tokens.hash("two"), profile: OwnTracksProfile(device: device))
            let fix = try Fix(
                coordinate: Coordinate(latitude: 47.37, longitude: 8.54), horizontalAccuracy: 9, timestamp: Date(timeIntervalSinceNow: -60))
            let record = LocationRecord(fix: fix, trigger: .policy)
            let fields = OwnTracksFields(message: #"{"_type":"location"}"#)
            await #expect(throws: CredentialChanged.self) {
                try await storage.ingestOwnTracksTakingCommands(record, fields: fields, account: stale, at: Date())
            }
            #expect(try await storage.devices().first { $0.id == device }?.locations == 0)
            let current = try #require(try await storage.ownTracksAccount(device: device))
            let taken = try await storage.ingestOwnTracksTakingCommands(record, fields: fields, account: current, at: Date())
            #expect(taken.counts.accepted == 1 && taken.commands.count == 1)
        }
    }
}
