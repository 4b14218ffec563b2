import HTTPTypes
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// HTTP/1.1, with WebSocket upgrades where `shouldUpgrade` allows them, JSON answers to requests the
/// parser cannot read (``MalformedRequestHandler``) and the server's connection limits:
/// ``RequestDeadlines`` (header and body timeouts; ``FirstRequestGuard`` for the first request, read
/// before the upgrade is decided), Hummingbird's idle timeout, and at most
/// ``ServerSettings/maxConnections`` connections in all and ``ServerSettings/maxConnectionsPerAddress``
/// from one address (none behind a trusted proxy), one more being answered 503 and closed at once.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    /// Decides a WebSocket upgrade from the request's head: `.dontUpgrade` answers it as HTTP.
    typealias ShouldUpgrade =
        @Sendable (HTTPRequest, any Channel, Logger) async throws -> ShouldUpgradeResult<
            WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>
        >

    private let http1: HTTP1WebSocketUpgradeChannel
    private let connections: ConnectionCounter
    private let metrics: ServerMetrics
    private let settings: ServerSettings
    /// The peer is a reverse proxy, so its address says nothing of the client's.
    private let trustForwardedFor: Bool

    init(
        responder: @escaping HTTPChannelHandler.Responder, settings: ServerSettings, connections: ConnectionCounter, metrics: ServerMetrics,
        shouldUpgrade: @escaping ShouldUpgrade
    ) {
        let deadlines = RequestDeadlines(
            headerTimeout: TimeAmount(seconds: settings.headerTimeout), bodyTimeout: TimeAmount(seconds: settings.bodyTimeout))
        http1 = HTTP1WebSocketUpgradeChannel(
            responder: responder,
            configuration: .init(
                http1: .init(
                    additionalChannelHandlers: [MalformedRequestHandler(), RequestDeadlineHandler(deadlines: deadlines, metrics: metrics)],
                    idleTimeout: TimeAmount(seconds: settings.idleTimeout)),
                ws: .init(autoPing: .enabled(timePeriod: .seconds(30)))),
            shouldUpgrade: shouldUpgrade)
        self.connections = connections
        self.metrics = metrics
        self.settings = settings
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
        let (headerTimeout, idleTimeout) = (TimeAmount(seconds: settings.headerTimeout), TimeAmount(seconds: settings.idleTimeout))
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { [metrics] value in
            // Made on the channel's event loop, where it lives: a handler is not Sendable.
            let guardFirst = FirstRequestGuard(headerTimeout: headerTimeout, idleTimeout: idleTimeout, metrics: metrics)
            let decoder = try channel.pipeline.syncOperations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(guardFirst, position: .after(decoder.handler))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension TimeAmount {
    /// The whole number of nanoseconds nearest to `seconds`.
    init(seconds: Double) { self = .nanoseconds(Int64((seconds * 1e9).rounded())) }
}
