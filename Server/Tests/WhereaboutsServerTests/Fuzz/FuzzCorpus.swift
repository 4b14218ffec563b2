import Foundation
import WhereaboutsCore

/// One request of the fuzz, and what a 2xx answer to it would claim was stored.
struct FuzzCase {
    /// What a 2xx answer claims; the oracle checks it against storage.
    enum Claim {
        case nothing
        case locations(Data)
        case events(Data)
        case ownTracks(Data)
        case command(Data)

        /// Whether a 2xx answer claims something was stored.
        var isWrite: Bool {
            if case .nothing = self { return false }
            return true
        }
    }

    let label: String
    let bytes: [UInt8]
    let claim: Claim
    /// The device a write names, whose storage the oracle reads.
    var device = ""
    /// `false`: the request is deliberately incomplete, and the server must end it (408 or a close).
    var complete = true
    /// A HEAD request: the answer has no body.
    var isHead = false
}

/// A deterministic generator of hostile requests for every endpoint and every OwnTracks `_type`:
/// valid messages with fields replaced by hostile values, removed, added or duplicated; bodies
/// truncated, garbled or too large; wrong and missing credentials; odd paths, methods and framing.
struct FuzzCorpus {
    /// The fuzz's device, another device, their tokens and the admin token.
    let device, token, otherDevice, otherToken, adminToken: String
    /// The clock the times in requests are drawn around.
    let now: Date
    var random: FuzzRandom

