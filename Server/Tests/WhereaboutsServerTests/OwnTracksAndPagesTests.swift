import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

@Suite("OwnTracks /pub and the HTML pages")
struct OwnTracksAndPagesTests {
    private func basic(_ user: String, _ password: String) -> [String: String] {
        ["Authorization": "Basic \(Data("\(user):\(password)".utf8).base64EncodedString())", "X-Limit-U": "owner", "X-Limit-D": user]
    }

    @Test("an OwnTracks app publishes unchanged: location, transition, resend recognised, cmd answers", arguments: StorageKind.available)
    func ownTracks(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let tst = Int(Date().timeIntervalSince1970) - 600
            let location =
                #"{"_type":"location","lat":47.3769,"lon":8.5417,"tst":\#(tst),"acc":12,"alt":408,"vel":18,"cog":270,"tid":"ph","t":"u"}"#
            let auth = basic(server.device, server.token)
            let first = try await server.send("POST", "/pub", token: nil, body: Data(location.utf8), headers: auth)
            #expect(first.status == 200)
            #expect(String(decoding: first.body, as: UTF8.self) == "[]")
            _ = try await server.send("POST", "/pub", token: nil, body: Data(location.utf8), headers: auth)
            let stored = try #require(try await server.storage.last(device: server.device))
            #expect(stored.fix.speed == 5)
            #expect(stored.trigger == .request)
            #expect(try await server.storage.devices().first { $0.id == server.device }?.locations == 1)
            let transition =
                #"{"_type":"transition","event":"leave","rid":"office","desc":"Office","tst":\#(tst + 60),"lat":47.377,"lon":8.54,"acc":10,"t":"c"}"#
            #expect(try await server.send("POST", "/pub", token: nil, body: Data(transition.utf8), headers: auth).status == 200)
            #expect(try await server.storage.events(device: server.device, from: .distantPast, to: .distantFuture).map(\.kind) == [.exit])
            #expect(
                try await server.send(
                    "POST", "/pub", token: nil,
                    body: Data(#"{"_type":"waypoint","desc":"Home","lat":1,"lon":2,"rad":50,"tst":1700000000}"#.utf8), headers: auth
                ).status == 200)
            #expect(
                try await server.storage.regions(device: server.device) == [WireRegion(id: "Home", latitude: 1, longitude: 2, radius: 50)])
            let badWaypoint = try await server.send(
                "POST", "/pub", token: nil, body: Data(#"{"_type":"waypoint","desc":"Sea","lat":1,"lon":2,"rad":-5}"#.utf8), headers: auth)
            #expect(badWaypoint.status == 400)
            try await queueCommand(.reportLocation, device: server.device, in: server.storage)
            let card = try await server.send("POST", "/pub", token: nil, body: Data(#"{"_type":"card","name":"me"}"#.utf8), headers: auth)
            #expect(String(decoding: card.body, as: UTF8.self) == #"[{"_type":"cmd","action":"reportLocation"}]"#)
            let wrong = try await server.send("POST", "/pub", token: nil, body: Data(location.utf8), headers: basic(server.device, "nope"))
            #expect(wrong.status == 401)
            #expect(try await server.send("POST", "/pub", token: nil, body: Data(location.utf8)).status == 401)
            let bad = try await server.send(
                "POST", "/pub", token: nil, body: Data(#"{"_type":"location","lat":95,"lon":1,"tst":1700000000}"#.utf8), headers: auth)
            #expect(bad.status == 400)
            #expect((server.json(bad)["message"] as? String)?.contains("latitude") == true)
        }
    }

    @Test(
        "nothing is acknowledged that was not stored: a refused message gets a 4xx saying why, and nothing is kept",
        arguments: [
            (#"{"_type":"location","lat":1,"lon":1,"tst":1e16}"#, 400, "tst 1e+16 is not between"),
            (#"{"_type":"location","lat":1,"lon":1,"tst":-1e16}"#, 400, "tst -1e+16 is not between"),
            (#"{"_type":"transition","event":"enter","rid":"home","tst":1e16}"#, 400, "tst 1e+16 is not between"),
            (#"{"_type":"encrypted","data":"c2VjcmV0"}"#, 422, "has no OwnTracks key"),
            (#"{"_type":"LOCATION","lat":1,"lon":1,"tst":1700000000}"#, 400, #"_type "LOCATION" is not one this server stores"#),
            (#"{"_type":"beacon","uuid":"x"}"#, 400, "send one of location, transition, waypoint, waypoints, card, lwt, status"),
            (#"{"lat":1,"lon":1,"tst":1700000000}"#, 400, #"no "_type""#),
            (#"{"_type":5}"#, 400, #"no "_type" string"#),
            (#"{"_type":"waypoints","waypoints":{"desc":"Home","lat":1,"lon":2,"rad":50}}"#, 400, "non-empty array"),
            (#"{"_type":"waypoints","waypoints":[]}"#, 400, "non-empty array"),
            (
                #"{"_type":"waypoints","waypoints":[{"desc":"A","lat":1,"lon":2,"rad":50},{"desc":"B","lat":1,"lon":2,"rad":-1}]}"#, 400,
                "waypoints[1]"
            ),
            (#"{"_type":"waypoint","desc":"Sea","lat":1,"lon":2,"rad":1.7e308}"#, 400, "radius 1.7e+308 is not within 1 to 1000000 m"),
            (#"{"_type":"location","lat":1,"lon":1,"tst":1700000000,"alt":1.7e308}"#, 400, "altitude 1.7e+308"),
            (#"{"_type":"location","lat":1,"lon":1,"tst":1700000000,"acc":1e6}"#, 400, "accuracy 1000000.0"),
            (#"{"_type":"location","lat":1,"lon":1,"tst":1700000000,"vel":1e6}"#, 400, "speed"),
            (#"{"_type":"location","lat":true,"lon":1,"tst":1700000000}"#, 400, "numeric lat"),
        ])
    func refused(body: String, status: Int, words: String) async throws {
        try await withLiveServer(.sqlite) { server in
            let reply = try await server.send(
                "POST", "/pub", token: nil, body: Data(body.utf8), headers: basic(server.device, server.token))
            #expect(reply.status == status)
            #expect((server.json(reply)["message"] as? String)?.contains(words) == true, "\(server.json(reply))")
            #expect(try await server.storage.last(device: server.device) == nil)
            #expect(try await server.storage.events(device: server.device, from: .distantPast, to: .distantFuture).isEmpty)
            #expect(try await server.storage.regions(device: server.device).isEmpty)
            #expect(try await server.storage.messages(device: server.device).isEmpty)
            #expect(try await server.send("GET", "/health", token: nil).status == 200)
        }
    }

    @Test("a waypoint id of 100 KB is refused, naming the limit")
    func longWaypointID() async throws {
        try await withLiveServer(.sqlite) { server in
            let body = #"{"_type":"waypoint","desc":"\#(String(repeating: "w", count: 100_000))","lat":1,"lon":2,"rad":50}"#
            let reply = try await server.send(
                "POST", "/pub", token: nil, body: Data(body.utf8), headers: basic(server.device, server.token))
            #expect(reply.status == 400)
            #expect((server.json(reply)["message"] as? String)?.contains("longer than 200 characters") == true)
            #expect(try await server.storage.regions(device: server.device).isEmpty)
        }
    }

    @Test("card, lwt and status are stored as they came, and only then acknowledged", arguments: StorageKind.available)
    func keptAsTheyCame(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let messages = [
                #"{"_type":"card","name":"Ada","tid":"ad","face":"iVBORw0KGgo="}"#, #"{"_type":"lwt","tst":1700000000}"#,
                #"{"_type":"status","android":{"hib":1,"bo":0}}"#,
            ]
            for message in messages {
                let reply = try await server.send(
                    "POST", "/pub", token: nil, body: Data(message.utf8), headers: basic(server.device, server.token))
                #expect(reply.status == 200)
            }
            let kept = try await server.storage.messages(device: server.device)
            #expect(kept.map(\.type) == ["card", "lwt", "status"])
            for (message, stored) in zip(messages, kept) {
                let sent = try JSONSerialization.jsonObject(with: Data(message.utf8)) as? NSDictionary
                #expect(try JSONSerialization.jsonObject(with: Data(stored.body.utf8)) as? NSDictionary == sent)
            }
        }
    }

    @Test("pages need a login: the form sets an HttpOnly, SameSite=Strict cookie; ?token= opens nothing; a rotated token's login ends")
    func pagesAndLogins() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.send(
                "POST", "/v1/devices/\(server.device)/locations", token: server.token, body: batchBody(wireLocations(50)))
            let page = "/devices/\(server.device)"
            let anonymous = try await server.raw("GET", page)
            #expect(anonymous.status == 401)
            #expect(anonymous.text.contains("action=\"/login\""), "a 401 page is the login form")
            #expect(try await server.raw("GET", page + "?token=\(server.token)").status == 401, "tokens in URLs are not taken")

            let wrong = try await server.login(device: server.device, token: "guess")
            #expect(wrong.status == 401)
            #expect(wrong.text.contains("not valid for this device"))
            let login = try await server.login(device: server.device, token: server.token)
            #expect(login.status == 303)
            #expect(login.headers["location"] == page)
            let setCookie = try #require(login.headers["set-cookie"])
            #expect(
                setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && !setCookie.contains("Secure"), "\(setCookie)")
            let cookie = try #require(setCookie.split(separator: ";").first.map(String.init))
            let day = try await server.raw("GET", page, headers: [("Cookie", cookie)])
            #expect(day.status == 200)
            let html = day.text
            #expect(html.contains("<svg") && html.contains("id=\"map\"") && html.contains("/assets/leaflet/leaflet.js"))
            #expect(!html.contains(server.token), "the token is nowhere in the page")
            #expect(try await server.raw("GET", "/", headers: [("Cookie", cookie)]).status == 303, "a device is sent to its own page")
            #expect(try await server.raw("GET", "/devices/\(uniqueDevice())", headers: [("Cookie", cookie)]).status == 403)
            #expect(try await server.raw("GET", "/assets/leaflet/leaflet.js").status == 200)

            #expect(try await server.storage.rotateToken(device: server.device, tokenHash: Tokens.hash("rotated")))
            let ended = try await server.raw("GET", page, headers: [("Cookie", cookie)])
            #expect(ended.status == 401)
            #expect(ended.text.contains("log in"))
            #expect(
                try await server.send("GET", "/v1/devices/\(server.device)/last", token: server.token).status == 401,
                "the old token is revoked")

            let admin = try await server.login(device: "", token: LiveServer.adminToken)
            #expect(admin.headers["location"] == "/")
            let adminCookie = try #require(admin.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
            let list = try await server.raw("GET", "/", headers: [("Cookie", adminCookie)])
            #expect(list.text.contains(server.device))
            let logout = try await server.raw("POST", "/logout", headers: [("Cookie", adminCookie)])
            #expect(logout.status == 303 && logout.headers["set-cookie"]?.contains("Max-Age=0") == true)
            #expect(try await server.raw("GET", "/", headers: [("Cookie", adminCookie)]).status == 401, "logged out")
        }
    }

    @Test("a region id holding markup (<!--<script>, </script>, &) stays inside the day page's map data, as JSON that reads back")
    func markupInRegionID() async throws {
        try await withLiveServer(.sqlite) { server in
            let id = "<!--<script></script>&amp;"
            try await server.storage.saveRegions(
                [WireRegion(id: id, latitude: 47.37, longitude: 8.54, radius: 100)], device: server.device, at: Date())
            _ = try await server.send(
                "POST", "/v1/devices/\(server.device)/locations", token: server.token, body: batchBody(wireLocations(5)))
            let login = try await server.login(device: server.device, token: server.token)
            let cookie = try #require(login.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
            let yesterday = String(Timestamp.format(Date().addingTimeInterval(-86_400)).prefix(10))
            let html = try await server.raw("GET", "/devices/\(server.device)?date=\(yesterday)", headers: [("Cookie", cookie)]).text
            let opening = #"<script id="map-data" type="application/json">"#
            let start = try #require(html.range(of: opening)?.upperBound, "\(html)")
            let end = try #require(html[start...].range(of: "</script>")?.lowerBound)
            let block = html[start..<end]
            #expect(!block.contains("<") && !block.contains(">") && !block.contains("&"), "\(block)")
            let data = try #require(try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any])
            #expect((data["regions"] as? [[String: Any]])?.first?["label"] as? String == id)
            #expect(html[end...].contains(#"<script src="/assets/day-map.js"></script>"#) && html.contains(#"<div id="drawing">"#))
        }
    }

    @Test("behind a trusted TLS proxy the cookie is Secure")
    func secureCookie() async throws {
        let settings = ServerSettings(rateLimit: 0, adminToken: LiveServer.adminToken, trustForwardedFor: true)
        try await withLiveServer(.sqlite, settings: settings) { server in
            let login = try await server.login(
                device: server.device, token: server.token, headers: [("X-Forwarded-Proto", "https"), ("X-Forwarded-For", "198.51.100.7")])
            #expect(login.headers["set-cookie"]?.hasSuffix("; Secure") == true)
        }
    }
}

/// Runs a program to its end and returns its exit status; its standard output and error go to
/// `standardOutput` and `standardError` when given.
func runProcess(
    _ path: String, _ arguments: [String], environment: [String: String]? = nil, standardOutput: FileHandle = .nullDevice,
    standardError: FileHandle = .nullDevice
) async throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardOutput = standardOutput
    process.standardError = standardError
    let exit = ProcessExit(process)
    try process.run()
    await exit.wait()
    return process.terminationStatus
}
