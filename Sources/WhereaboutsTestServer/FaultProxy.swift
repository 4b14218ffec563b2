import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WhereaboutsCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real HTTP server on 127.0.0.1 in front of another server: it passes every request through to
/// `upstream` and the answer back, except those it plays a scripted ``Fault`` on (a status without
/// forwarding, a hang before forwarding, a connection dropped after forwarding). An upstream that
/// does not answer (killed, restarting) gets the client a 502.
public final class FaultProxy: Sendable {
    /// The port it listens on.
    public let port: Int
    /// The faults still to play, and how many requests passed.
    public let script: FaultScript
    private let task: Task<Void, any Error>

    /// `http://127.0.0.1:port`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(port: Int, script: FaultScript, task: Task<Void, any Error>) {
        self.port = port
        self.script = script
        self.task = task
    }

    /// Starts a proxy to `upstream` on a free port.
    public static func start(upstream: URL) async throws -> FaultProxy {
        let script = FaultScript()
        let router = Router()
        let forward: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            try await TestRoutes.withFaults(await script.next()) { drop in
                let response = await Self.forward(request, to: upstream)
                if drop { throw TestRoutes.DroppedConnection() }
                return response
            }
        }
        router.post("**", use: forward)
        router.get("**", use: forward)
        let (port, task) = try await TestServer.serve(router, port: 0)
        return FaultProxy(port: port, script: script, task: task)
    }

    /// Stops the proxy and waits until the port is closed.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }

    private static func forward(_ request: Request, to upstream: URL) async -> Response {
        guard let body = try? await TestRoutes.body(request),
            let url = URL(string: upstream.absoluteString + request.uri.path + (request.uri.query.map { "?\($0)" } ?? ""))
        else { return TestRoutes.json(.badRequest, "{\"error\":\"proxy\",\"message\":\"unreadable request\"}") }
        var outgoing = URLRequest(url: url, timeoutInterval: 30)
        outgoing.httpMethod = request.method.rawValue
        for name in [HTTPField.Name.authorization, .contentType] {
            if let value = request.headers[name] { outgoing.setValue(value, forHTTPHeaderField: name.rawName) }
        }
        outgoing.httpBody = body
        guard let (data, answer) = try? await URLSession.shared.data(for: outgoing), let http = answer as? HTTPURLResponse else {
            return TestRoutes.json(.badGateway, "{\"error\":\"upstream\",\"message\":\"the server behind the proxy did not answer\"}")
        }
        var headers: HTTPFields = [.contentType: http.value(forHTTPHeaderField: "Content-Type") ?? "application/json"]
        if let retryAfter = http.value(forHTTPHeaderField: "Retry-After") { headers[.retryAfter] = retryAfter }
        return Response(
            status: HTTPResponse.Status(code: http.statusCode), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