    mutating func next() -> FuzzCase {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<22: locationBatch()
        case 22..<32: eventBatch()
        case 32..<62: ownTracks()
        case 62..<76: read()
        case 76..<82: command()
        case 82..<98: framing()
        default: halfSent()
        }
    }

    // MARK: endpoints

    private mutating func locationBatch() -> FuzzCase {
        let items = (0..<Int.random(in: 0...4, using: &random)).map { _ in JSONText.object(mutated(location())) }
        let body = batchBody("locations", items)
        let target = path()
        return post(
            "/v1/devices/\(target)/locations", "batch locations", body, auth: bearer(), claim: .locations(Data(body)), device: target)
    }

    private mutating func eventBatch() -> FuzzCase {
        let items = (0..<Int.random(in: 0...3, using: &random)).map { _ in JSONText.object(mutated(event())) }
        let body = batchBody("events", items)
        let target = path()
        return post("/v1/devices/\(target)/events", "batch events", body, auth: bearer(), claim: .events(Data(body)), device: target)
    }

    private mutating func ownTracks() -> FuzzCase {
        let types = [
            "location", "transition", "waypoint", "waypoints", "card", "lwt", "status", "encrypted", "LOCATION", "beacon", "cmd", "", nil,
        ]
        let type = random.pick(types)
        var members: [(String, String)]
        switch type {
        case "location", "LOCATION": members = ownTracksLocation()
        case "transition": members = transition()
        case "waypoint": members = waypoint()
        case "waypoints":
            let list = (0..<Int.random(in: 0...3, using: &random)).map { _ in JSONText.object(mutated(waypoint())) }
            members = [("waypoints", random.chance(0.15) ? JSONText.object([("a", random.pick(list + ["1"]))]) : JSONText.array(list))]
        case "card": members = [("name", JSONText.quote("Ada")), ("tid", JSONText.quote("ad")), ("face", JSONText.quote("iVBORw0KGgo="))]
        case "lwt": members = [("tst", "\(Int(now.timeIntervalSince1970))")]
        case "status": members = [("android", JSONText.object([("hib", "1"), ("bo", "0")]))]
        case "encrypted": members = [("data", JSONText.quote("c2VjcmV0"))]
        default: members = ownTracksLocation()
        }
        if let type { members.insert(("_type", JSONText.quote(type)), at: 0) }
        let body = garbled(Array(JSONText.object(mutated(members)).utf8))
        let label = "pub \(type ?? "(no _type)")"
        return post(
            random.chance(0.1) ? "/pub?d=\(device)" : "/pub", label, body, auth: ownTracksAuth(), claim: .ownTracks(Data(body)),
            device: device)
    }

    private mutating func read() -> FuzzCase {
        let device = path()
        let times =
            FuzzValues.strings(now: now).prefix(28).map { String($0.dropFirst().dropLast()) } + ["1700000000", "1e400", "nan", "-1e16"]
        let query = [
            "", "?from=\(escape(random.pick(times)))", "?to=\(escape(random.pick(times)))",
            "?format=\(random.pick(["json", "geojson", "gpx", "csv", "kml", "", "JSON"]))",
        ]
        let choices: [(String, String)] = [
            ("GET", "/v1/devices/\(device)/last"), ("GET", "/v1/devices/\(device)/locations\(random.pick(query))"), ("GET", "/v1/devices"),
            ("GET", "/"), ("GET", "/devices/\(device)?date=\(escape(String(random.pick(times).prefix(10))))"), ("GET", "/health"),
            ("HEAD", "/health"), ("GET", "/metrics"), ("GET", "/devices/\(device)?token=\(token)"),
        ]
        let (method, target) = random.pick(choices)
        let auth = random.chance(0.3) ? [("Authorization", "Bearer \(adminToken)")] : bearer()
        var request = FuzzCase(label: "\(method) \(target.prefix(60))", bytes: rawRequest(method, target, headers: auth), claim: .nothing)
        request.isHead = method == "HEAD"
        return request
    }

    private mutating func command() -> FuzzCase {
        let commands = [
            [("type", JSONText.quote("reportLocation"))], [("type", JSONText.quote("startActiveTracking")), ("minutes", "15")],
            [("type", JSONText.quote("setRegions")), ("regions", JSONText.array([JSONText.object(mutated(region()))]))],
            [("type", JSONText.quote("selfDestruct"))],
        ]
        let body = garbled(Array(JSONText.object(mutated(random.pick(commands))).utf8))
        let auth = random.chance(0.8) ? [("Authorization", "Bearer \(adminToken)")] : bearer()
        let target = path()
        return post("/v1/devices/\(target)/commands", "command", body, auth: auth, claim: .command(Data(body)), device: target)
    }

    /// Odd methods, paths, versions and headers.
    private mutating func framing() -> FuzzCase {
        let long = String(repeating: "a", count: 100_000)
        let requests: [(String, [UInt8])] = [
            ("CONNECT", rawRequest("CONNECT", "example.com:443")),
            ("PUT", rawRequest("PUT", "/v1/devices/\(device)/locations", body: Array("{}".utf8))),
            ("DELETE", rawRequest("DELETE", "/health")), ("TRACE", rawRequest("TRACE", "/")), ("OPTIONS", rawRequest("OPTIONS", "*")),
            ("FOO", rawRequest("FOO", "/")), ("lowercase get", rawRequest("get", "/health")), ("long path", rawRequest("GET", "/\(long)")),
            ("long header", rawRequest("GET", "/health", headers: [("X-Long", long)])),
            ("1500 headers", rawRequest("GET", "/health", headers: (0..<1500).map { ("X-H\($0)", "v") })),
            ("HTTP/1.0", Array("GET /health HTTP/1.0\r\n\r\n".utf8)), ("HTTP/9.9", Array("GET /health HTTP/9.9\r\nHost: x\r\n\r\n".utf8)),
            ("no version", Array("GET /health\r\n\r\n".utf8)), ("garbage", Array("\u{1}\u{2}\u{3}\r\n\r\n".utf8)),
            (
                "two lengths",
                Array("POST /pub HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{}".utf8)
            ),
            ("bad length", Array("POST /pub HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\nConnection: close\r\n\r\n".utf8)),
            (
                "chunked bad",
                rawRequest("POST", "/pub", headers: [("Transfer-Encoding", "chunked")] + ownTracksAuth())
                    + Array("zz\r\n{}\r\n0\r\n\r\n".utf8)
            ),
            ("dot device", rawRequest("GET", "/v1/devices/./last", headers: bearer())),
            ("dot-dot device", rawRequest("GET", "/v1/devices/../last", headers: bearer())),
            (
                "too large",
                rawRequest(
                    "POST", "/v1/devices/\(device)/locations", headers: bearer(), body: Array(repeating: 0x20, count: (1 << 20) + 10))
            ),
            (
                "absurd length",
                rawRequest("POST", "/v1/devices/\(device)/locations", headers: bearer() + [("Content-Length", "18446744073709551615")])
            ),
        ]
        let (label, bytes) = random.pick(requests)
        return FuzzCase(label: label, bytes: bytes, claim: .nothing)
    }

    /// A request that stops part-way: in its header, in its body, or in a chunk announcing 2^64 − 1 bytes.
    private mutating func halfSent() -> FuzzCase {
        let body = Array(JSONText.object(location()).utf8)
        let requests: [(String, [UInt8])] = [
            ("half header", Array("POST /pub HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)),
            (
                "half body",
                rawRequest("POST", "/v1/devices/\(device)/locations", headers: bearer() + [("Content-Length", "\(body.count + 100)")])
                    + body
            ),
            (
                "absurd chunk",
                rawRequest("POST", "/v1/devices/\(device)/locations", headers: bearer() + [("Transfer-Encoding", "chunked")])
                    + Array("FFFFFFFFFFFFFFFF\r\n{".utf8)
            ),
        ]
        let (label, bytes) = random.pick(requests)
        return FuzzCase(label: label, bytes: bytes, claim: .nothing, complete: false)
    }

    // MARK: valid templates

    /// A random (version 4) UUID drawn from the seeded generator.
    private mutating func uuid() -> UUID {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11],
                bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    private mutating func time() -> Date { now.addingTimeInterval(-Double(Int.random(in: 0...(30 * 86_400), using: &random))) }
    private mutating func latitude() -> String { JSONText.number(Double(Int.random(in: -899_999...899_999, using: &random)) / 10_000) }
    private mutating func longitude() -> String { JSONText.number(Double(Int.random(in: -1_799_999...1_799_999, using: &random)) / 10_000) }
    private mutating func metres(_ upTo: Int) -> String { "\(Int.random(in: 0...upTo, using: &random))" }

    private mutating func location() -> [(String, String)] {
        var members = [
            ("id", JSONText.quote(uuid().uuidString.lowercased())), ("timestamp", JSONText.quote(Timestamp.format(time()))),
            ("latitude", latitude()), ("longitude", longitude()), ("accuracy", metres(200)),
        ]
        if random.chance(0.7) { members.append(("altitude", metres(3000))) }
        if random.chance(0.7) { members.append(("speed", metres(40))) }
        if random.chance(0.5) { members.append(("course", metres(359))) }
        if random.chance(0.5) { members.append(("trigger", JSONText.quote(random.pick(["policy", "region", "request"])))) }
        if random.chance(0.3) { members.append(("dwell", metres(7200))) }
        return members
    }

    private mutating func event() -> [(String, String)] {
        [
            ("id", JSONText.quote(uuid().uuidString.lowercased())), ("regionId", JSONText.quote(random.pick(["home", "office", "gym"]))),
            ("kind", JSONText.quote(random.pick(["enter", "exit", "dwell"]))), ("timestamp", JSONText.quote(Timestamp.format(time()))),
            ("latitude", latitude()), ("longitude", longitude()),
        ]
    }

    private mutating func ownTracksLocation() -> [(String, String)] {
        var members = [
            ("lat", latitude()), ("lon", longitude()), ("tst", "\(Int(time().timeIntervalSince1970))"), ("acc", metres(100)),
            ("tid", JSONText.quote("ph")),
        ]
        if random.chance(0.6) { members += [("alt", metres(2000)), ("vel", metres(120)), ("cog", metres(359))] }
        if random.chance(0.5) { members.append(("t", JSONText.quote(random.pick(["u", "t", "c", "p", "r"])))) }
        if random.chance(0.2) { members.append(("_id", JSONText.quote(uuid().uuidString))) }
        return members
    }

    private mutating func transition() -> [(String, String)] {
        [
            ("event", JSONText.quote(random.pick(["enter", "leave"]))), ("rid", JSONText.quote(random.pick(["home", "office"]))),
            ("desc", JSONText.quote("Home")), ("tst", "\(Int(time().timeIntervalSince1970))"), ("lat", latitude()), ("lon", longitude()),
            ("acc", metres(50)), ("t", JSONText.quote("c")),
        ]
    }

    private mutating func waypoint() -> [(String, String)] {
        [
            ("desc", JSONText.quote(random.pick(["Home", "Work", "Gym", "Café"]))), ("lat", latitude()), ("lon", longitude()),
            ("rad", "\(Int.random(in: 1...5000, using: &random))"), ("tst", "\(Int(time().timeIntervalSince1970))"),
        ]
    }

    private mutating func region() -> [(String, String)] {
        [
            ("id", JSONText.quote("r\(Int.random(in: 0...9, using: &random))")), ("latitude", latitude()), ("longitude", longitude()),
            ("radius", metres(5000)),
        ]
    }

    // MARK: mutations

    /// Half the time the members as they are; a third of the time one field replaced by a hostile
    /// value (a number mostly by a hostile number), so each bound is met alone; else one to three
    /// fields replaced, removed, duplicated, or a stray field added.
    private mutating func mutated(_ members: [(String, String)]) -> [(String, String)] {
        guard !members.isEmpty, random.chance(0.5) else { return members }
        var members = members
        if random.chance(0.67) {
            replace(&members, at: Int.random(in: 0..<members.count, using: &random))
            return members
        }
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let index = Int.random(in: 0..<members.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: if members.count > 1 { members.remove(at: index) }
            case 1: members.append((members[index].0, FuzzValues.any(now: now, using: &random)))
            case 2: members.append(("stray", FuzzValues.any(now: now, using: &random)))
            default: replace(&members, at: index)
            }
        }
        return members
    }

    private mutating func replace(_ members: inout [(String, String)], at index: Int) {
        let numeric = members[index].1.first.map { $0.isNumber || $0 == "-" } ?? false
        members[index].1 = numeric && random.chance(0.7) ? random.pick(FuzzValues.numbers) : FuzzValues.any(now: now, using: &random)
    }

    /// `{"key": [items]}`, sometimes with the wrong key or shape.
    private mutating func batchBody(_ key: String, _ items: [String]) -> [UInt8] {
        let text: String
        switch Int.random(in: 0..<12, using: &random) {
        case 0: text = JSONText.array(items)
        case 1: text = JSONText.object([("points", JSONText.array(items))])
        case 2: text = JSONText.object([(key, items.first ?? "{}")])
        case 3: text = JSONText.object([(key, JSONText.array(Array(repeating: items.first ?? "{}", count: 1001)))])
        default: text = JSONText.object([(key, JSONText.array(items))])
        }
        return garbled(Array(text.utf8))
    }

    /// Mostly the body as it is; sometimes truncated, with a byte changed, empty, in UTF-16, padded,
    /// or replaced by something that is not JSON.
    private mutating func garbled(_ body: [UInt8]) -> [UInt8] {
        guard random.chance(0.15), !body.isEmpty else { return body }
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return Array(body.prefix(Int.random(in: 0..<body.count, using: &random)))
        case 1:
            var copy = body
            copy[Int.random(in: 0..<copy.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            return copy
        case 2: return []
        case 3: return Array(String(decoding: body, as: UTF8.self).data(using: .utf16LittleEndian) ?? Data())
        case 4: return [0xEF, 0xBB, 0xBF] + body
        case 5: return Array(repeating: 0x20, count: 300_000) + body
        case 6: return [0xFF, 0xFE, 0x00] + body
        default: return Array(random.pick(FuzzValues.shapes).utf8)
        }
    }

    // MARK: credentials, paths, requests

    private mutating func bearer() -> [(String, String)] {
        switch Int.random(in: 0..<40, using: &random) {
        case 0: []
        case 1: [("Authorization", "Bearer wrong")]
        case 2: [("Authorization", "Bearer \(adminToken)")]
        case 3: [("Authorization", "Bearer \(otherToken)")]
        case 4: [("Authorization", "Bearer ")]
        case 5: [("Authorization", "Basic !!!")]
        case 6: [("Authorization", "Bearer " + String(repeating: "t", count: 10_000))]
        default: [("Authorization", "Bearer \(token)")]
        }
    }

    private mutating func ownTracksAuth() -> [(String, String)] {
        func basic(_ user: String, _ password: String) -> [(String, String)] {
            [("Authorization", "Basic \(Data("\(user):\(password)".utf8).base64EncodedString())")]
        }
        switch Int.random(in: 0..<32, using: &random) {
        case 0: return []
        case 1: return basic(device, "wrong")
        case 2: return basic("nobody", token)
        case 3: return basic(otherDevice, token)
        case 4: return [("Authorization", "Basic \(Data("no-colon".utf8).base64EncodedString())")]
        case 5: return [("Authorization", "Basic ***")]
        case 6: return basic("..", token)
        case 7: return [("X-Limit-D", device), ("Authorization", "Bearer \(token)")]
        case 8: return basic(device, adminToken)
        default: return basic(device, token)
        }
    }

    /// The device in a path: mostly the fuzz's own, else another, an unknown or an invalid one.
    private mutating func path() -> String {
        guard random.chance(0.2) else { return device }
        return random.pick([otherDevice, "nobody", ".", "..", "%2e%2e", "a%2Fb", "%00", String(repeating: "d", count: 65), "%C3%A9", ""])
    }

    private func escape(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "" }

    private mutating func post(
        _ target: String, _ label: String, _ body: [UInt8], auth: [(String, String)], claim: FuzzCase.Claim, device: String
    ) -> FuzzCase {
        var headers = auth
        if random.chance(0.9) { headers.append(("Content-Type", "application/json")) }
        let chunked = random.chance(0.1)
        if chunked { headers.append(("Transfer-Encoding", "chunked")) }
        let payload = chunked ? Array(String(body.count, radix: 16).utf8) + [13, 10] + body + Array("\r\n0\r\n\r\n".utf8) : body
        let bytes = rawRequest("POST", target, headers: headers + (chunked ? [] : [("Content-Length", "\(body.count)")]), body: payload)
        return FuzzCase(label: label, bytes: bytes, claim: claim, device: device)
    }
}
