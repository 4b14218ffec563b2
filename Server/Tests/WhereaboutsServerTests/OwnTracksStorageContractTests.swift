import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

@Suite("Storage contract for OwnTracks: SQLite and PostgreSQL keep profiles, location fields and cards alike")
struct OwnTracksStorageContractTests {
    private func record(_ t: Double) -> LocationRecord {
        LocationRecord(
            fix: try! Fix(
                coordinate: Coordinate(latitude: 48.85, longitude: 2.29), horizontalAccuracy: 9, timestamp: Date(timeIntervalSince1970: t)),
            trigger: .request)
    }

    @Test("profiles: every device has one, empty until saved; saving an unknown device's answers false", arguments: StorageKind.available)
    func profiles(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let device = uniqueDevice()
            try await storage.addDevice(id: device, tokenHash: Tokens.hash("t"), at: Date())
            #expect(try await storage.ownTracksProfiles().first { $0.device == device } == OwnTracksProfile(device: device))
            let profile = OwnTracksProfile(device: device, user: "jane", name: "phone", group: "family", key: "s3cr3t")
            #expect(try await storage.saveOwnTracksProfile(profile))
            #expect(try await storage.ownTracksProfiles().first { $0.device == device } == profile)
            #expect(profile.topic == "owntracks/jane/phone" && profile.defaultTrackerID == "ne")
            var cleared = profile
            cleared.key = nil
            cleared.group = nil
            #expect(try await storage.saveOwnTracksProfile(cleared))
            #expect(try await storage.ownTracksProfiles().first { $0.device == device } == cleared)
            #expect(try await storage.saveOwnTracksProfile(OwnTracksProfile(device: uniqueDevice(), key: "k")) == false)
            #expect(try await storage.removeDevice(device) != nil)
            #expect(try await storage.ownTracksProfiles().allSatisfy { $0.device != device }, "a removed device's key is gone with it")
        }
    }

    @Test("one profile by device, by group and by topic: the keyed reads /pub makes", arguments: StorageKind.available)
    func profileLookups(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let (jane, john, plain) = (uniqueDevice(), uniqueDevice(), uniqueDevice())
            for device in [jane, john, plain] { try await storage.addDevice(id: device, tokenHash: Tokens.hash("t"), at: Date()) }
            let group = "group-\(jane)"
            let janes = OwnTracksProfile(device: jane, user: "u-\(jane)", name: "phone", group: group, key: "k")
            let johns = OwnTracksProfile(device: john, group: group)
            #expect(try await storage.saveOwnTracksProfile(janes))
            #expect(try await storage.saveOwnTracksProfile(johns))
            #expect(try await storage.ownTracksProfile(device: jane) == janes)
            #expect(
                try await storage.ownTracksProfile(device: plain) == OwnTracksProfile(device: plain),
                "a device never configured has an empty profile")
            #expect(try await storage.ownTracksProfile(device: uniqueDevice()) == nil)
            #expect(try await storage.ownTracksProfiles(group: group) == [janes, johns].sorted { $0.device < $1.device })
            #expect(try await storage.ownTracksProfiles(group: "none-\(jane)").isEmpty)
            #expect(try await storage.ownTracksProfile(topic: "owntracks/u-\(jane)/phone") == janes)
            #expect(
                try await storage.ownTracksProfile(topic: "owntracks/\(plain)/\(plain)") == OwnTracksProfile(device: plain),
                "an empty profile's topic is owntracks/ID/ID")
            #expect(
                try await storage.ownTracksProfile(topic: "owntracks/\(jane)/\(jane)") == nil, "a configured user and name replace the id")
            #expect(try await storage.ownTracksProfile(topic: "owntracks/u-\(jane)/other") == nil)
            #expect(try await storage.removeDevice(john) != nil)
            #expect(try await storage.ownTracksProfiles(group: group) == [janes], "a removed device leaves its group")
            #expect(try await storage.ownTracksProfile(device: john) == nil)
        }
    }

    @Test(
        "an OwnTracks location stored with its fields in one call: read back with them, a resend counted as a duplicate",
        arguments: StorageKind.available)
    func ingestWithFields(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let device = uniqueDevice()
            try await storage.addDevice(id: device, tokenHash: Tokens.hash("token"), at: Date())
            let account = try #require(try await storage.ownTracksAccount(device: device))
            let location = record(1_706_858_149)
            let fields = OwnTracksFields(
                tid: "j1", topic: "owntracks/jane/phone", battery: 80, batteryStatus: 1, connectivity: "m", ssid: nil, bssid: nil,
                message: #"{"_type":"location","batt":80}"#)
            #expect(
                try await storage.ingestOwnTracksTakingCommands(location, fields: fields, account: account, at: Date()).counts
                    == IngestCounts(accepted: 1, duplicate: 0))
            // A resend, here with other fields (the same _id, or the same tst, lat and lon with another
            // battery), is a duplicate and leaves the stored location's fields as they were.
            var other = fields
            other.battery = 20
            other.message = #"{"_type":"location","batt":20}"#
            #expect(
                try await storage.ingestOwnTracksTakingCommands(location, fields: other, account: account, at: Date()).counts
                    == IngestCounts(accepted: 0, duplicate: 1))
            let read = try await storage.ownTracksLocations(device: device, from: .distantPast, to: .distantFuture, limit: nil)
            #expect(read.map(\.record.id) == [location.id] && read.first?.fields == fields)
        }
    }

    @Test(
        "location fields: read with their location (all oldest first, or the newest N newest first), never without it; erased and pruned with it",
        arguments: StorageKind.available)
    func fields(_ kind: StorageKind) async throws {
        // Its own database: prune drops whole months, which other tests sharing one would miss.
        try await withIsolatedStorage(kind) { storage in
            let device = uniqueDevice()
            let (first, second, orphan) = (record(1_706_858_149), record(1_706_861_749), record(1_706_900_000))
            let fields = OwnTracksFields(
                tid: "j1", topic: "owntracks/jane/phone", battery: 53, batteryStatus: 2, connectivity: "w", ssid: "mywifi", bssid: "b0:f2",
                message: #"{"_type":"location","batt":53,"x":[1]}"#)
            try await storage.saveOwnTracksFields(fields, record: first.id, timestamp: first.fix.timestamp, device: device)
            try await storage.saveOwnTracksFields(fields, record: orphan.id, timestamp: orphan.fix.timestamp, device: device)
            let received = Date(timeIntervalSince1970: 1_710_000_000)
            _ = try await storage.ingest([first, second], device: device, at: received)
            let all = try await storage.ownTracksLocations(device: device, from: .distantPast, to: .distantFuture, limit: nil)
            #expect(
                all == [
                    OwnTracksLocation(record: first, fields: fields, receivedAt: received),
                    OwnTracksLocation(record: second, fields: nil, receivedAt: received),
                ])
            #expect(
                try await storage.ownTracksLocations(device: device, from: .distantPast, to: .distantFuture, limit: 1).map(\.record.id) == [
                    second.id
                ])
            #expect(
                try await storage.ownTracksLocations(device: device, from: second.fix.timestamp, to: .distantFuture, limit: nil).map(
                    \.record.id) == [second.id])
            var replaced = fields
            replaced.battery = 12
            try await storage.saveOwnTracksFields(replaced, record: first.id, timestamp: first.fix.timestamp, device: device)
            #expect(
                try await storage.ownTracksLocations(device: device, from: .distantPast, to: second.fix.timestamp, limit: nil).first?.fields
                    == fields, "a stored location keeps its fields")
            try await storage.saveOwnTracksFields(replaced, record: orphan.id, timestamp: orphan.fix.timestamp, device: device)
            _ = try await storage.prune(before: second.fix.timestamp)
            #expect(
                try await storage.ownTracksLocations(device: device, from: .distantPast, to: .distantFuture, limit: nil).map(\.record.id)
                    == [second.id])
            _ = try await storage.ingest([first], device: device, at: Date())
            #expect(
                try await storage.ownTracksLocations(device: device, from: .distantPast, to: .distantFuture, limit: 1).first?.fields == nil)
            #expect(
                try await storage.ownTracksLocations(device: device, from: .distantPast, to: second.fix.timestamp, limit: nil).first?.fields
                    == nil,
                "a pruned location's fields went with it")
            _ = try await storage.ingest([orphan], device: device, at: Date())
            #expect(
                try await storage.ownTracksLocations(device: device, from: orphan.fix.timestamp, to: .distantFuture, limit: nil).first?
                    .fields
                    == replaced, "fields saved again before their location was stored are replaced")
            _ = try await storage.deleteDevice(device)
            _ = try await storage.ingest([orphan], device: device, at: Date())
            #expect(
                try await storage.ownTracksLocations(device: device, from: .distantPast, to: .distantFuture, limit: nil).first?.fields
                    == nil,
                "an erased device's fields went with it")
        }
    }

    @Test(
        "U+0000 in the typed fields is stored as U+FFFD on both kinds, through /pub's write and saveOwnTracksFields alike",
        arguments: StorageKind.available)
    func nulInFields(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let device = uniqueDevice()
            try await storage.addDevice(id: device, tokenHash: Tokens.hash("token"), at: Date())
            let account = try #require(try await storage.ownTracksAccount(device: device))
            let (written, saved) = (record(1_706_858_149), record(1_706_858_150))
            let message = #"{"_type":"location","tid":"a\u0000"}"#
            let nul = OwnTracksFields(
                tid: "a\u{0}", topic: "owntracks/\u{0}/x", battery: 1, batteryStatus: 1, connectivity: "\u{0}", ssid: "net\u{0}work",
                bssid: "\u{0}\u{0}", message: message)
            let expected = OwnTracksFields(
                tid: "a\u{FFFD}", topic: "owntracks/\u{FFFD}/x", battery: 1, batteryStatus: 1, connectivity: "\u{FFFD}",
                ssid: "net\u{FFFD}work", bssid: "\u{FFFD}\u{FFFD}", message: message)
            #expect(nul.tid == "a\u{FFFD}" && nul.message == message, "the message keeps its escape as six characters")
            #expect(
                try await storage.ingestOwnTracksTakingCommands(written, fields: nul, account: account, at: Date()).counts
                    == IngestCounts(accepted: 1))
            try await storage.saveOwnTracksFields(nul, record: saved.id, timestamp: saved.fix.timestamp, device: device)
            #expect(try await storage.ingest([saved], device: device, at: Date()) == IngestCounts(accepted: 1))
            let read = try await storage.ownTracksLocations(device: device, from: .distantPast, to: .distantFuture, limit: nil)
            #expect(read.map(\.record.id) == [written.id, saved.id])
            #expect(read.map(\.fields) == [expected, expected])
        }
    }

    @Test("lastMessage is the newest message of the type", arguments: StorageKind.available)
    func lastMessage(_ kind: StorageKind) async throws {
        try await withStorage(kind) { storage in
            let device = uniqueDevice()
            #expect(try await storage.lastMessage("card", device: device) == nil)
            try await storage.saveMessage("card", body: #"{"name":"old"}"#, device: device, at: Date())
            try await storage.saveMessage("card", body: #"{"name":"new"}"#, device: device, at: Date())
            try await storage.saveMessage("lwt", body: "{}", device: device, at: Date())
            #expect(try await storage.lastMessage("card", device: device)?.body == #"{"name":"new"}"#)
        }
    }
}
