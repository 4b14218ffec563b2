import NIOConcurrencyHelpers
import NIOCore

/// Counts the connections being served, so that one more than ``limit`` is refused at once.
final class ConnectionCounter: Sendable {
    /// The most connections served at once.
    let limit: Int
    private let open = NIOLockedValueBox(0)

    init(limit: Int) { self.limit = limit }

    /// Counts a new connection in; `false` when the limit is reached and it must be refused.
    func admit() -> Bool {
        open.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Counts a served connection out.
    func release() { open.withLockedValue { $0 -= 1 } }

    /// Connections being served.
    var count: Int { open.withLockedValue { $0 } }
}

/// The first handler of a connection over the limit: answers 503 with `Retry-After` as soon as the
/// connection is up, reads nothing, and closes.
final class ConnectionRefusal: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let limit: Int
    private var refused = false

    init(limit: Int) { self.limit = limit }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    private func refuse(_ context: ChannelHandlerContext) {
        guard !refused else { return }
        refused = true
        let body = #"{"error":"too_many_connections","message":"the server is serving its limit of \#(limit) connections; retry in a second"}"#
        let answer = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: answer))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
