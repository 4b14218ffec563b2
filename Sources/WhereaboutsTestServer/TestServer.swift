import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import WhereaboutsCore

/// A real HTTP server on 127.0.0.1 for delivery tests: our batch API, OwnTracks `/pub`, Firestore
/// document PATCH and Firebase's token refresh, each able to play scripted faults.
public final class TestServer: Sendable {
    /// The port it listens on.
    public let port: Int
    /// What it received.
    public let state: TestServerState
    private let task: Task<Void, any Error>

    /// `http://127.0.0.1:port`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(port: Int, state: TestServerState, task: Task<Void, any Error>) {
        self.port = port
        self.state = state
        self.task = task
    }

    /// Starts a server; port 0 picks a free one.
    public static func start(port: Int = 0, state: TestServerState = TestServerState()) async throws -> TestServer {
        let (bound, task) = try await serve(TestRoutes.router(state: state), port: port)
        return TestServer(port: bound, state: state, task: task)
    }

    /// Runs `router` on 127.0.0.1:`port` (0: a free one) until the returned task is cancelled, and
    /// returns the bound port once it listens.
    static func serve(_ router: Router<BasicRequestContext>, port: Int) async throws -> (port: Int, task: Task<Void, any Error>) {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "whereabouts.testserver")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger)
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        for await bound in ports { return (bound, task) }
        task.cancel()
        throw CancellationError()
    }

    /// Stops the server and waits until the port is closed.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }

    /// A port nothing listens on right now (bound and released), for "server down" tests.
    public static func freePort() async throws -> Int {
        let server = try await start()
        await server.stop()
        return server.port
    }
}

/// The test server's routes.
enum TestRoutes {
    struct DroppedConnection: Error {}

    static func router(state: TestServerState) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/v1/devices/:device/locations") { request, context in
            try await withFaults(await state.nextFault()) { drop in
                if let refusal = await bearerRefusal(request, state: state) { return refusal }
                let data = try await body(request)
                guard let batch = try? JSONDecoder().decode(LocationBatch.self, from: data) else {
                    return json(.badRequest, "{\"error\":\"malformed\",\"message\":\"the body is not {\\\"locations\\\": [...]}\"}")
                }
                if let limit = await state.maxBatch, batch.locations.count > limit {
                    return json(.contentTooLarge, "{\"error\":\"too_large\",\"message\":\"at most \(limit) locations per batch\"}")
                }
                var reply = await state.store(batch, now: Date())
                reply.commands = await state.commands(acknowledging: batch.acknowledged)
                if drop { throw DroppedConnection() }
                return json(.ok, String(decoding: try JSONEncoder().encode(reply), as: UTF8.self))
            }
        }
        router.post("/v1/devices/:device/events") { request, context in
            try await withFaults(await state.nextFault()) { drop in
                if let refusal = await bearerRefusal(request, state: state) { return refusal }
                guard let batch = try? JSONDecoder().decode(EventBatch.self, from: try await body(request)) else {
                    return json(.badRequest, "{\"error\":\"malformed\",\"message\":\"the body is not {\\\"events\\\": [...]}\"}")
                }
                let reply = await state.store(batch)
                if drop { throw DroppedConnection() }
                return json(.ok, String(decoding: try JSONEncoder().encode(reply), as: UTF8.self))
            }
        }
        router.post("/pub") { request, context in
            try await withFaults(await state.nextFault()) { drop in
                if let users = await state.basicUsers, !users.contains(basicUser(request) ?? "") {
                    return json(.unauthorized, "{\"error\":\"unauthorized\"}")
                }
                let data = try await body(request)
                guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                    ["location", "transition"].contains(object["_type"] as? String)
                else { return json(.badRequest, "{\"error\":\"not a location or transition message\"}") }
                var message = object.mapValues { "\($0)" }
                message["X-Limit-U"] = request.headers[HTTPField.Name("X-Limit-U")!]
                message["X-Limit-D"] = request.headers[HTTPField.Name("X-Limit-D")!]
                await state.storeOwnTracks(message, id: message["_id"] ?? RecordID.make(at: Date()).uuidString)
                if drop { throw DroppedConnection() }
                let commands =
                    await state.takeCommands().contains(.reportLocation) ? "[{\"_type\":\"cmd\",\"action\":\"reportLocation\"}]" : "[]"
                return json(.ok, commands)
            }
        }
        router.patch("/v1/projects/:project/databases/:database/documents/:collection/:document") { request, context in
            try await withFaults(await state.nextFault()) { drop in
                if let refusal = await bearerRefusal(request, state: state) { return refusal }
                let data = try await body(request)
                guard (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["fields"] != nil else {
                    return json(.badRequest, "{\"error\":{\"code\":400,\"message\":\"Invalid JSON payload\"}}")
                }
                let path = ["collection", "document"].map { context.parameters.get($0) ?? "" }.joined(separator: "/")
                await state.storeDocument(path, body: data)
                if drop { throw DroppedConnection() }
                let name =
                    "projects/\(context.parameters.get("project") ?? "")/databases/\(context.parameters.get("database") ?? "")/documents/\(path)"
                var document = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
                document["name"] = name
                return json(.ok, String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self))
            }
        }
        router.post("/v1/token") { request, context in
            try await withFaults(await state.nextTokenFault()) { _ in
                let form = String(decoding: try await body(request), as: UTF8.self)
                let pairs = form.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
                let refresh = pairs.first { $0.first == "refresh_token" }?.last?.removingPercentEncoding ?? ""
                guard let idToken = await state.refresh(refresh) else {
                    return json(.badRequest, "{\"error\":{\"message\":\"INVALID_REFRESH_TOKEN\"}}")
                }
                return json(
                    .ok, "{\"id_token\":\"\(idToken)\",\"refresh_token\":\"\(refresh)\",\"expires_in\":\"3600\",\"user_id\":\"user-1\"}")
            }
        }
        return router
    }

    /// Plays `fault` on one request: `handle` does the request's work, told whether to drop the
    /// connection afterwards instead of answering.
    static func withFaults(_ fault: Fault?, _ handle: (Bool) async throws -> Response) async throws -> Response {
        switch fault {
        case .status(let status, let retryAfter, let text):
            var response = json(HTTPResponse.Status(code: status), text)
            if let retryAfter { response.headers[.retryAfter] = retryAfter }
            return response
        case .hang(let seconds):
            try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            return try await handle(false)
        case .dropAfterStore:
            return try await handle(true)
        case .trickle(let interval):
            _ = try await handle(false)
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(contentLength: 100) { writer in
                    for _ in 0..<100 {
                        try await writer.write(ByteBuffer(string: " "))
                        try await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                    }
                    try await writer.finish(nil)
                })
        case nil:
            return try await handle(false)
        }
    }

    private static func bearerRefusal(_ request: Request, state: TestServerState) async -> Response? {
        guard let tokens = await state.validTokens else { return nil }
        let header = request.headers[.authorization] ?? ""
        guard header.hasPrefix("Bearer "), tokens.contains(String(header.dropFirst(7))) else {
            return json(.unauthorized, "{\"error\":\"unauthorized\",\"message\":\"send Authorization: Bearer <token>\"}")
        }
        return nil
    }

    private static func basicUser(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6)))
        else { return nil }
        return String(decoding: decoded, as: UTF8.self)
    }

    static func body(_ request: Request) async throws -> Data {
        let buffer = try await request.body.collect(upTo: 16 << 20)
        return Data(buffer.readableBytesView)
    }

    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
