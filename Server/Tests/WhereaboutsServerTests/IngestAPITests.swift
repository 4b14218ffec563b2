import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

@Suite("Batch API against a live server")
struct IngestAPITests {
    @Test("a batch is stored once; the resend is all duplicates; last and history agree", arguments: StorageKind.available)
    func batchAndResend(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let locations = wireLocations(300)
            let path = "/v1/devices/\(server.device)/locations"
            let first = try await server.send("POST", path, token: server.token, body: batchBody(locations))
            #expect(first.status == 200)
            #expect(server.json(first)["accepted"] as? Int == 300)
            let again = try await server.send("POST", path, token: server.token, body: batchBody(locations))
            #expect(server.json(again)["duplicate"] as? Int == 300)
            let last = try await server.send("GET", "/v1/devices/\(server.device)/last", token: server.token)
            #expect(server.json(last)["id"] as? String == locations[299].id)
            let history = try await server.send("GET", path + "?format=json", token: LiveServer.adminToken)
            let items = server.json(history)["locations"] as? [[String: Any]] ?? []
            #expect(items.map { $0["id"] as? String } == locations.map(\.id))
        }
    }

    @Test("history in GeoJSON, GPX and CSV, bounded by from and to")
    func formats() async throws {
        try await withLiveServer(.sqlite) { server in
            let locations = wireLocations(20)
            _ = try await server.send("POST", "/v1/devices/\(server.device)/locations", token: server.token, body: batchBody(locations))
            let base = "/v1/devices/\(server.device)/locations?from=\(locations[5].timestamp)&to=\(locations[15].timestamp)"
            let geojson = try await server.send("GET", base + "&format=geojson", token: server.token)
            #expect(geojson.headers["content-type"] == "application/geo+json")
            #expect((server.json(geojson)["features"] as? [Any])?.count == 10)
            let gpx = String(decoding: try await server.send("GET", base + "&format=gpx", token: server.token).body, as: UTF8.self)
            var parser = GPXParser(sourceName: "export.gpx")
            #expect(try parser.feed(Array(gpx.utf8)).count == 10)
            let csv = String(decoding: try await server.send("GET", base + "&format=csv", token: server.token).body, as: UTF8.self)
            #expect(csv.split(separator: "\n").count == 11)
            #expect(csv.hasPrefix("id,timestamp,latitude"))
            let bad = try await server.send("GET", "/v1/devices/\(server.device)/locations?format=kml", token: server.token)
            #expect(bad.status == 400)
            #expect(server.json(bad)["message"] as? String == "format=kml is not one of json, geojson, gpx, csv")
            let badTime = try await server.send("GET", "/v1/devices/\(server.device)/locations?from=yesterday", token: server.token)
            #expect(badTime.status == 400)
            let swapped = try await server.send(
                "GET", "/v1/devices/\(server.device)/locations?from=\(locations[15].timestamp)&to=\(locations[5].timestamp)",
                token: server.token)
            #expect(swapped.status == 400 && server.json(swapped)["error"] as? String == "bad_range", "as the Recorder API refuses it")
            #expect(
                server.json(swapped)["message"] as? String
                    == "from=\(locations[15].timestamp) is after to=\(locations[5].timestamp); send from before to")
            let beforeEpoch = try await server.send("GET", "/v1/devices/\(server.device)/locations?to=-5", token: server.token)
            #expect(
                server.json(beforeEpoch)["message"] as? String
                    == "from (by default 1970-01-01T00:00:00.000Z) is after to=-5; send from before to")
            let empty = try await server.send(
                "GET", base.replacingOccurrences(of: "&to=\(locations[15].timestamp)", with: "&to=\(locations[5].timestamp)"),
                token: server.token)
            #expect(
                empty.status == 200 && (server.json(empty)["locations"] as? [Any])?.isEmpty == true, "from equal to to: nothing, no error")
        }
    }

    @Test("tokens: none is 401, another device's is 403, the admin reads but never writes")
    func authorization() async throws {
        try await withLiveServer(.sqlite) { server in
            let other = uniqueDevice()
            let otherToken = Tokens.generate()
            try await server.storage.addDevice(id: other, tokenHash: Tokens.hash(otherToken), at: Date())
            let path = "/v1/devices/\(server.device)/locations"
            let body = batchBody(wireLocations(1))
            let none = try await server.send("POST", path, token: nil, body: body)
            #expect(none.status == 401)
            #expect((server.json(none)["message"] as? String)?.contains("Authorization: Bearer") == true)
            #expect(try await server.send("POST", path, token: otherToken, body: body).status == 401)
            #expect(try await server.send("POST", path, token: "wrong", body: body).status == 401)
            #expect(try await server.send("POST", path, token: LiveServer.adminToken, body: body).status == 403)
            #expect(try await server.send("GET", path, token: otherToken).status == 401)
            #expect(try await server.send("GET", path, token: LiveServer.adminToken).status == 200)
            #expect(try await server.send("GET", "/v1/devices", token: server.token).status == 403)
            let devices = try await server.send("GET", "/v1/devices", token: LiveServer.adminToken)
            let listed = ((server.json(devices)["devices"] as? [[String: Any]]) ?? []).first { $0["id"] as? String == server.device }
            #expect((listed?["createdAt"] as? String).flatMap(Timestamp.parse) != nil, "dates are RFC 3339: \(String(describing: listed))")
        }
    }

    @Test("bad input gets a clear 4xx and the server keeps serving")
    func badInput() async throws {
        try await withLiveServer(.sqlite) { server in
            let path = "/v1/devices/\(server.device)/locations"
            func post(_ text: String) async throws -> (Int, [String: Any]) {
                let reply = try await server.send("POST", path, token: server.token, body: Data(text.utf8))
                return (reply.status, server.json(reply))
            }
            let valid = wireLocations(2)
            func item(_ change: (inout WireLocation) -> Void) -> String {
                var location = valid[0]
                change(&location)
                return String(decoding: try! JSONEncoder().encode(location), as: UTF8.self)
            }
            let cases: [(String, Int, String)] = [
                ("{\"locations\": [", 400, "not valid JSON"),
                ("{\"locations\": [{\"id\": \"\(valid[0].id)\", \"latitude\": NaN}]}", 400, "NaN"),
                ("", 400, "the body: is empty; it should be JSON text"),
                (String(repeating: "[", count: 600) + String(repeating: "]", count: 600), 400, "nested"),
                ("{\"locations\": [\(item { $0.accuracy = 12345.5 }.replacingOccurrences(of: "12345.5", with: "1e400"))]}", 422, "1e400"),
                ("{\"points\": []}", 400, "locations"),
                ("[1, 2]", 400, "send {\"locations\""),
                (
                    "{\"locations\": [{\"id\": 5, \"timestamp\": \"x\", \"latitude\": \"north\", \"longitude\": 1, \"accuracy\": 1}]}", 422,
                    "is not"
                ),
                ("{\"locations\": [\(item { $0.latitude = 91 })]}", 422, "latitude"),
                ("{\"locations\": [\(item { $0.timestamp = "1970-01-01T00:00:00.000Z" })]}", 422, "timestamp"),
                ("{\"locations\": [\(item { $0.timestamp = "2100-01-01T00:00:00.000Z" })]}", 422, "timestamp"),
                ("{\"locations\": [\(item { $0.accuracy = -3 })]}", 422, "accuracy -3.0 is not within 0 to 100000 m"),
                ("{\"locations\": []}", 400, "the batch holds no locations"),
                ("{\"locations\": [\(item { $0.id = "12345" })]}", 422, "UUID"),
            ]
            for (text, status, words) in cases {
                let (code, body) = try await post(text)
                #expect(code == status, "\(text.prefix(80)) → \(code) \(body)")
                let message = "\(body["message"] ?? "") \(body["items"] ?? "")"
                #expect(message.contains(words), "\(text.prefix(80)) → \(message)")
            }
            let mixed = try await post(
                "{\"locations\": [\(item { $0.latitude = 91 }), \(String(decoding: try JSONEncoder().encode(valid[1]), as: UTF8.self))]}")
            #expect(mixed.0 == 200)
            #expect(mixed.1["accepted"] as? Int == 1)
            #expect((mixed.1["rejected"] as? [[String: Any]])?.first?["index"] as? Int == 0)
            let tenThousand = try await server.send("POST", path, token: server.token, body: batchBody(wireLocations(10_000)))
            #expect(tenThousand.status == 413)
            let huge = try await server.send("POST", path, token: server.token, body: Data(repeating: 0x20, count: 3 << 20))
            #expect(huge.status == 413)
            #expect(
                try await server.send("POST", "/v1/devices/bad%20id!/locations", token: server.token, body: batchBody(valid)).status == 400)
            #expect(try await server.send("GET", "/health", token: nil).status == 200)
        }
    }

    @Test(
        "numbers out of bounds and impossible times are refused, naming the field, the value and the range; nothing is stored",
        arguments: [
            ("altitude", "1.7e308", "altitude 1.7e+308 is not within -1000 to 100000 m"),
            ("speed", "5000", "speed 5000.0 is not within 0 to 1000 m/s"),
            ("dwell", "1e12", "dwell 1000000000000.0 is not within 0 to 31622400 s"),
            ("accuracy", "1e300", "accuracy 1e+300 is not within 0 to 100000 m"),
            ("timestamp", #""2026-02-30T10:00:00.000Z""#, "has day 30, but month 2 of 2026 has 28 days"),
            ("timestamp", #""2025-06-01T23:59:60.000Z""#, "no leap seconds"),
            ("timestamp", #""2025-06-01T10:00:00+99:99""#, "offsets are -23:59 to +23:59"),
        ])
    func outOfBounds(field: String, value: String, words: String) async throws {
        try await withLiveServer(.sqlite) { server in
            var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(wireLocations(1)[0])) as? [String: Any])
            object[field] = nil
            let item =
                String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self).dropLast() + ",\"\(field)\":\(value)}"
            let reply = try await server.send(
                "POST", "/v1/devices/\(server.device)/locations", token: server.token, body: Data("{\"locations\":[\(item)]}".utf8))
            #expect(reply.status == 422)
            let reasons = (server.json(reply)["items"] as? [[String: Any]])?.compactMap { $0["reason"] as? String } ?? []
            #expect(reasons.first?.contains(words) == true, "\(reasons)")
            #expect(try await server.storage.last(device: server.device) == nil)
        }
    }

    @Test("the per-device rate limit answers 429 with Retry-After")
    func rateLimit() async throws {
        // One request per 20 s after a burst of two: a slow machine cannot earn a token back
        // between the four requests (at one per second, a loaded CI run once did).
        try await withLiveServer(.sqlite, settings: ServerSettings(rateLimit: 0.05, rateBurst: 2, adminToken: LiveServer.adminToken)) {
            server in
            let path = "/v1/devices/\(server.device)/locations"
            var statuses: [Int] = []
            var retryAfter: [String] = []
            for _ in 0..<4 {
                let reply = try await server.send("POST", path, token: server.token, body: batchBody(wireLocations(1)))
                statuses.append(reply.status)
                if let seconds = reply.headers["retry-after"] { retryAfter.append(seconds) }
            }
            #expect(statuses == [200, 200, 429, 429])
            #expect(retryAfter.count == 2 && retryAfter.allSatisfy { Int($0).map { (1...20).contains($0) } == true }, "\(retryAfter)")
        }
    }

    @Test(
        "commands queued by the admin arrive in the device's next answer, again after their lease until acknowledged; events are stored once",
        arguments: StorageKind.available)
    func commandsAndEvents(_ kind: StorageKind) async throws {
        // The lease running out is the feature under test. It is 10 s: a loaded CI machine once took
        // over 2 s between two answers, and the second one then rightly carried the command again.
        let lease = 10.0
        let settings = ServerSettings(rateLimit: 0, adminToken: LiveServer.adminToken, commandLease: lease)
        try await withLiveServer(kind, settings: settings) { server in
            let command = try await server.send(
                "POST", "/v1/devices/\(server.device)/commands", token: LiveServer.adminToken,
                body: Data(#"{"type":"startActiveTracking","minutes":20}"#.utf8))
            #expect(command.status == 202)
            #expect(
                try await server.send(
                    "POST", "/v1/devices/\(server.device)/commands", token: server.token, body: Data(#"{"type":"reportLocation"}"#.utf8)
                ).status == 403)
            #expect(
                try await server.send(
                    "POST", "/v1/devices/\(server.device)/commands", token: LiveServer.adminToken, body: Data(#"{"type":"explode"}"#.utf8)
                ).status == 400)
            let reply = try await server.send(
                "POST", "/v1/devices/\(server.device)/locations", token: server.token, body: batchBody(wireLocations(1)))
            // The server leased the command before this answer arrived, so the lease ends before `leaseOver`.
            let leaseOver = Date().addingTimeInterval(lease + 0.5)
            let commands = try JSONDecoder().decode(BatchReply.self, from: reply.body).commands
            #expect(commands.map(\.command) == [.startActiveTracking(minutes: 20)])
            let queuedID = try JSONDecoder().decode(DeviceCommand.self, from: command.body).id
            #expect(commands.map(\.id) == [queuedID])
            let leased = try await server.send(
                "POST", "/v1/devices/\(server.device)/locations", token: server.token, body: batchBody(wireLocations(1)))
            #expect(try JSONDecoder().decode(BatchReply.self, from: leased.body).commands.isEmpty, "leased to the first answer")
            try await Task.sleep(for: .seconds(max(0, leaseOver.timeIntervalSinceNow)))
            let resent = try await server.send(
                "POST", "/v1/devices/\(server.device)/locations", token: server.token, body: batchBody(wireLocations(1)))
            #expect(
                try JSONDecoder().decode(BatchReply.self, from: resent.body).commands.map(\.id) == [queuedID],
                "sent again once the lease ran out")
            let acknowledgement = try JSONEncoder().encode(LocationBatch(locations: [], acknowledged: [queuedID]))
            let acknowledged = try await server.send(
                "POST", "/v1/devices/\(server.device)/locations", token: server.token, body: acknowledgement)
            #expect(acknowledged.status == 200)
            #expect(try JSONDecoder().decode(BatchReply.self, from: acknowledged.body).commands.isEmpty)
            let event =
                #"{"events":[{"id":"6f1c2b8e-6b1a-4d55-9c3b-1f2e3d4c5b6a","regionId":"home","kind":"enter","timestamp":"2025-06-01T10:00:00.000Z","latitude":47.3,"longitude":8.5}]}"#
            let events = try await server.send("POST", "/v1/devices/\(server.device)/events", token: server.token, body: Data(event.utf8))
            #expect(server.json(events)["accepted"] as? Int == 1)
            let again = try await server.send("POST", "/v1/devices/\(server.device)/events", token: server.token, body: Data(event.utf8))
            #expect(server.json(again)["duplicate"] as? Int == 1)
            let emptyEvents = try await server.send(
                "POST", "/v1/devices/\(server.device)/events", token: server.token, body: Data(#"{"events":[]}"#.utf8))
            #expect(emptyEvents.status == 400)
            let longRegion = event.replacingOccurrences(of: "\"home\"", with: "\"\(String(repeating: "h", count: 201))\"")
            #expect(
                try await server.send("POST", "/v1/devices/\(server.device)/events", token: server.token, body: Data(longRegion.utf8))
                    .status == 422)
            let badKind = try await server.send(
                "POST", "/v1/devices/\(server.device)/events", token: server.token,
                body: Data(event.replacingOccurrences(of: "enter", with: "arrive").utf8))
            #expect(badKind.status == 422)
        }
    }

    @Test("health and Prometheus metrics")
    func healthAndMetrics() async throws {
        try await withLiveServer(.sqlite) { server in
            let batch = batchBody(wireLocations(7))
            _ = try await server.send("POST", "/v1/devices/\(server.device)/locations", token: server.token, body: batch)
            _ = try await server.send("POST", "/v1/devices/\(server.device)/locations", token: server.token, body: batch)
            let health = try await server.send("GET", "/health", token: nil)
            #expect(server.json(health)["status"] as? String == "ok")
            #expect(try await server.send("GET", "/metrics", token: nil).status == 401)
            #expect(try await server.send("GET", "/metrics", token: server.token).status == 403)
            let metrics = String(decoding: try await server.send("GET", "/metrics", token: LiveServer.adminToken).body, as: UTF8.self)
            #expect(metrics.contains("whereabouts_locations_ingested_total 7"))
            #expect(metrics.contains("whereabouts_locations_duplicate_total 7"))
            let route = #"route="/v1/devices/{device}/locations",method="POST",status="200""#
            #expect(metrics.contains("whereabouts_http_requests_total{\(route)} 2"), "\(metrics)")
            #expect(metrics.contains("whereabouts_http_request_duration_seconds_bucket{\(route),le=\"+Inf\"} 2"))
            #expect(metrics.contains(#"whereabouts_http_requests_total{route="/metrics",method="GET",status="401"} 1"#))
            #expect(metrics.contains("whereabouts_http_request_timeouts_total 0"))
        }
    }

    @Test("with publicMetrics, /metrics answers without a token")
    func publicMetrics() async throws {
        try await withLiveServer(.sqlite, settings: ServerSettings(rateLimit: 0, adminToken: LiveServer.adminToken, publicMetrics: true)) {
            server in
            let reply = try await server.send("GET", "/metrics", token: nil)
            #expect(reply.status == 200)
            #expect(String(decoding: reply.body, as: UTF8.self).contains("whereabouts_locations_ingested_total 0"))
        }
    }

    @Test("history bounds and the day page refuse impossible dates, naming the value")
    func impossibleQueryDates() async throws {
        try await withLiveServer(.sqlite) { server in
            for (path, words) in [
                ("/v1/devices/\(server.device)/locations?from=2026-02-30T00:00:00Z", "from \"2026-02-30T00:00:00Z\" has day 30"),
                ("/v1/devices/\(server.device)/locations?to=2026-01-01T10:00:00%2B99:99", "offsets are -23:59 to +23:59"),
                ("/v1/devices/\(server.device)/locations?from=1e400", "not a finite number"),
                ("/devices/\(server.device)?date=2026-02-30", "has day 30"),
            ] {
                let reply = try await server.send("GET", path, token: server.token)
                #expect(reply.status == 400, "\(path)")
                // The API answers JSON, the day page an HTML page; both name the value.
                let message = path.hasPrefix("/v1") ? server.json(reply)["message"] as? String : String(decoding: reply.body, as: UTF8.self)
                #expect(message?.contains(words) == true, "\(path): \(message ?? "")")
            }
        }
    }
}
