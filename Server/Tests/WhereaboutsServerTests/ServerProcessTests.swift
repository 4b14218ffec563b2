import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsServer
import WhereaboutsStore
import WhereaboutsTestSupport

/// The built `whereabouts-server` executable, started as a real process.
final class ServerProcess: @unchecked Sendable {
    static var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("whereabouts-server").path
    }

    let process = Process()
    private let ended: ProcessExit
    let port: Int
    /// Where the process's standard error (its log) goes.
    let errors: URL

    /// Starts `serve` with `arguments` added and waits for its "listening" line.
    ///
    /// Its output goes to a file polled here, not through a pipe: a blocking read of a pipe fails
    /// with EINTR when a signal reaches the test process, and Foundation turns that into a crash.
    init(database: String?, port: Int = 0, arguments: [String] = [], environment: [String: String] = [:]) async throws {
        let output = try Self.outputFile()
        errors = try Self.outputFile()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["serve", "--port", "\(port)", "--rate-limit", "0"] + (database.map { ["--database", $0] } ?? []) + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        ended = ProcessExit(process)
        try process.run()
        for _ in 0..<3000 {
            let text = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
            if let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                self.port = Int(text[range].split(separator: ":").last!)!
                return
            }
            guard process.isRunning else { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        process.terminate()
        throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: errors.path])
    }

    /// What the process has written to standard error so far.
    var log: String { String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self) }

    /// An empty file in a fresh temporary folder, for a process's output.
    private static func outputFile() throws -> URL {
        let folder = temporaryFolder("server-output")
        let file = folder.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        return file
    }

    var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Sends signal `number` and waits for the process to end.
    func signal(_ number: Int32) async {
        send(number)
        await exit()
    }

    /// Sends signal `number` and returns at once; ``exit()`` waits for the end.
    func send(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the process to end.
    func exit() async { await ended.wait() }

    /// What a run of the executable left: its exit status, standard output and standard error.
    struct Ran {
        let status: Int32
        let output: String
        let errors: String
    }

    /// Runs the executable to its end.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Ran {
        let (output, errors) = (try outputFile(), try outputFile())
        let status = try await runProcess(
            executable, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            standardOutput: try FileHandle(forWritingTo: output), standardError: try FileHandle(forWritingTo: errors))
        let text = { (file: URL) in String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self) }
        return Ran(status: status, output: text(output), errors: text(errors))
    }

    /// A SQLite database URL in a fresh temporary folder whose name starts with `name`.
    static func temporaryDatabase(named name: String) -> String {
        let folder = temporaryFolder(name)
        return "sqlite:" + folder.appendingPathComponent("server.sqlite").path
    }

    /// `whereabouts-server device add NAME`; returns the token (the last line).
    static func addDevice(_ name: String, database: String) async throws -> String {
        String(try await run(["device", "add", name, "--database", database]).output.split(separator: "\n").last ?? "")
    }
}

@Suite("whereabouts-server as a process")
struct ServerProcessTests {
    private func database() -> String { ServerProcess.temporaryDatabase(named: "server-process") }

    @Test("device add prints the token last and stores only its hash; serve reads flags from the environment")
    func deviceAddAndEnvironment() async throws {
        let database = database()
        let token = try await ServerProcess.addDevice("car-1", database: database)
        #expect(token.count == 43)
        let path = String(database.dropFirst(7))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        if let wal = try? Data(contentsOf: URL(fileURLWithPath: path + "-wal")) { bytes += wal }
        #expect(bytes.range(of: Tokens.hash(token)) != nil, "the token's SHA-256 is not where the device was written")
        #expect(bytes.range(of: Data(token.utf8)) == nil, "the token itself was stored")
        let server = try await ServerProcess(database: nil, environment: ["WHEREABOUTS_DATABASE": database])
        let reply = try await URLSessionTransport().send(
            OutgoingRequest(
                method: "GET", url: server.base.appendingPathComponent("v1/devices/car-1/last"),
                headers: ["Authorization": "Bearer \(token)"], body: Data()),
            timeout: 5)
        #expect(reply.status == 404)
        await server.signal(SIGTERM)
        #expect(server.process.terminationStatus == 0)
    }

