import HummingbirdCore
import Logging
import NIOCore

/// HTTP/1.1 with JSON answers to requests the parser cannot read (``MalformedRequestHandler``) and
/// the server's connection limits: ``RequestDeadlines`` (header and body timeouts),
/// Hummingbird's idle timeout, and at most ``ServerSettings/maxConnections`` connections in all and
/// ``ServerSettings/maxConnectionsPerAddress`` from one address (none behind a trusted proxy), one
/// more being answered 503 and closed at once.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    private let http1: HTTP1Channel
    private let connections: ConnectionCounter
    private let metrics: ServerMetrics
    /// The peer is a reverse proxy, so its address says nothing of the client's.
    private let trustForwardedFor: Bool

    init(
        responder: @escaping HTTPChannelHandler.Responder, settings: ServerSettings, connections: ConnectionCounter, metrics: ServerMetrics
    ) {
        let deadlines = RequestDeadlines(
            headerTimeout: TimeAmount(seconds: settings.headerTimeout), bodyTimeout: TimeAmount(seconds: settings.bodyTimeout))
        http1 = HTTP1Channel(
            responder: responder,
            configuration: .init(
                additionalChannelHandlers: [MalformedRequestHandler(), RequestDeadlineHandler(deadlines: deadlines, metrics: metrics)],
                idleTimeout: TimeAmount(seconds: settings.idleTimeout)))
        self.connections = connections
        self.metrics = metrics
        trustForwardedFor = settings.trustForwardedFor
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let address = trustForwardedFor ? nil : channel.remoteAddress?.ipAddress
        do {
            if let refusal = connections.admit(address) {
                metrics.countRefusedConnection()
                try channel.pipeline.syncOperations.addHandler(ConnectionRefusal(refusal))
            } else {
                channel.closeFuture.whenComplete { [connections] _ in connections.release(address) }
                try channel.pipeline.syncOperations.addHandler(RequestStartDetector())
            }
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return http1.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension TimeAmount {
    /// The whole number of nanoseconds nearest to `seconds`.
    init(seconds: Double) { self = .nanoseconds(Int64((seconds * 1e9).rounded())) }
}
