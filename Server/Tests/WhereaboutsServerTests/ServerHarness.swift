import Foundation
import Logging
import PostgresNIO
import Testing
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsMQTT
import WhereaboutsServer
import WhereaboutsTestSupport

/// The storages the contract runs on: SQLite always, PostgreSQL when `WHEREABOUTS_TEST_POSTGRES`
/// names one (`.ci/run` starts it).
enum StorageKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite, postgres

    var description: String { rawValue }

    static var postgresURL: String? { ProcessInfo.processInfo.environment["WHEREABOUTS_TEST_POSTGRES"] }

    /// The kinds to test; PostgreSQL is skipped with a message when no server is configured.
    static var available: [StorageKind] {
        if postgresURL == nil {
            print("note: WHEREABOUTS_TEST_POSTGRES is not set; PostgreSQL contract tests are skipped (.ci/run sets it)")
            return [.sqlite]
        }
        return [.sqlite, .postgres]
    }

    var databaseURL: DatabaseURL {
        switch self {
        case .sqlite:
            let folder = temporaryFolder("server")
            return .sqlite(path: folder.appendingPathComponent("server.sqlite").path)
        case .postgres:
            return try! DatabaseURL(parsing: Self.postgresURL!)
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only against a configured PostgreSQL (`WHEREABOUTS_TEST_POSTGRES`); without one,
    /// the test reports itself skipped with the reason.
    static var needsPostgres: Self {
        .enabled(if: StorageKind.available.contains(.postgres), "needs PostgreSQL: set WHEREABOUTS_TEST_POSTGRES (.ci/run sets it)")
    }
}

/// Runs `body` with migrated storage of `kind` that no other test sees: a new SQLite file, or a new
/// PostgreSQL database created beside the configured one and dropped afterwards.
func withIsolatedStorage(_ kind: StorageKind, _ body: @escaping @Sendable (any TrackStorage) async throws -> Void) async throws {
    try await withIsolatedDatabase(kind) { url in try await ServerApp.withStorage(url, logger: quietLogger, body) }
}

/// Runs `body` with the URL of a database of `kind` that no other test sees, as
/// ``withIsolatedStorage(_:_:)`` makes it, for tests that open it more than once.
func withIsolatedDatabase(_ kind: StorageKind, _ body: @escaping @Sendable (DatabaseURL) async throws -> Void) async throws {
    guard case .postgres(var settings) = kind.databaseURL else { return try await body(kind.databaseURL) }
    let name = "whereabouts_test_\(UUID().uuidString.prefix(8).lowercased())"
    _ = try await ServerApp.withStorage(.postgres(settings), logger: quietLogger) { storage in
        try await (storage as! PostgresTrackStorage).client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: quietLogger)
    }
    settings.database = name
    do {
        try await body(.postgres(settings))
    } catch {
        try? await dropDatabase(name)
        throw error
    }
    try await dropDatabase(name)
}

/// Drops a database `withIsolatedDatabase` made.
private func dropDatabase(_ name: String) async throws {
    guard case .postgres(let settings) = StorageKind.postgres.databaseURL else { return }
    _ = try await ServerApp.withStorage(.postgres(settings), logger: quietLogger) { storage in
        try await (storage as! PostgresTrackStorage).client.query(
            PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)"), logger: quietLogger)
    }
}

/// A unique device id per test, so tests sharing one PostgreSQL database never meet.
func uniqueDevice(_ prefix: String = "dev") -> String { "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())" }

let quietLogger: Logger = {
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    return logger
}()

/// Runs `body` with migrated storage of `kind`.
func withStorage(_ kind: StorageKind, _ body: @escaping @Sendable (any TrackStorage) async throws -> Void) async throws {
    try await ServerApp.withStorage(kind.databaseURL, logger: quietLogger, body)
}

/// Makes the PostgreSQL database of `storage` refuse each row inserted into `table` that `condition`
/// holds for, with SQLSTATE `state` (22023, a data exception, unless said): an error the database
/// raises itself, from a trigger named `refuse`.
func refuseRows(of table: String, when condition: String, state: String = "22023", in storage: any TrackStorage) async throws {
    let client = (storage as! PostgresTrackStorage).client
    for statement in [
        """
        CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused by the test' USING ERRCODE = '\(state)'; END $$
        """,
        "CREATE TRIGGER refuse BEFORE INSERT ON \(table) FOR EACH ROW WHEN (\(condition)) EXECUTE FUNCTION refuse()",
    ] {
        try await client.query(PostgresQuery(unsafeSQL: statement), logger: quietLogger)
    }
}

/// A live server on 127.0.0.1 with one device (and its token) and an admin token.
struct LiveServer: Sendable {
    let base: URL
    let storage: any TrackStorage
    let device: String
    let token: String
    static let adminToken = "admin-secret-token"