    @Test(
        "device add refuses ids no upload could reach, saying why",
        arguments: [
            (".", "path step"), ("..", "path step"), ("", "is empty"), ("a/b", #"contains "/""#), ("ph\u{1}one", #"contains "\u{01}""#),
            (String(repeating: "x", count: 65), "65 bytes long"),
        ])
    func deviceAddRefuses(name: String, words: String) async throws {
        let ran = try await ServerProcess.run(["device", "add", name, "--database", database()])
        #expect(ran.status != 0)
        let message = ran.errors
        #expect(message.contains("device id") && message.contains(words), "\(message)")
        #expect(message.contains("such as my-phone"))
    }

    @Test("serve takes its limits from the environment, and refuses unusable ones naming the setting")
    func limitsFromEnvironment() async throws {
        let database = database()
        let server = try await ServerProcess(
            database: database, environment: ["WHEREABOUTS_PUBLIC_METRICS": "1", "WHEREABOUTS_HEADER_TIMEOUT": "1"])
        let metrics = try await RawConnection.with(port: server.port) { await $0.sendAndRead(rawRequest("GET", "/metrics"), timeout: 10) }
        #expect(metrics?.status == 200)
        let slow = try await RawConnection.with(port: server.port) {
            await $0.sendAndAwaitClose(Array("GET /health HTTP/1.1\r\nHost: x\r\n".utf8), timeout: 30)
        }
        #expect(slow.closed && slow.text.hasPrefix("HTTP/1.1 408"), "\(slow)")
        await server.signal(SIGTERM)
        for (arguments, environment, words) in [
            (["--header-timeout", "0"], [:], "--header-timeout 0.0 is not a number of seconds"),
            (["--max-connections", "0"], [:], "--max-connections 0 must be at least 1"),
            ([], ["WHEREABOUTS_MAX_CONNECTIONS": "lots"], "WHEREABOUTS_MAX_CONNECTIONS=lots is not a whole number"),
            ([], ["WHEREABOUTS_IDLE_TIMEOUT": "1e999"], "--idle-timeout inf is not a number of seconds"),
        ] {
            let ran = try await ServerProcess.run(["serve", "--port", "0", "--database", database] + arguments, environment: environment)
            #expect(ran.status != 0)
            #expect(ran.errors.contains(words), "\(ran.errors)")
        }
    }

    @Test("SIGKILL while batches stream in, restart, resend: nothing acknowledged lost, nothing duplicated")
    func crashAndResend() async throws {
        let database = database()
        let token = try await ServerProcess.addDevice("crashy", database: database)
        var server = try await ServerProcess(database: database)
        let port = server.port
        let folder = temporaryFolder("crash-client")
        let store = try SQLiteLocationStore(path: folder.appendingPathComponent("phone.sqlite").path)
        let start = Date().addingTimeInterval(-50_000)
        try store.append(
            (0..<20_000).map { i in
                LocationRecord(
                    fix: try! Fix(
                        coordinate: Coordinate(latitude: 40 + Double(i) * 1e-5, longitude: -3.7), horizontalAccuracy: 8,
                        timestamp: start.addingTimeInterval(Double(i))),
                    trigger: .policy)
            }, at: Date())
        let uploader = Uploader(
            queue: store, endpoint: WhereaboutsBatchEndpoint(base: server.base, device: "crashy", maxBatchSize: 100),
            credentials: FixedCredential(.bearer(token)),
            configuration: UploaderConfiguration(batchSize: 100, lease: 5, requestTimeout: 2, backoff: Backoff(initial: 0.1, maximum: 0.5)))
        for round in 0..<3 {
            let flush = Task { await uploader.flush(.manual, acknowledging: []) }
            try await Task.sleep(nanoseconds: UInt64(150 + round * 100) * 1_000_000)
            await server.signal(SIGKILL)
            _ = await flush.value
            #expect(try store.pendingCount() > 0, "round \(round): the kill came after everything was sent")
            server = try await ServerProcess(database: database, port: port)
        }
        let report = await uploader.drain(until: Date().addingTimeInterval(60), acknowledging: [])
        #expect(report.stoppedBy == nil)
        #expect(try store.pendingCount() == 0)
        let reply = try await URLSessionTransport().send(
            OutgoingRequest(
                method: "GET", url: server.base.appendingPathComponent("v1/devices/crashy/locations"),
                headers: ["Authorization": "Bearer \(token)"], body: Data()),
            timeout: 30)
        let held = try JSONDecoder().decode(History.self, from: reply.body).locations.map(\.id)
        #expect(held.count == 20_000)
        #expect(Set(held).count == 20_000)
        #expect(Set(held) == Set(try store.allRecords().map { $0.record.id.uuidString.lowercased() }))
        await server.signal(SIGTERM)
    }

    @Test("SIGTERM during a long export: the export completes, then the server exits cleanly")
    func gracefulShutdown() async throws {
        let database = database()
        let token = Tokens.generate()
        let storage = try SQLiteTrackStorage(path: String(database.dropFirst(7)))
        try await storage.migrate(at: Date())
        try await storage.addDevice(id: "long", tokenHash: Tokens.hash(token), at: Date())
        let start = Date().addingTimeInterval(-400_000)
        for first in stride(from: 0, to: 150_000, by: 10_000) {
            _ = try await storage.ingest(
                (first..<first + 10_000).map { i in
                    LocationRecord(
                        fix: try! Fix(
                            coordinate: Coordinate(latitude: 59 + Double(i) * 1e-6, longitude: 18), horizontalAccuracy: 4,
                            timestamp: start.addingTimeInterval(Double(i))),
                        trigger: .policy)
                }, device: "long", at: Date())
        }
        try await storage.close()
        let server = try await ServerProcess(database: database)
        // SIGTERM goes once the answer has started, so the export is surely in flight; its 24 MB
        // cannot all sit in socket buffers while nothing reads them.
        let (started, reply) = try await RawConnection.with(port: server.port) { connection in
            await connection.send(rawRequest("GET", "/v1/devices/long/locations", headers: [("Authorization", "Bearer \(token)")]))
            let started = await connection.readFirstBytes(timeout: 30)
            server.send(SIGTERM)
            return (started, await connection.readResponse(timeout: 60))
        }
        await server.exit()
        #expect(started, "the export's answer did not start")
        let response = try #require(reply, "the export did not finish after SIGTERM")
        #expect(response.status == 200)
        #expect(try JSONDecoder().decode(History.self, from: response.body).locations.count == 150_000)
        #expect(server.process.terminationStatus == 0)
    }

    private struct History: Decodable {
        let locations: [WireLocation]
    }
}
