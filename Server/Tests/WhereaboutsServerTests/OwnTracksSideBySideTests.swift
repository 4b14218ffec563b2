import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsMQTT
import WhereaboutsServer

/// The same OwnTracks messages sent to a real OwnTracks Recorder (compared with 1.0.1, built with
/// `WITH_HTTP`, `WITH_ENCRYPT` and `WITH_MQTT`) and to us, posted to `/pub` or published to one
/// mosquitto both subscribe to: jane/nokia sends the booklet's messages, john/android, her friend with
/// an encryption key, a card and an encrypted location. The `/pub` answers and the Recorder API's
/// answers must agree member by member, but for ``recorderOnly``.
@Suite("Side by side with a real OwnTracks Recorder")
struct OwnTracksSideBySideTests {
    /// What the Recorder adds and we do not, left out of the comparison: its reverse geocoding
    /// (`ghash`, `addr`, `cc`, `locality`), its time zone lookup (`tzname`, `isolocal`), and its marks
    /// of how a message came (`_http` for HTTP mode, `_decrypted` for an encrypted one), which it
    /// writes into the stored message itself.
    private static let recorderOnly: Set<String> = ["ghash", "addr", "cc", "locality", "tzname", "isolocal", "_http", "_decrypted"]
    /// John's encryption passphrase, as the Recorder's `keys` database and our profile hold it.
    private static let passphrase = "s3cr1t"

    /// Who posts: the Recorder's `?u=&d=` and our Basic auth (device id and token).
    private struct Publisher {
        let query: String
        let auth: [String: String]

        init(user: String, device: String, id: String, token: String) {
            query = "u=\(user)&d=\(device)"
            auth = ["Authorization": "Basic \(Data("\(id):\(token)".utf8).base64EncodedString())"]
        }
    }

    @Test(
        "the same messages to ot-recorder and to us: the /pub answers, /api/0/list, /last and /locations agree member by member",
        .enabled(
            if: RecorderPeer.tools != nil,
            "ot-recorder and ocat are not on the PATH: build the OwnTracks Recorder (Server article, OwnTracks) to compare side by side"))
    func sideBySide() async throws {
        let recorder = try await RecorderPeer.start(
            friends: ["jane-nokia": ["john/android"], "john-android": ["jane/nokia"]], keys: ["john-android": Self.passphrase])
        defer { recorder.stop() }
        try await withLiveServer(.sqlite) { server in
            let (johnID, johnToken) = (uniqueDevice("john"), Tokens.generate())
            try await server.storage.addDevice(id: johnID, tokenHash: Tokens.hash(johnToken), at: Date())
            #expect(
                try await server.storage.saveOwnTracksProfile(
                    OwnTracksProfile(device: server.device, user: "jane", name: "nokia", group: "side-by-side")))
            #expect(
                try await server.storage.saveOwnTracksProfile(
                    OwnTracksProfile(device: johnID, user: "john", name: "android", group: "side-by-side", key: Self.passphrase)))
            let jane = Publisher(user: "jane", device: "nokia", id: server.device, token: server.token)
            let john = Publisher(user: "john", device: "android", id: johnID, token: johnToken)

            for message in [
                OwnTracksBooklet.location, OwnTracksBooklet.transition, OwnTracksBooklet.waypoint, OwnTracksBooklet.waypoints,
                OwnTracksBooklet.card, OwnTracksBooklet.lwt, OwnTracksBooklet.status, OwnTracksBooklet.laterLocation,
            ] {
                try await comparePublish(message, as: jane, recorder, server)
            }
            try await comparePublish(OwnTracksBooklet.friendCard, as: john, recorder, server)
            try await comparePublish(
                OwnTracksBooklet.encrypted(OwnTracksBooklet.friendLocation, passphrase: Self.passphrase), as: john, recorder, server)
            try await comparePublish("", as: jane, recorder, server)

