import Foundation
import WhereaboutsCore
import WhereaboutsDelivery

/// A server inside the process for simulated runs: it takes every request of the Whereabouts batch
/// API (`…/locations`, `…/events`) and acknowledges each item, as a server that stores everything
/// would. The real ``Uploader`` talks to it, so a run's uploads are the requests an app would send.
public struct LoopbackReceiver: HTTPTransport {
    /// Creates a receiver.
    public init() {}

    public func send(_ request: OutgoingRequest, timeout: TimeInterval) async throws -> HTTPReply {
        let body = request.body
        let count: Int
        switch request.url.lastPathComponent {
        case "locations": count = try JSONDecoder().decode(LocationBatch.self, from: body).locations.count
        case "events": count = try JSONDecoder().decode(EventBatch.self, from: body).events.count
        default:
            return HTTPReply(status: 404, headers: [:], body: Data("no such endpoint: \(request.url.path)".utf8))
        }
        let reply = BatchReply(accepted: count, duplicate: 0, rejected: [], commands: [])
        return HTTPReply(status: 200, headers: ["Content-Type": "application/json"], body: try JSONEncoder().encode(reply))
    }
}