    /// The port the server listens on.
    var port: Int { base.port! }

    /// Sends a request; `token` nil sends none.
    func send(
        _ method: String, _ path: String, token: String?, body: Data = Data(), headers: [String: String] = [:]
    ) async throws -> HTTPReply {
        var headers = headers
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if !body.isEmpty, headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        return try await URLSessionTransport().send(
            OutgoingRequest(method: method, url: URL(string: base.absoluteString + path)!, headers: headers, body: body), timeout: 10)
    }

    /// Sends one request as raw bytes and reads the answer as it came: no redirect followed, no
    /// cookie kept, as the page tests need.
    func raw(_ method: String, _ path: String, headers: [(String, String)] = [], body: String = "") async throws -> RawResponse {
        let response = try await RawConnection.with(port: port) {
            await $0.sendAndRead(rawRequest(method, path, headers: headers, body: Array(body.utf8)), timeout: 10)
        }
        return try #require(response, "\(method) \(path): no answer")
    }

    /// Posts the login form.
    func login(device: String, token: String, headers: [(String, String)] = []) async throws -> RawResponse {
        let form =
            "device=\(device.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&token=\(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        return try await raw("POST", "/login", headers: headers + [("Content-Type", "application/x-www-form-urlencoded")], body: form)
    }

    func json(_ reply: HTTPReply) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any]) ?? [:]
    }
}

/// Starts a server over `kind` storage with a fresh device (subscribed as `mqtt` says, when given),
/// runs `body`, and stops the server.
func withLiveServer(
    _ kind: StorageKind, settings: ServerSettings = ServerSettings(rateLimit: 0, adminToken: LiveServer.adminToken),
    mqtt: MQTTSubscription? = nil, clock: EngineClock = .system, recordIDs: @escaping @Sendable (Date) -> UUID = { RecordID.make(at: $0) },
    _ body: @escaping @Sendable (LiveServer) async throws -> Void
) async throws {
    try await withStorage(kind) { storage in
        try await withLiveServer(on: storage, settings: settings, mqtt: mqtt, clock: clock, recordIDs: recordIDs, body)
    }
}

/// Starts a server over `storage` with a fresh device (subscribed as `mqtt` says, when given), runs
/// `body`, and stops the server.
func withLiveServer(
    on storage: any TrackStorage, settings: ServerSettings = ServerSettings(rateLimit: 0, adminToken: LiveServer.adminToken),
    mqtt: MQTTSubscription? = nil, clock: EngineClock = .system, recordIDs: @escaping @Sendable (Date) -> UUID = { RecordID.make(at: $0) },
    _ body: @escaping @Sendable (LiveServer) async throws -> Void
) async throws {
    let device = uniqueDevice()
    let token = Tokens.generate()
    try await storage.addDevice(id: device, tokenHash: Tokens.hash(token), at: Date())
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let server = Task {
        defer { continuation.finish() }
        try await ServerApp.serve(
            storage: storage, host: "127.0.0.1", port: 0, settings: settings, mqtt: mqtt, clock: clock, recordIDs: recordIDs,
            logger: quietLogger
        ) { port in
            continuation.yield(port)
        }
    }
    var port = 0
    for await bound in ports {
        port = bound
        break
    }
    defer { server.cancel() }
    // A server that failed before it listened ended the stream: its error is the test's.
    if port == 0 { try await server.value }
    try await body(LiveServer(base: URL(string: "http://127.0.0.1:\(port)")!, storage: storage, device: device, token: token))
    server.cancel()
    _ = await server.result
}

/// `count` valid wire locations a second apart, a day ago.
func wireLocations(_ count: Int, start: Date = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 86_400).rounded()))
    -> [WireLocation]
{
    (0..<count).map { i in
        let fix = try! Fix(
            coordinate: Coordinate(latitude: 47.37 + Double(i) * 1e-4, longitude: 8.54), horizontalAccuracy: 6, altitude: 410, speed: 1.2,
            timestamp: start.addingTimeInterval(Double(i)), source: .gps)
        return WireLocation(LocationRecord(fix: fix, trigger: .policy))
    }
}

func batchBody(_ locations: [WireLocation]) -> Data { try! JSONEncoder().encode(LocationBatch(locations: locations)) }

/// Queues `command` for `device` with a new time-ordered id, as the admin API does.
@discardableResult
func queueCommand(_ command: ServerCommand, device: String, in storage: any DeviceStorage) async throws -> DeviceCommand {
    let queued = DeviceCommand(id: RecordID.make(at: Date()).uuidString.lowercased(), command: command)
    try await storage.queue(queued, device: device, at: Date())
    return queued
}