            let admin = ["Authorization": "Bearer \(LiveServer.adminToken)"]
            for path in ["/api/0/list", "/api/0/list?user=jane", "/api/0/list?user=john"] {
                let (theirs, ours) = try await read(path, recorder, server, admin)
                #expect(Self.sortedResults(theirs) == Self.sortedResults(ours), "\(path)")
            }
            for query in [
                "", "?user=jane", "?user=jane&device=nokia", "?user=john&device=android", "?device=nokia", "?fields=tst,tid,topic",
            ] {
                let (theirs, ours) = try await read("/api/0/last" + query, recorder, server, admin)
                try compare(Self.sortedByTopic(theirs), Self.sortedByTopic(ours), "/api/0/last" + query)
            }
            let range = "from=2024-02-01&to=2024-02-03"
            for query in [
                "user=jane&device=nokia&\(range)", "user=jane&device=nokia&\(range)&limit=1", "user=jane&device=nokia&\(range)&limit=2",
                "user=jane&device=nokia&\(range)&fields=lat,lon,tst,isorcv",
                "user=jane&device=nokia&from=2024-02-02T08:00:00&to=2024-02-03",
                // A location exactly at from (tst 1706858149) and one exactly at to (1706861749).
                "user=jane&device=nokia&from=2024-02-02T07:15:49&to=2024-02-03",
                "user=jane&device=nokia&from=2024-02-01&to=2024-02-02T08:15:49",
                "user=john&device=android&\(range)",
            ] {
                let path = "/api/0/locations?" + query
                let (theirs, ours) = try await read(path, recorder, server, admin)
                let (their, our) = (theirs as? [String: Any], ours as? [String: Any])
                #expect(OwnTracksBooklet.canonical(their?["count"]) == OwnTracksBooklet.canonical(our?["count"]), "\(path)")
                try compare(their?["data"] as? [[String: Any]], our?["data"] as? [[String: Any]], path)
            }
            for format in ["geojson", "geojsonpoi", "linestring"] {
                let path = "/api/0/locations?user=jane&device=nokia&\(range)&format=\(format)"
                let (theirs, ours) = try await read(path, recorder, server, admin)
                #expect(theirs != nil && OwnTracksBooklet.canonical(theirs) == OwnTracksBooklet.canonical(ours), "\(path)")
            }
        }
    }

    @Test(
        "the same messages published to one mosquitto reach ot-recorder and us: /api/0/list, /last and /locations agree member by member",
        .enabled(
            if: RecorderPeer.tools != nil && MosquittoBroker.installed,
            "ot-recorder (built with MQTT) and ocat must be on the PATH, and Debian's mosquitto installed, to compare side by side"))
    func sideBySideOverMQTT() async throws {
        try await MosquittoBroker.with { broker in
            let recorder = try await RecorderPeer.start(friends: [:], keys: ["john-android": Self.passphrase], broker: broker.port)
            defer { recorder.stop() }
            let subscription = MQTTSubscription(
                host: "127.0.0.1", port: broker.port, clientID: uniqueDevice("whereabouts"), topics: MQTTSettings.defaultTopics,
                keepAlive: 5)
            try await withLiveServer(.sqlite, mqtt: subscription) { server in
                let admin = ["Authorization": "Bearer \(LiveServer.adminToken)"]
                let (probeID, johnID) = (uniqueDevice("probe"), uniqueDevice("john"))
                for (device, user, name, key) in [
                    (server.device, "jane", "nokia", nil), (probeID, "probe", "phone", nil), (johnID, "john", "android", Self.passphrase),
                ] {
                    if device != server.device {
                        try await server.storage.addDevice(id: device, tokenHash: Tokens.hash(device), at: Date())
                    }
                    #expect(
                        try await server.storage.saveOwnTracksProfile(
                            OwnTracksProfile(device: device, user: user, name: name, group: "side-by-side", key: key)))
                }
                // Both have subscribed once a probe's location reached both.
                var probe = 0
                let subscribed = try await MQTTIngestTests.eventually(within: 60) {
                    probe += 1
                    try await broker.publish([MQTTIngestTests.location(probe, base: 10)], topic: "owntracks/probe/phone")
                    return try await Self.count("/api/0/last?user=probe&device=phone", recorder, server, admin) == [1, 1]
                }
                try #require(subscribed, "the Recorder and the server never both subscribed")

                let jane = "owntracks/jane/nokia"
                try await broker.publish([OwnTracksBooklet.location, OwnTracksBooklet.lwt], topic: jane)
                try await broker.publish([OwnTracksBooklet.card], topic: jane + "/info")
                try await broker.publish([OwnTracksBooklet.transition], topic: jane + "/event")
                try await broker.publish([OwnTracksBooklet.laterLocation], topic: jane)
                try await broker.publish(
                    [OwnTracksBooklet.encrypted(OwnTracksBooklet.friendLocation, passphrase: Self.passphrase)],
                    topic: "owntracks/john/android")
                let range = "from=2024-02-01&to=2024-02-03"
                let arrived = try await MQTTIngestTests.eventually(within: 30) {
                    let jane = try await Self.count("/api/0/locations?user=jane&device=nokia&\(range)", recorder, server, admin)
                    let john = try await Self.count("/api/0/locations?user=john&device=android&\(range)", recorder, server, admin)
                    return jane == [2, 2] && john == [1, 1]
                }
                try #require(arrived, "both stored jane's two locations and john's")

                for path in ["/api/0/list", "/api/0/list?user=jane", "/api/0/list?user=john"] {
                    let (theirs, ours) = try await read(path, recorder, server, admin)
                    #expect(Self.sortedResults(theirs) == Self.sortedResults(ours), "\(path)")
                }
                for query in ["?user=jane&device=nokia", "?user=john&device=android", "?user=jane&device=nokia&fields=tst,tid,topic"] {
                    let (theirs, ours) = try await read("/api/0/last" + query, recorder, server, admin)
                    try compare(Self.sortedByTopic(theirs), Self.sortedByTopic(ours), "/api/0/last" + query)
                }
                for query in [
                    "user=jane&device=nokia&\(range)", "user=jane&device=nokia&\(range)&limit=1",
                    "user=jane&device=nokia&\(range)&fields=lat,lon,tst,isorcv", "user=john&device=android&\(range)",
                ] {
                    let path = "/api/0/locations?" + query
                    let (theirs, ours) = try await read(path, recorder, server, admin)
                    try compare(
                        (theirs as? [String: Any])?["data"] as? [[String: Any]], (ours as? [String: Any])?["data"] as? [[String: Any]], path
                    )
                }
            }
        }
    }

    /// How many objects the Recorder and we answer to a GET of `path`: `/last`'s array, or
    /// `/locations`' `count`; 0 for an answer that is not 200.
    private static func count(_ path: String, _ recorder: RecorderPeer, _ server: LiveServer, _ headers: [String: String]) async throws
        -> [Int]
    {
        func count(_ reply: HTTPReply) -> Int {
            guard reply.status == 200, let answer = try? JSONSerialization.jsonObject(with: reply.body) else { return 0 }
            return (answer as? [Any])?.count ?? (answer as? [String: Any])?["count"] as? Int ?? 0
        }
        let theirs = try await recorder.send("GET", path)
        let ours = try await server.send("GET", path, token: nil, headers: headers)
        return [count(theirs), count(ours)]
    }

    /// Posts `message` to both as `publisher`: both answer 200 with the same messages (opened with
    /// the passphrase when the answer is encrypted, which it must be for both or neither).
    private func comparePublish(_ message: String, as publisher: Publisher, _ recorder: RecorderPeer, _ server: LiveServer) async throws {
        let body = Data(message.utf8)
        let theirs = try await recorder.send("POST", "/pub?\(publisher.query)", body: body, headers: ["Content-Type": "application/json"])
        let ours = try await server.send("POST", "/pub", token: nil, body: body, headers: publisher.auth)
        let what = "/pub \(publisher.query) \(message.prefix(40))"
        #expect(theirs.status == 200 && ours.status == 200, "\(what): \(theirs.status) and \(ours.status)")
        let (their, our) = (Self.opened(theirs.body), Self.opened(ours.body))
        #expect(their.encrypted == our.encrypted, "\(what): encrypted")
        #expect(their.messages != nil && OwnTracksBooklet.canonical(their.messages) == OwnTracksBooklet.canonical(our.messages), "\(what)")
    }

    /// A `/pub` answer's messages, opened with the passphrase when it is `_type: encrypted`.
    private static func opened(_ body: Data) -> (encrypted: Bool, messages: Any?) {
        let answer = try? JSONSerialization.jsonObject(with: body)
        guard let object = answer as? [String: Any], object["_type"] as? String == "encrypted" else { return (false, answer) }
        let plaintext = (object["data"] as? String).flatMap { OwnTracksBooklet.opened($0, passphrase: passphrase) }
        return (true, plaintext.flatMap { try? JSONSerialization.jsonObject(with: $0) })
    }

    /// The JSON both answer to a GET of `path` (ours read with `headers`).
    private func read(_ path: String, _ recorder: RecorderPeer, _ server: LiveServer, _ headers: [String: String]) async throws -> (
        Any?, Any?
    ) {
        let theirs = try await recorder.send("GET", path)
        let ours = try await server.send("GET", path, token: nil, headers: headers)
        #expect(theirs.status == 200 && ours.status == 200, "\(path): \(theirs.status) and \(ours.status)")
        return (try? JSONSerialization.jsonObject(with: theirs.body), try? JSONSerialization.jsonObject(with: ours.body))
    }

    /// `/api/0/list`'s results in order: the Recorder lists its store's folders as the file system
    /// gives them, in no set order.
    private static func sortedResults(_ answer: Any?) -> [String]? {
        ((answer as? [String: Any])?["results"] as? [String])?.sorted()
    }

    /// `/api/0/last`'s objects by topic: the Recorder's order is its store's, in no set order.
    private static func sortedByTopic(_ answer: Any?) -> [[String: Any]]? {
        (answer as? [[String: Any]])?.sorted { ($0["topic"] as? String ?? "") < ($1["topic"] as? String ?? "") }
    }

    /// The objects agree in number and, pairwise, in every member but ``recorderOnly``, both ways.
    private func compare(_ theirs: [[String: Any]]?, _ ours: [[String: Any]]?, _ path: String) throws {
        let (theirs, ours) = (try #require(theirs, "\(path): the Recorder's answer"), try #require(ours, "\(path): our answer"))
        #expect(theirs.count == ours.count, "\(path): \(theirs.count) and \(ours.count) objects")
        for (their, our) in zip(theirs, ours) {
            for key in Set(their.keys).union(our.keys).subtracting(Self.recorderOnly) {
                #expect(OwnTracksBooklet.canonical(our[key]) == OwnTracksBooklet.canonical(their[key]), "\(path): \(key)")
            }
        }
    }
}
