import NIOConcurrencyHelpers
import NIOCore

/// Counts the connections being served, in all and per client address, so that one more than a
/// limit is refused at once and one address cannot take every connection.
final class ConnectionCounter: Sendable {
    /// Why a connection is refused.
    enum Refusal: Equatable {
        /// The server serves ``ConnectionCounter/limit`` connections.
        case serverFull(limit: Int)
        /// The address holds ``ConnectionCounter/perAddress`` of them.
        case addressFull(limit: Int)

        /// The refusal's message, for the 503 answer.
        var message: String {
            switch self {
            case .serverFull(let limit): "the server is serving its limit of \(limit) connections; retry in a second"
            case .addressFull(let limit): "your address holds its limit of \(limit) connections; close some, or retry in a second"
            }
        }
    }

    /// The most connections served at once.
    let limit: Int
    /// The most connections served at once to one address; 0 for no such limit.
    let perAddress: Int
    private let open = NIOLockedValueBox((total: 0, byAddress: [String: Int]()))

    init(limit: Int, perAddress: Int) {
        self.limit = limit
        self.perAddress = perAddress
    }

    /// Counts a new connection from `address` (`nil`: not limited per address) in, or says why it
    /// must be refused.
    func admit(_ address: String?) -> Refusal? {
        open.withLockedValue { open in
            guard open.total < limit else { return .serverFull(limit: limit) }
            if let address, perAddress > 0 {
                guard open.byAddress[address, default: 0] < perAddress else { return .addressFull(limit: perAddress) }
                open.byAddress[address, default: 0] += 1
            }
            open.total += 1
            return nil
        }
    }

    /// Counts a served connection from `address` out.
    func release(_ address: String?) {
        open.withLockedValue { open in
            open.total -= 1
            if let address, perAddress > 0 {
                let left = open.byAddress[address, default: 1] - 1
                open.byAddress[address] = left > 0 ? left : nil
            }
        }
    }
}

/// The first handler of a connection over a limit: answers 503 with `Retry-After` as soon as the
/// connection is up, reads nothing, and closes.
final class ConnectionRefusal: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let refusal: ConnectionCounter.Refusal
    private var refused = false

    init(_ refusal: ConnectionCounter.Refusal) { self.refusal = refusal }

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
        let body = #"{"error":"too_many_connections","message":"\#(refusal.message)"}"#
        let answer =
            "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: answer))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
