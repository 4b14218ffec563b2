import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

@Suite("OwnTracks users switch without losing anything: every _type, encryption, friends, the Recorder API")
struct OwnTracksRecorderTests {
    private func basic(_ user: String, _ password: String) -> [String: String] {
        ["Authorization": "Basic \(Data("\(user):\(password)".utf8).base64EncodedString())"]
    }

    private func publish(_ server: LiveServer, _ body: String, device: String? = nil, token: String? = nil) async throws -> HTTPReply {
        try await server.send(
            "POST", "/pub", token: nil, body: Data(body.utf8), headers: basic(device ?? server.device, token ?? server.token))
    }

    private func array(_ reply: HTTPReply) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: reply.body) as? [[String: Any]]) ?? []
    }

    /// Sets the device's profile, the way `device set-user`, `set-key` and `set-group` do.
    private func profile(
        _ server: LiveServer, _ device: String, user: String? = nil, name: String? = nil, group: String? = nil, key: String? = nil
    ) async throws {
        #expect(
            try await server.storage.saveOwnTracksProfile(OwnTracksProfile(device: device, user: user, name: name, group: group, key: key)))
    }

    /// Every member of `sent` is in `got` with the same value.
    private func expectKept(_ sent: [String: Any], in got: [String: Any], _ comment: String) {
        for (key, value) in sent {
            #expect(OwnTracksBooklet.canonical(got[key]) == OwnTracksBooklet.canonical(value), "\(comment): \(key)")
        }
    }

    @Test(
        "every _type the apps send is stored (the encrypted one decrypted) and every location field comes back on /api/0",
        arguments: StorageKind.available)
    func everyType(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let user = uniqueDevice("jane")
            try await profile(server, server.device, user: user, name: "nokia", key: "mysecreTpass01")
            let (location, laterLocation) = (
                OwnTracksBooklet.topic(OwnTracksBooklet.location, user: user),
                OwnTracksBooklet.topic(OwnTracksBooklet.laterLocation, user: user)
            )
            let messages = [
                location, OwnTracksBooklet.transition, OwnTracksBooklet.waypoint, OwnTracksBooklet.waypoints, OwnTracksBooklet.card,
                OwnTracksBooklet.lwt, OwnTracksBooklet.status, OwnTracksBooklet.encrypted(laterLocation, passphrase: "mysecreTpass01"),
            ]
            for message in messages {
                let reply = try await publish(server, message)
                #expect(reply.status == 200, "\(message.prefix(40)): \(String(decoding: reply.body, as: UTF8.self))")
                let answer = server.json(reply)
                #expect(answer["_type"] as? String == "encrypted", "a device with a key gets its answer encrypted, as from the Recorder")
                let opened = try #require(OwnTracksBooklet.opened(answer["data"] as? String ?? "", passphrase: "mysecreTpass01"))
                #expect(String(decoding: opened, as: UTF8.self) == "[]")
            }
            let storage = server.storage
            let device = server.device
            let event = try #require(try await storage.events(device: device, from: .distantPast, to: .distantFuture).first)
            #expect(event.regionID == "f7676c" && event.kind == .enter && event.latitude == 48.87069)
            #expect(try await storage.regions(device: device).map(\.id) == ["f7676c", "my-region-id-1", "my-region-id-2"])
            #expect(try await storage.messages(device: device).map(\.type) == ["card", "lwt", "status"])

            let auth = basic(device, server.token)
            #expect(server.json(try await server.send("GET", "/api/0/version", token: nil))["version"] as? String == "1.0.1")
            #expect(
                OwnTracksBooklet.canonical(server.json(try await server.send("GET", "/api/0/list", token: nil, headers: auth))["results"])
                    == OwnTracksBooklet.canonical([user]))
            #expect(
                OwnTracksBooklet.canonical(
                    server.json(try await server.send("GET", "/api/0/list?user=\(user)", token: nil, headers: auth))["results"])
                    == #"[["nokia"]]"#)

            let last = array(try await server.send("GET", "/api/0/last?user=\(user)&device=nokia", token: nil, headers: auth))
            #expect(last.count == 1)
            let newest = try #require(last.first)
            expectKept(OwnTracksBooklet.object(laterLocation), in: newest, "last")
            #expect(newest["username"] as? String == user && newest["device"] as? String == "nokia")
            #expect(newest["isotst"] as? String == "2024-02-02T08:15:49Z" && newest["disptst"] as? String == "2024-02-02 08:15:49")
            #expect(
                newest["name"] as? String == "Jane Jolie" && newest["face"] != nil, "the card is merged into last, as the Recorder does")

            let range = "from=2024-02-01&to=2024-02-03T00:00:00"
            let locations = server.json(
                try await server.send("GET", "/api/0/locations?user=\(user)&device=nokia&\(range)", token: nil, headers: auth))
            #expect(locations["count"] as? Int == 2)
            let data = try #require(locations["data"] as? [[String: Any]])
            expectKept(OwnTracksBooklet.object(location), in: data[0], "locations[0]")
            expectKept(OwnTracksBooklet.object(laterLocation), in: data[1], "locations[1]")
            #expect(data[0]["isotst"] as? String == "2024-02-02T07:15:49Z")
            #expect(data[0]["isorcv"] as? String == "2024-02-02T07:15:49Z", "isorcv is the location's tst, as the Recorder's .rec stamp")
            #expect(data[0]["topic"] as? String == "owntracks/\(user)/nokia", "the topic the app sent is kept")

            let limited = server.json(
                try await server.send(
                    "POST", "/api/0/locations", token: nil, body: Data("user=\(user)&device=nokia&\(range)&limit=1&fields=tst,batt".utf8),
                    headers: auth.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 }))
            #expect(
                OwnTracksBooklet.canonical(limited["data"]) == #"[[{"batt":52,"tst":1706861749}]]"#,
                "limit is the newest, fields the members kept")
            let geo = server.json(
                try await server.send(
                    "GET", "/api/0/locations?user=\(user)&device=nokia&\(range)&format=geojson", token: nil, headers: auth))
            #expect(geo["type"] as? String == "FeatureCollection" && (geo["features"] as? [Any])?.count == 2)
            let line = server.json(
                try await server.send(
                    "GET", "/api/0/locations?user=\(user)&device=nokia&\(range)&format=linestring", token: nil, headers: auth))
            #expect(
                OwnTracksBooklet.canonical((line["geometry"] as? [String: Any])?["coordinates"])
                    == "[[[2.292713,48.856826],[2.29401,48.86043]]]", "linestring: the track, oldest first")
            let pois = server.json(
                try await server.send(
                    "GET", "/api/0/locations?user=\(user)&device=nokia&\(range)&format=geojsonpoi", token: nil, headers: auth))
            #expect(
                OwnTracksBooklet.canonical((pois["features"] as? [[String: Any]])?.map { $0["properties"] })
                    == #"[[{"address":"","isotst":"2024-02-02T07:15:49Z","name":"Eiffel"}]]"#, "geojsonpoi: the location naming a poi")
            #expect(
                array(try await server.send("GET", "/api/0/last?device=nokia", token: nil, headers: auth)).isEmpty,
                "a device without its user selects nothing, as in the Recorder")
            #expect(data[0]["username"] == nil && data[0]["device"] == nil, "locations' objects name no user or device, as the Recorder's")
        }
    }

    @Test(
        "a range holding more locations than the server answers at once is refused naming from, to and limit; the newest up to it are served",
        arguments: StorageKind.available)
    func boundedLocations(_ kind: StorageKind) async throws {
        let settings = ServerSettings(rateLimit: 0, adminToken: LiveServer.adminToken, maxRecorderLocations: 5)
        try await withLiveServer(kind, settings: settings) { server in
            let user = uniqueDevice("jane")
            try await profile(server, server.device, user: user, name: "nokia")
            let auth = basic(server.device, server.token)
            let start = Int(Date().timeIntervalSince1970) - 3600
            for offset in 0..<5 {
                #expect(try await publish(server, #"{"_type":"location","lat":52.5,"lon":13.4,"tst":\#(start + offset)}"#).status == 200)
            }
            let path = "/api/0/locations?user=\(user)&device=nokia"
            let five = server.json(try await server.send("GET", path, token: nil, headers: auth))
            #expect(five["count"] as? Int == 5, "as many as the server answers: all, oldest first")
            #expect((five["data"] as? [[String: Any]])?.compactMap { $0["tst"] as? Int } == Array(start..<start + 5))

            #expect(try await publish(server, #"{"_type":"location","lat":52.5,"lon":13.4,"tst":\#(start + 5)}"#).status == 200)
            for query in ["", "&limit=6"] {
                let refused = try await server.send("GET", path + query, token: nil, headers: auth)
                #expect(refused.status == 400)
                #expect(server.json(refused)["error"] as? String == "too_many_locations")
                let message = server.json(refused)["message"] as? String ?? ""
                #expect(
                    message.contains("more than 5 locations") && message.contains("(from, to)") && message.contains("limit=5"), "\(message)"
                )
            }
            let newest = server.json(try await server.send("GET", path + "&limit=2", token: nil, headers: auth))
            #expect(
                (newest["data"] as? [[String: Any]])?.compactMap { $0["tst"] as? Int } == [start + 5, start + 4], "the newest, newest first"
            )
        }
    }

    @Test(
        "friends: devices in one group see each other's last location and card in the /pub answer; others see nothing",
        arguments: StorageKind.available)
    func friends(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let (friend, stranger) = (uniqueDevice("friend"), uniqueDevice("stranger"))
            let (friendToken, strangerToken) = (Tokens.generate(), Tokens.generate())
            try await server.storage.addDevice(id: friend, tokenHash: Tokens.hash(friendToken), at: Date())
            try await server.storage.addDevice(id: stranger, tokenHash: Tokens.hash(strangerToken), at: Date())
            let group = uniqueDevice("family")
            let user = uniqueDevice("jane")
            try await profile(server, server.device, user: user, name: "nokia", group: group)
            try await profile(server, friend, group: group, key: "friend-key")
            #expect(try await publish(server, OwnTracksBooklet.card).status == 200)
            #expect(
                array(try await publish(server, OwnTracksBooklet.topic(OwnTracksBooklet.location, user: user))).isEmpty,
                "the friend has no location yet")

            let reply = try await publish(
                server, #"{"_type":"location","lat":52.52,"lon":13.405,"tst":1706858200,"tid":"fr"}"#, device: friend, token: friendToken)
            #expect(reply.status == 200)
            let opened = try #require(OwnTracksBooklet.opened(server.json(reply)["data"] as? String ?? "", passphrase: "friend-key"))
            let answer = try #require(try JSONSerialization.jsonObject(with: opened) as? [[String: Any]])
            #expect(answer.count == 2)
            #expect(
                OwnTracksBooklet.canonical(answer.first)
                    == OwnTracksBooklet.canonical(
                        ["_type": "card", "tid": "j1", "name": "Jane Jolie", "face": "iV1CFEVkMhmCIKBUKh3ghAAAAABJRU5ErkJggg=="]))
            #expect(
                OwnTracksBooklet.canonical(answer.last)
                    == OwnTracksBooklet.canonical([
                        "_type": "location", "tid": "j1", "lat": 48.856826, "lon": 2.292713, "tst": 1_706_858_149, "vel": 0, "alt": 154,
                        "cog": 275,
                        "acc": 14, "vac": 3, "topic": "owntracks/\(user)/nokia",
                    ]))
            let back = array(try await publish(server, OwnTracksBooklet.lwt))
            #expect(back.map { $0["tid"] as? String } == ["fr"], "and the other way: the friend's location, no card (it sent none)")
            let refresh = try await publish(server, "", device: friend, token: friendToken)
            #expect(refresh.status == 200, "an empty body (the app refreshing its friends) is answered, not refused")
            let refreshed = try #require(OwnTracksBooklet.opened(server.json(refresh)["data"] as? String ?? "", passphrase: "friend-key"))
            #expect((try JSONSerialization.jsonObject(with: refreshed) as? [Any])?.count == 2, "the same friends, nothing stored")
            #expect(
                array(try await publish(server, OwnTracksBooklet.lwt, device: stranger, token: strangerToken)).isEmpty,
                "no group, no friends")
        }
    }

    @Test(
        "refused input names the input, the problem and the fix, and stores nothing",
        arguments: [
            (
                OwnTracksBooklet.encrypted("{}", passphrase: "key").replacingOccurrences(of: "\"data\":\"", with: "\"data\":\"%%"), 400,
                "not base64"
            ),
            (
                OwnTracksBooklet.encrypted(OwnTracksBooklet.location, passphrase: "key", nonceBytes: 20), 400,
                "holds 20 bytes, fewer than a 24-byte nonce"
            ),
            (OwnTracksBooklet.encrypted(OwnTracksBooklet.location, passphrase: "another key"), 422, "does not open with device"),
            (#"{"_type":"encrypted"}"#, 400, #"needs a "data" string"#),
            (
                OwnTracksBooklet.encrypted(OwnTracksBooklet.encrypted("{}", passphrase: "key"), passphrase: "key"), 400,
                "not to one unencrypted JSON message"
            ),
            (#"{"_type":"steps","steps":10}"#, 400, #"_type "steps" is not one this server stores; send one of"#),
            (#"{"_type":"location","lat":NaN,"lon":1,"tst":1706858149}"#, 400, "not a JSON object"),
            (#"{"_type":"location","lat":91,"lon":1,"tst":1706858149}"#, 400, "latitude"),
            (#"{"_type":"location","lat":1,"lon":181,"tst":1706858149}"#, 400, "longitude"),
        ])
    func refused(body: String, status: Int, words: String) async throws {
        try await withLiveServer(.sqlite) { server in
            try await profile(server, server.device, key: "key")
            let reply = try await publish(server, body)
            #expect(reply.status == status, "\(String(decoding: reply.body, as: UTF8.self))")
            #expect((server.json(reply)["message"] as? String)?.contains(words) == true, "\(server.json(reply))")
            #expect(
                try await server.storage.ownTracksLocations(device: server.device, from: .distantPast, to: .distantFuture, limit: nil)
                    .isEmpty)
            #expect(try await server.storage.messages(device: server.device).isEmpty)
        }
    }

    @Test(
        "Recorder API ranges leave out both bounds, as the Recorder does; a from after to is refused naming the default taken",
        arguments: StorageKind.available)
    func recorderRanges(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let user = uniqueDevice("jane")
            try await profile(server, server.device, user: user, name: "nokia")
            // 2024-02-02T07:15:49Z, :50 and :51.
            for tst in 1_706_858_149...1_706_858_151 {
                #expect(try await publish(server, #"{"_type":"location","lat":52.5,"lon":13.4,"tst":\#(tst)}"#).status == 200)
            }
            let path = "/api/0/locations?user=\(user)&device=nokia"
            func tsts(_ query: String) async throws -> [Int]? {
                let reply = try await server.send("GET", path + query, token: LiveServer.adminToken)
                #expect(reply.status == 200, "\(query): \(String(decoding: reply.body, as: UTF8.self))")
                return (server.json(reply)["data"] as? [[String: Any]])?.compactMap { $0["tst"] as? Int }
            }
            #expect(try await tsts("&from=2024-02-02T07:15:49&to=2024-02-02T07:15:51") == [1_706_858_150], "neither bound is in")
            #expect(try await tsts("&from=2024-02-02T07:15:48&to=2024-02-02T07:15:52") == Array(1_706_858_149...1_706_858_151))
            #expect(try await tsts("&from=2024-02-02T07:15:49&to=2024-02-02T07:15:49") == [], "an empty range is no error")

            for (query, words) in [
                ("&to=2020-01-01", "from defaults to 6 hours before now"),
                ("&to=2020-01-01", "which is after to=2020-01-01"),
                ("&from=2999-01-01", "from=2999-01-01 is after to, which defaults to now"),
                ("&from=2024-02-03&to=2024-02-02", "from=2024-02-03 is after to=2024-02-02; send from before to"),
            ] {
                let refused = try await server.send("GET", path + query, token: LiveServer.adminToken)
                #expect(refused.status == 400 && server.json(refused)["error"] as? String == "bad_range", "\(query)")
                #expect((server.json(refused)["message"] as? String)?.contains(words) == true, "\(query): \(server.json(refused))")
            }
        }
    }

    @Test(
        "X-Limit-User, -Device, -From, -To and -Fields win over the query, as on the Recorder, so a proxy can pin them",
        arguments: StorageKind.available)
    func limitHeadersFirst(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let (jane, bob) = (uniqueDevice("jane"), uniqueDevice("bob"))
            let bobsDevice = uniqueDevice("bob")
            let bobsToken = Tokens.generate()
            try await server.storage.addDevice(id: bobsDevice, tokenHash: Tokens.hash(bobsToken), at: Date())
            try await profile(server, server.device, user: jane, name: "phone")
            try await profile(server, bobsDevice, user: bob, name: "phone")
            #expect(try await publish(server, #"{"_type":"location","lat":1,"lon":1,"tst":1706858150,"batt":10}"#).status == 200)
            #expect(
                try await publish(
                    server, #"{"_type":"location","lat":2,"lon":2,"tst":1706858150,"batt":20}"#, device: bobsDevice, token: bobsToken
                ).status == 200)
            let admin = ["Authorization": "Bearer \(LiveServer.adminToken)"]
            let last = array(
                try await server.send("GET", "/api/0/last?user=\(bob)", token: nil, headers: admin.merging(["X-Limit-User": jane]) { $1 }))
            #expect(last.map { $0["username"] as? String } == [jane], "the header's user, not the query's")

            let pinned = admin.merging([
                "X-Limit-User": jane, "X-Limit-Device": "phone", "X-Limit-From": "2024-02-01", "X-Limit-To": "2024-02-03",
                "X-Limit-Fields": "lat,batt",
            ]) { $1 }
            let query = "/api/0/locations?user=\(bob)&device=phone&from=2024-02-02T07:15:50&to=2024-02-02T07:15:50&fields=lon"
            let locations = server.json(try await server.send("GET", query, token: nil, headers: pinned))
            #expect(
                OwnTracksBooklet.canonical(locations["data"]) == #"[[{"batt":10,"lat":1}]]"#,
                "jane's location, in the header's range, with the header's fields: \(locations)")
            let limited = server.json(
                try await server.send("GET", query + "&limit=1", token: nil, headers: pinned.merging(["X-Limit-Limit": "5"]) { $1 }))
            #expect(limited["count"] as? Int == 1, "limit has no header on the Recorder: the query's")
        }
    }

    @Test(
        "U+0000 in tid, topic, conn, SSID and BSSID: the location is stored with U+FFFD in the typed fields and the message as it came, alike on both kinds",
        arguments: StorageKind.available)
    func nulInTypedFields(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let body =
                #"{"_type":"location","lat":47.3,"lon":8.5,"tst":1706858149,"tid":"a\u0000","topic":"owntracks/\u0000/x","conn":"\u0000","SSID":"net\u0000work","BSSID":"\u0000"}"#
            let reply = try await publish(server, body)
            #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
            let stored = try await server.storage.ownTracksLocations(
                device: server.device, from: .distantPast, to: .distantFuture, limit: nil)
            let fields = try #require(stored.first?.fields)
            #expect(stored.count == 1)
            #expect(
                [fields.tid, fields.topic, fields.connectivity, fields.ssid, fields.bssid] == [
                    "a\u{FFFD}", "owntracks/\u{FFFD}/x", "\u{FFFD}", "net\u{FFFD}work", "\u{FFFD}",
                ])
            #expect(fields.message == body, "the message keeps \\u0000 as it came")
        }
    }

    @Test("a device without a key that sends an encrypted message, and one that publishes another device's topic, are refused")
    func refusedIdentity() async throws {
        try await withLiveServer(.sqlite) { server in
            let noKey = try await publish(server, OwnTracksBooklet.encrypted(OwnTracksBooklet.location, passphrase: "key"))
            #expect(noKey.status == 422)
            #expect((server.json(noKey)["message"] as? String)?.contains("device set-key \(server.device)") == true)
            let other = uniqueDevice("bob")
            try await server.storage.addDevice(id: other, tokenHash: Tokens.hash(Tokens.generate()), at: Date())
            try await profile(server, other, user: "bob", name: "phone")
            let stolen = try await publish(server, #"{"_type":"location","lat":1,"lon":1,"tst":1706858149,"topic":"owntracks/bob/phone"}"#)
            #expect(stolen.status == 403)
            #expect((server.json(stolen)["message"] as? String)?.contains("owntracks/bob/phone is device \(other)'s") == true)
            #expect(try await server.storage.last(device: server.device) == nil)
            #expect(try await server.storage.last(device: other) == nil)
        }
    }

    @Test("the Recorder API: Basic with a device's token sees its OwnTracks user's devices, the admin all, nothing without a login")
    func recorderAuthentication() async throws {
        try await withLiveServer(.sqlite) { server in
            let other = uniqueDevice("bob")
            try await server.storage.addDevice(id: other, tokenHash: Tokens.hash(Tokens.generate()), at: Date())
            #expect(try await server.send("GET", "/api/0/list", token: nil).status == 401)
            #expect(try await server.send("GET", "/api/0/list", token: nil, headers: basic(server.device, "wrong")).status == 401)
            let mine = server.json(try await server.send("GET", "/api/0/list", token: nil, headers: basic(server.device, server.token)))
            #expect(OwnTracksBooklet.canonical(mine["results"]) == OwnTracksBooklet.canonical([server.device]))
            let all = server.json(
                try await server.send("GET", "/api/0/list", token: nil, headers: basic("frontend", LiveServer.adminToken)))
            #expect(OwnTracksBooklet.canonical(all["results"]) == OwnTracksBooklet.canonical([server.device, other].sorted()))
            #expect(try await server.send("GET", "/api/0/list", token: LiveServer.adminToken).status == 200, "Bearer with the admin token")
            let hidden = try await server.send(
                "GET", "/api/0/locations?user=\(other)&device=\(other)", token: nil, headers: basic(server.device, server.token))
            #expect(hidden.status == 404)
            let badTime = try await server.send(
                "GET", "/api/0/locations?user=\(server.device)&device=\(server.device)&from=yesterday", token: LiveServer.adminToken)
            #expect(badTime.status == 400 && (server.json(badTime)["message"] as? String)?.contains("from=yesterday is not a time") == true)
            let badFormat = try await server.send(
                "GET", "/api/0/locations?user=\(server.device)&device=\(server.device)&format=xml", token: LiveServer.adminToken)
            #expect(
                badFormat.status == 400 && (server.json(badFormat)["message"] as? String)?.contains("send one of json, geojson") == true)
            // Named after the other device's id, this device shares nothing with it: only devices given
            // the same user explicitly see each other.
            try await profile(server, server.device, user: other)
            let named = server.json(try await server.send("GET", "/api/0/list", token: nil, headers: basic(server.device, server.token)))
            #expect(OwnTracksBooklet.canonical(named["results"]) == OwnTracksBooklet.canonical([other]), "its own user only")
            let stillHidden = try await server.send(
                "GET", "/api/0/locations?user=\(other)&device=\(other)", token: nil, headers: basic(server.device, server.token))
            #expect(stillHidden.status == 404)
            try await profile(server, other, user: other)
            let shared = server.json(
                try await server.send("GET", "/api/0/list?user=\(other)", token: nil, headers: basic(server.device, server.token)))
            #expect(OwnTracksBooklet.canonical(shared["results"]) == OwnTracksBooklet.canonical([server.device, other].sorted()))
        }
    }
}
