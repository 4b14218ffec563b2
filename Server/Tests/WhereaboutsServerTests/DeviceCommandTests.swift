import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer
import WhereaboutsTestSupport

/// `device list | rotate-token | remove | export | delete` and `prune`, run as the operator runs them,
/// against a server process that keeps running meanwhile.
@Suite("device and prune commands")
struct DeviceCommandTests {
    private func database() -> String { ServerProcess.temporaryDatabase(named: "device-commands") }

    /// The status of `GET /v1/devices/{device}/last` with `token`.
    private func lastStatus(_ server: ServerProcess, _ device: String, token: String) async throws -> Int {
        try await RawConnection.with(port: server.port) {
            await $0.sendAndRead(
                rawRequest("GET", "/v1/devices/\(device)/last", headers: [("Authorization", "Bearer \(token)")]), timeout: 10)
        }?.status ?? 0
    }

    @Test("list shows devices; rotate-token and remove revoke a token on the running server at once (401); unknown devices are named")
    func listRotateRemove() async throws {
        let database = database()
        let token = try await ServerProcess.addDevice("phone", database: database)
        let server = try await ServerProcess(database: database)
        let batch = String(decoding: batchBody(wireLocations(3)), as: UTF8.self)
        let stored = try await RawConnection.with(port: server.port) {
            await $0.sendAndRead(
                rawRequest(
                    "POST", "/v1/devices/phone/locations",
                    headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")], body: Array(batch.utf8)),
                timeout: 10)
        }
        #expect(stored?.status == 200)

        let list = try await ServerProcess.run(["device", "list", "--database", database])
        #expect(list.status == 0)
        let row = try #require(list.output.split(separator: "\n").first { $0.hasPrefix("phone ") })
        #expect(row.split(separator: " ").dropFirst().first == "3", "\(list.output)")

        let rotated = try await ServerProcess.run(["device", "rotate-token", "phone", "--database", database])
        #expect(rotated.status == 0 && rotated.output.contains("old one is revoked"))
        let newToken = String(rotated.output.split(separator: "\n").last ?? "")
        #expect(newToken.count == 43 && newToken != token)
        #expect(try await lastStatus(server, "phone", token: token) == 401, "the old token is refused at once")
        #expect(try await lastStatus(server, "phone", token: newToken) == 200)

        let removed = try await ServerProcess.run(["device", "remove", "phone", "--database", database])
        #expect(removed.status == 0 && removed.output.contains("token is revoked"), "\(removed.output)")
        #expect(try await lastStatus(server, "phone", token: newToken) == 401, "a removed device's token is refused")

        let again = try await ServerProcess.run(["device", "remove", "phone", "--database", database])
        #expect(
            again.status != 0 && again.errors.contains("device phone does not exist") && again.errors.contains("device list"),
            "\(again.errors)")
        let readd = try await ServerProcess.run(["device", "add", "phone", "--database", database])
        #expect(
            readd.status != 0 && readd.errors.contains("was removed, but its locations")
                && readd.errors.contains("device delete phone --yes"),
            "a new device is not handed the removed one's history: \(readd.errors)")
        #expect(try await ServerProcess.run(["device", "delete", "phone", "--yes", "--database", database]).status == 0)
        #expect(try await ServerProcess.run(["device", "add", "phone", "--database", database]).status == 0)
        let ghost = try await ServerProcess.run(["device", "rotate-token", "ghost", "--database", database])
        #expect(
            ghost.status != 0 && ghost.errors.contains("device ghost does not exist") && ghost.errors.contains("device add ghost"),
            "\(ghost.errors)")
        await server.signal(SIGTERM)
    }

    @Test("a removed device that sent only region events is not re-added with them: add names device delete")
    func readdAfterEventsOnly() async throws {
        let database = database()
        let token = try await ServerProcess.addDevice("tablet", database: database)
        let server = try await ServerProcess(database: database)
        let event =
            #"{"events":[{"id":"6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6b","regionId":"home","kind":"enter","timestamp":"2025-06-01T10:00:00.000Z","latitude":47.3,"longitude":8.5}]}"#
        let stored = try await RawConnection.with(port: server.port) {
            await $0.sendAndRead(
                rawRequest(
                    "POST", "/v1/devices/tablet/events",
                    headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")], body: Array(event.utf8)),
                timeout: 10)
        }
        #expect(stored?.status == 200)
        await server.signal(SIGTERM)
        #expect(try await ServerProcess.run(["device", "remove", "tablet", "--database", database]).status == 0)
        let readd = try await ServerProcess.run(["device", "add", "tablet", "--database", database])
        #expect(readd.status != 0 && readd.errors.contains("device delete tablet --yes"), "\(readd.errors)")
    }

    @Test("list and export only read: a missing database is not created, an unmigrated one is neither migrated nor changed")
    func readCommandsWriteNothing() async throws {
        let database = database()
        let path = String(database.dropFirst("sqlite:".count))
        for command in [["device", "list"], ["device", "export", "phone"]] {
            let ran = try await ServerProcess.run(command + ["--database", database])
            #expect(ran.status != 0 && ran.errors.contains("cannot be opened for reading"), "\(command): \(ran.errors)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(command) created the database")
        }

        let unmigrated = try SQLiteTrackStorage(path: path)
        try await unmigrated.ping()
        try unmigrated.closeNow()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for command in [["device", "list"], ["device", "export", "phone"]] {
            let ran = try await ServerProcess.run(command + ["--database", database])
            #expect(ran.status != 0 && ran.errors.contains("not migrated"), "\(command): \(ran.errors)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "a read-only command changed the file")

        _ = try await ServerProcess.addDevice("phone", database: database)
        let list = try await ServerProcess.run(["device", "list", "--database", database])
        #expect(list.status == 0 && list.output.contains("phone "), "\(list.errors)")
    }

    @Test("export writes everything of a device as JSON; delete needs --yes, then erases it all; prune refuses unusable days, naming them")
    func exportDeletePrune() async throws {
        let database = database()
        let storage = try SQLiteTrackStorage(path: String(database.dropFirst("sqlite:".count)))
        try await storage.migrate(at: Date())
        try await storage.addDevice(id: "watch", tokenHash: Tokens.hash("t"), at: Date())
        let records = try wireLocations(5).map { try $0.validated(now: Date()) }
        _ = try await storage.ingest(records, device: "watch", at: Date())
        _ = try await storage.ingest(
            [ReceivedEvent(id: UUID(), regionID: "home", kind: .enter, timestamp: Date(), latitude: 1, longitude: 2)], device: "watch",
            at: Date())
        try await storage.close()

        let file = temporaryFile("export", suffix: ".json")
        let written = try await ServerProcess.run(["device", "export", "watch", "--output", file.path, "--database", database])
        #expect(written.status == 0 && written.output.contains("5 locations written"), "\(written.errors)")
        let export = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(export["id"] as? String == "watch")
        #expect((export["locations"] as? [Any])?.count == 5)
        #expect((export["events"] as? [Any])?.count == 1)
        let exported = try Data(contentsOf: file)
        let again = try await ServerProcess.run(["device", "export", "watch", "--output", file.path, "--database", database])
        #expect(again.status != 0 && again.errors.contains("already exists"), "\(again.errors)")
        #expect(try Data(contentsOf: file) == exported, "export replaced an existing file")
        let unopened = temporaryFile("export", suffix: ".json")
        let noDatabase = try await ServerProcess.run([
            "device", "export", "watch", "--output", unopened.path, "--database", "sqlite:/nonexistent-folder/none.sqlite",
        ])
        #expect(noDatabase.status != 0)
        #expect(!FileManager.default.fileExists(atPath: unopened.path), "a failed export left a file behind")
        let toStandardOutput = try await ServerProcess.run(["device", "export", "watch", "--database", database])
        #expect(try JSONSerialization.jsonObject(with: Data(toStandardOutput.output.utf8)) as? [String: Any] != nil)
        let nowhere = try await ServerProcess.run([
            "device", "export", "watch", "--output", "/nonexistent-folder/x.json", "--database", database,
        ])
        #expect(
            nowhere.status != 0 && nowhere.errors.contains("--output /nonexistent-folder/x.json cannot be created"), "\(nowhere.errors)")

        let unconfirmed = try await ServerProcess.run(["device", "delete", "watch", "--database", database])
        #expect(
            unconfirmed.status != 0 && unconfirmed.errors.contains("--yes") && unconfirmed.errors.contains("device export watch"),
            "\(unconfirmed.errors)")
        let deleted = try await ServerProcess.run(["device", "delete", "watch", "--yes", "--database", database])
        #expect(deleted.status == 0 && deleted.output.contains("5 locations, 1 events"), "\(deleted.output)")
        let empty = try await ServerProcess.run(["device", "export", "watch", "--database", database])
        let after = try #require(try JSONSerialization.jsonObject(with: Data(empty.output.utf8)) as? [String: Any])
        #expect((after["locations"] as? [Any])?.isEmpty == true && after["device"] is NSNull, "\(after)")

        for (day, words) in [
            ("2999-01-01", "is in the future"), ("yesterday", "--before"), ("2025-02-30", "has day 30"),
        ] {
            let refused = try await ServerProcess.run(["prune", "--before", day, "--database", database])
            #expect(
                refused.status != 0 && refused.errors.contains(words) && refused.errors.contains("YYYY-MM-DD"), "\(day): \(refused.errors)")
        }
        let pruned = try await ServerProcess.run(["prune", "--before", "2020-01-01", "--database", database])
        #expect(pruned.status == 0 && pruned.output.contains("pruned before 2020-01-01T00:00:00.000Z"), "\(pruned.errors)")
    }

    @Test("set-user and set-group refuse names an OwnTracks topic cannot hold, naming the problem and changing nothing")
    func ownTracksNamesValidated() async throws {
        let database = database()
        #expect(try await ServerProcess.run(["device", "add", "phone", "--database", database]).status == 0)
        for (arguments, words) in [
            (["set-user", "phone", "ja/ne"], "contains /"), (["set-user", "phone", "jane", "--name", "a+b"], "contains +"),
            (["set-user", "phone", ""], "user is empty"), (["set-group", "phone", "fam#ily"], "contains #"),
            (["set-group", "phone", ""], "group is empty"),
        ] {
            let refused = try await ServerProcess.run(["device"] + arguments + ["--database", database])
            #expect(refused.status != 0 && refused.errors.contains(words), "\(arguments): \(refused.errors)")
        }
        let unchanged = try await ServerProcess.run(["device", "set-group", "phone", "family", "--database", database])
        #expect(unchanged.output.contains("OwnTracks owntracks/phone/phone, friends group family"), "\(unchanged.output)")

        // Another device's topic, given or by default, is refused.
        for device in ["tablet", "bob"] {
            #expect(try await ServerProcess.run(["device", "add", device, "--database", database]).status == 0)
        }
        #expect(try await ServerProcess.run(["device", "set-user", "phone", "jane", "--database", database]).status == 0)
        for (arguments, owner) in [
            (["set-user", "tablet", "jane", "--name", "phone"], "phone"), (["set-user", "tablet", "bob", "--name", "bob"], "bob"),
        ] {
            let taken = try await ServerProcess.run(["device"] + arguments + ["--database", database])
            #expect(
                taken.status != 0 && taken.errors.contains("already device \(owner)'s OwnTracks topic"), "\(arguments): \(taken.errors)")
        }
        #expect(try await ServerProcess.run(["device", "set-user", "tablet", "jane", "--database", database]).status == 0)
    }
}
