import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

/// Timeouts are the feature here, so these tests measure time, with wide margins: a deadline of 1 or
/// 2 s must be enforced within 10 s, and not before it passed.
@Suite("Timeouts, the connection limit and login throttling on a live server")
struct ConnectionLimitsTests {
    private static let quick = ServerSettings(
        rateLimit: 0, adminToken: LiveServer.adminToken, headerTimeout: 1, bodyTimeout: 2, idleTimeout: 30, maxConnectionsPerAddress: 0)
    /// For the tests of answers rather than of timeouts: under CI's parallel load a 2 s body timeout
    /// can fire before a request sent whole is read, and turn the answer under test into a 408.
    private static let patient = ServerSettings(
        rateLimit: 0, adminToken: LiveServer.adminToken, headerTimeout: 30, bodyTimeout: 30, idleTimeout: 60, maxConnectionsPerAddress: 0)
    private static let margin = 9.0

    @Test("200 half-sent requests are each answered 408 and closed after the header timeout; /health answers throughout")
    func halfSentRequests() async throws {
        try await withLiveServer(.sqlite, settings: Self.quick) { server in
            let probe = Task {
                var statuses: [Int] = []
                for _ in 0..<15 {
                    let reply = try await RawConnection.with(port: server.port) {
                        await $0.sendAndRead(rawRequest("GET", "/health"), timeout: 5)
                    }
                    statuses.append(reply?.status ?? 0)
                    try await Task.sleep(nanoseconds: 200_000_000)
                }
                return statuses
            }
            let results = try await withThrowingTaskGroup(of: RawConnection.Ending.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        try await RawConnection.with(port: server.port) { connection in
                            await connection.sendAndAwaitClose(
                                Array("POST /pub HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow-\(index): ".utf8), timeout: 30)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 200)
            let open = results.filter { !$0.closed }.count
            let unanswered = results.filter { !$0.text.hasPrefix("HTTP/1.1 408") }
            #expect(open == 0, "\(open) connections were still open after 30 s")
            #expect(unanswered.isEmpty, "\(unanswered.count) not answered 408, e.g. \(unanswered.first?.text.prefix(200) ?? "")")
            let slowest = results.map(\.seconds).max() ?? 0
            let fastest = results.map(\.seconds).min() ?? 0
            #expect(fastest >= 0.9 && slowest <= 1 + Self.margin, "closed after \(fastest)–\(slowest) s; the header timeout is 1 s")
            let statuses = try await probe.value
            #expect(statuses.allSatisfy { $0 == 200 }, "/health answered \(statuses)")
        }
    }

    @Test("a body sent a byte at a time is answered 408 and closed after the body timeout")
    func tricklingBody() async throws {
        try await withLiveServer(.sqlite, settings: Self.quick) { server in
            let ending = try await RawConnection.with(port: server.port) { connection in
                await connection.send(server.uploadHead([("Content-Length", "400")]))
                return await connection.sendAndAwaitClose(Array("{".utf8), timeout: 30, repeating: 100, gap: 0.3)
            }
            let (elapsed, text) = (ending.seconds, ending.text)
            #expect(text.hasPrefix("HTTP/1.1 408"), "\(text.prefix(200))")
            #expect(elapsed >= 1.9 && elapsed <= 2 + Self.margin, "closed after \(elapsed) s; the body timeout is 2 s")
        }
    }

    @Test("a chunked body announcing 0xFFFFFFFFFFFFFFFF bytes does not hold the connection", arguments: [true, false])
    func absurdChunk(authorized: Bool) async throws {
        try await withLiveServer(.sqlite, settings: Self.quick) { server in
            let request =
                server.uploadHead([("Transfer-Encoding", "chunked")], authorized: authorized)
                + Array("FFFFFFFFFFFFFFFF\r\n{\"locations\":[".utf8)
            let (closed, elapsed, text) = try await RawConnection.with(port: server.port) {
                await $0.sendAndAwaitClose(request, timeout: 30)
            }
            #expect(closed)
            // Unauthorized: 401 at once, and the body is never read. Authorized: the body timeout.
            #expect(text.hasPrefix(authorized ? "HTTP/1.1 408" : "HTTP/1.1 401"), "\(text.prefix(200))")
            #expect(elapsed <= 2 + Self.margin, "closed after \(elapsed) s")
            #expect(try await server.send("GET", "/health", token: nil).status == 200)
        }
    }

    @Test("a malformed chunk size is 400 unreadable_body, not 413; an unknown route is 404 with the JSON error body")
    func unreadableBody() async throws {
        try await withLiveServer(.sqlite, settings: Self.patient) { server in
            let reply = try await RawConnection.with(port: server.port) { connection in
                await connection.send(server.uploadHead([("Transfer-Encoding", "chunked")]) + Array("zz\r\n{}\r\n0\r\n\r\n".utf8))
                return await connection.readResponse(timeout: 10)
            }
            #expect(reply?.status == 400, "\(reply?.text ?? "no answer")")
            #expect(reply?.json["error"] as? String == "unreadable_body", "\(reply?.text ?? "")")
            let missing = try await server.raw("GET", "/v2/nothing")
            #expect(missing.status == 404)
            #expect(missing.json["error"] as? String == "not_found", "\(missing.text)")
            #expect((missing.json["message"] as? String)?.contains("GET /v2/nothing") == true, "\(missing.text)")
        }
    }

    @Test("Expect other than 100-continue is 417; a transfer coding other than chunked is 501, never read as plain text")
    func unmetHeaders() async throws {
        try await withLiveServer(.sqlite, settings: Self.patient) { server in
            let auth = ("Authorization", "Bearer \(server.token)")
            let expect = try await server.raw("GET", "/v1/devices/\(server.device)/last", headers: [auth, ("Expect", "42-sure")])
            #expect(expect.status == 417 && expect.json["error"] as? String == "expectation_failed", "\(expect.status) \(expect.text)")
            let gzip = try await RawConnection.with(port: server.port) { connection in
                await connection.send(
                    server.uploadHead([("Transfer-Encoding", "gzip, chunked")]) + Array("2\r\n{}\r\n0\r\n\r\n".utf8))
                return await connection.readResponse(timeout: 10)
            }
            #expect(gzip?.status == 501, "\(gzip?.text ?? "no answer")")
            #expect(gzip?.json["error"] as? String == "unsupported_transfer_encoding", "\(gzip?.text ?? "")")
            #expect(try await server.raw("GET", "/health", headers: [("Expect", "100-continue")]).status == 200)
        }
    }

    @Test("a body announced larger than the limit is answered 413 before it is sent, and the connection closes")
    func oversizedBody() async throws {
        try await withLiveServer(.sqlite, settings: Self.patient) { server in
            let (reply, closed) = try await RawConnection.with(port: server.port) { connection in
                await connection.send(server.uploadHead([("Content-Length", "99999999999")]) + Array("{\"locations\":[".utf8))
                let reply = await connection.readResponse(timeout: 10)
                return (reply, await connection.readUntilClose(timeout: 10))
            }
            #expect(reply?.status == 413)
            #expect(reply?.headers["connection"] == "close")
            #expect(closed)
        }
    }

    @Test(
        "over a connection limit, a connection is answered 503 with Retry-After and closed at once; the slot frees on close",
        arguments: [(4, 100, "the server is serving its limit of 4 connections"), (10, 4, "your address holds its limit of 4 connections")])
    func connectionLimit(total: Int, perAddress: Int, message: String) async throws {
        let settings = ServerSettings(
            rateLimit: 0, adminToken: LiveServer.adminToken, headerTimeout: 30, idleTimeout: 30, maxConnections: total,
            maxConnectionsPerAddress: perAddress)
        try await withLiveServer(.sqlite, settings: settings) { server in
            let (ready, readyIn) = AsyncStream<Int>.makeStream()
            let (release, releaseIn) = AsyncStream<Void>.makeStream()
            let holders = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            try await RawConnection.with(port: server.port) { connection in
                                let reply = await connection.sendAndRead(rawRequest("GET", "/health", keepAlive: true), timeout: 10)
                                readyIn.yield(reply?.status ?? 0)
                                for await _ in release { break }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            var held: [Int] = []
            for await status in ready {
                held.append(status)
                if held.count == 4 { break }
            }
            #expect(held == [200, 200, 200, 200])
            let start = ContinuousClock.now
            let (refused, closed) = try await RawConnection.with(port: server.port) { connection in
                let reply = await connection.sendAndRead(rawRequest("GET", "/health", keepAlive: true), timeout: 10)
                return (reply, await connection.readUntilClose(timeout: 10))
            }
            #expect(refused?.status == 503)
            #expect(refused?.headers["retry-after"] == "1")
            #expect(refused?.json["error"] as? String == "too_many_connections")
            #expect((refused?.json["message"] as? String)?.hasPrefix(message) == true, "\(refused?.text ?? "")")
            #expect(closed)
            #expect((ContinuousClock.now - start).seconds <= Self.margin)
            let otherClient = try await RawConnection.with(port: server.port, from: "127.0.0.2") {
                await $0.sendAndRead(rawRequest("GET", "/health"), timeout: 10)?.status
            }
            #expect(otherClient == (perAddress < total ? 200 : 503), "another address, while this one is full")
            releaseIn.finish()
            try await holders.value
            var status = 0
            for _ in 0..<50 where status != 200 {
                status = try await RawConnection.with(port: server.port) {
                    await $0.sendAndRead(rawRequest("GET", "/health"), timeout: 10)?.status ?? 0
                }
                if status != 200 { try await Task.sleep(nanoseconds: 100_000_000) }
            }
            #expect(status == 200)
        }
    }

    @Test("a connection with nothing under way is closed after the idle timeout")
    func idle() async throws {
        // The server's idle timer first runs from its accept, so the timeout must leave a loaded
        // machine time to read the request before it: 1 s did not (the close came before the answer).
        let idleTimeout = 3.0
        let settings = ServerSettings(rateLimit: 0, adminToken: LiveServer.adminToken, idleTimeout: idleTimeout)
        try await withLiveServer(.sqlite, settings: settings) { server in
            let (status, closed, elapsed) = try await RawConnection.with(port: server.port) { connection in
                // Timed from before the request: the server's idle timer starts again after its
                // answer, so a client slow to read the answer cannot see the close early.
                let start = ContinuousClock.now
                let reply = await connection.sendAndRead(rawRequest("GET", "/health", keepAlive: true), timeout: 10)
                let closed = await connection.readUntilClose(timeout: 30)
                return (reply?.status, closed, (ContinuousClock.now - start).seconds)
            }
            #expect(status == 200, "no answer before the close, \(elapsed) s after the request")
            #expect(closed)
            #expect(
                elapsed >= idleTimeout * 0.97 && elapsed <= idleTimeout + Self.margin,
                "closed after \(elapsed) s; the idle timeout is \(idleTimeout) s")
        }
    }

    @Test("HEAD /health is 200 without a body; CONNECT and other methods get 405 at once, CONNECT also a close")
    func methods() async throws {
        try await withLiveServer(.sqlite) { server in
            let head = try await RawConnection.with(port: server.port) { connection in
                await connection.send(rawRequest("HEAD", "/health"))
                return await connection.readResponse(timeout: 10, head: true)
            }
            #expect(head?.status == 200)
            #expect(head?.body.isEmpty == true)
            let (connect, closed) = try await RawConnection.with(port: server.port) { connection in
                let reply = await connection.sendAndRead(rawRequest("CONNECT", "example.com:443", keepAlive: true), timeout: 10)
                return (reply, await connection.readUntilClose(timeout: 10))
            }
            #expect(connect?.status == 405)
            #expect(connect?.headers["connection"] == "close")
            #expect(closed)
            for (method, path) in [
                ("PUT", "/health"), ("DELETE", "/v1/devices/\(server.device)/locations"), ("TRACE", "/"), ("OPTIONS", "*"),
                ("PROPFIND", "/"),
            ] {
                let reply = try await RawConnection.with(port: server.port) { await $0.sendAndRead(rawRequest(method, path), timeout: 10) }
                #expect(reply?.status == 405, "\(method) \(path)")
                #expect(reply?.headers["allow"] == "GET, HEAD, POST", "\(method) \(path)")
                #expect((reply?.json["message"] as? String)?.contains(method) == true, "\(method) \(path)")
            }
        }
    }

    @Test("different tokens failing from one address throttle it with 429 and Retry-After; a token that worked before still gets in")
    func loginThrottling() async throws {
        let settings = ServerSettings(rateLimit: 0, adminToken: LiveServer.adminToken, loginFailuresPerMinute: 3)
        try await withLiveServer(.sqlite, settings: settings) { server in
            let path = "/v1/devices/\(server.device)/last"
            #expect(try await server.send("GET", path, token: server.token).status == 404, "no location yet, but the token works")
            var statuses: [Int] = []
            for guess in 0..<3 { statuses.append(try await server.send("GET", path, token: "guess-\(guess)").status) }
            #expect(statuses == [401, 401, 401])
            let throttled = try await server.send("GET", path, token: "guess-3")
            #expect(throttled.status == 429)
            #expect(Int(throttled.headers["retry-after"] ?? "").map { (1...60).contains($0) } == true, "\(throttled.headers)")
            #expect((server.json(throttled)["message"] as? String)?.contains("failed logins with different tokens") == true)
            #expect(try await server.send("GET", path, token: server.token).status == 404, "a token that worked is never locked out")
            #expect(try await server.send("GET", "/health", token: nil).status == 200)
        }
    }

    @Test("one client retrying a stale token slows only itself: other devices on its address upload and log in")
    func staleTokenNeighbour() async throws {
        let settings = ServerSettings(rateLimit: 0, adminToken: LiveServer.adminToken, loginFailuresPerMinute: 3)
        try await withLiveServer(.sqlite, settings: settings) { server in
            let neighbour = uniqueDevice()
            let neighbourToken = Tokens.generate()
            try await server.storage.addDevice(id: neighbour, tokenHash: Tokens.hash(neighbourToken), at: Date())
            let stale = "a-rotated-token"
            let upload = "/v1/devices/\(server.device)/locations"
            var statuses: [Int] = []
            for _ in 0..<10 {
                statuses.append(try await server.send("POST", upload, token: stale, body: batchBody(wireLocations(1))).status)
            }
            #expect(statuses == [401, 401, 401] + Array(repeating: 429, count: 7), "the stale token itself is throttled")
            let other = try await server.send(
                "POST", "/v1/devices/\(neighbour)/locations", token: neighbourToken, body: batchBody(wireLocations(2)))
            #expect(other.status == 200, "\(String(decoding: other.body, as: UTF8.self))")
            #expect(try await server.send("POST", upload, token: server.token, body: batchBody(wireLocations(2))).status == 200)
            let login = try await server.login(device: neighbour, token: neighbourToken)
            #expect(login.status == 303, "\(login.status) \(login.text)")
        }
    }

    @Test("guessing the admin token is throttled too: 403 answers count as failures, on admin routes and /metrics")
    func adminGuesses() async throws {
        let settings = ServerSettings(rateLimit: 0, adminToken: LiveServer.adminToken, loginFailuresPerMinute: 3)
        try await withLiveServer(.sqlite, settings: settings) { server in
            var statuses: [Int] = []
            for guess in 0..<3 { statuses.append(try await server.send("GET", "/metrics", token: "admin-guess-\(guess)").status) }
            statuses.append(try await server.send("GET", "/v1/devices", token: "admin-guess-3").status)
            statuses.append(try await server.send("GET", "/v1/devices", token: "admin-guess-0").status)
            #expect(statuses == [403, 403, 403, 429, 429])
            #expect(try await server.send("GET", "/v1/devices", token: LiveServer.adminToken).status == 429, "not yet known to work")
        }
        try await withLiveServer(.sqlite, settings: settings) { server in
            #expect(try await server.send("GET", "/v1/devices", token: LiveServer.adminToken).status == 200)
            for guess in 0..<2 { _ = try await server.send("GET", "/v1/devices", token: "admin-guess-\(guess)") }
            #expect(try await server.send("GET", "/v1/devices", token: LiveServer.adminToken).status == 200, "it worked before")
            #expect(try await server.send("GET", "/metrics", token: server.token).status == 403, "a device token proved nothing here yet")
        }
    }

    @Test("behind a trusted proxy, throttling keys on the last X-Forwarded-For address")
    func forwardedFor() async throws {
        let settings = ServerSettings(rateLimit: 0, adminToken: LiveServer.adminToken, loginFailuresPerMinute: 2, trustForwardedFor: true)
        try await withLiveServer(.sqlite, settings: settings) { server in
            let path = "/v1/devices/\(server.device)/last"
            let guesser = ["X-Forwarded-For": "203.0.113.9, 198.51.100.7"]
            for _ in 0..<2 { _ = try await server.send("GET", path, token: "guess", headers: guesser) }
            #expect(try await server.send("GET", path, token: "guess", headers: guesser).status == 429)
            #expect(try await server.send("GET", path, token: server.token, headers: ["X-Forwarded-For": "198.51.100.8"]).status == 404)
        }
    }
}

extension LiveServer {
    /// The head of a batch upload with `headers` (and the device's token when `authorized`) that
    /// keeps the connection open.
    func uploadHead(_ headers: [(String, String)], authorized: Bool = true) -> [UInt8] {
        rawRequest(
            "POST", "/v1/devices/\(device)/locations", headers: headers + (authorized ? [("Authorization", "Bearer \(token)")] : []),
            keepAlive: true)
    }
}

extension RawConnection {
    /// How a connection ended: closed by the server (or still open after the timeout), how many
    /// seconds after the first byte was sent, and what came back.
    typealias Ending = (closed: Bool, seconds: Double, text: String)

    /// Sends `request` and reads one answer.
    func sendAndRead(_ request: [UInt8], timeout: Double) async -> RawResponse? {
        await send(request)
        return await readResponse(timeout: timeout)
    }

    /// Sends `bytes` (`repeating` times, `gap` seconds apart, while the server takes them), then
    /// waits for the server to close the connection.
    func sendAndAwaitClose(_ bytes: [UInt8], timeout: Double, repeating: Int = 1, gap: Double = 0) async -> Ending {
        let start = ContinuousClock.now
        for round in 0..<repeating {
            guard await send(bytes) else { break }
            if round < repeating - 1 { try? await Task.sleep(nanoseconds: UInt64(gap * 1e9)) }
        }
        let closed = await readUntilClose(timeout: timeout)
        return (closed, (ContinuousClock.now - start).seconds, received)
    }
}
