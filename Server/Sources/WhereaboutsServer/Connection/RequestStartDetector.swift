import NIOCore

/// The first handler of a connection: tells ``RequestDeadlineHandler`` when the first bytes of a
/// request arrive, so a header's deadline runs from its first byte rather than from when the
/// connection fell idle.
final class RequestStartDetector: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// Sent inbound: bytes of a new request arrived.
    struct RequestStarted {}
    /// Sent outbound by ``RequestDeadlineHandler``: a request was read in full; the next bytes start another.
    struct AwaitNextRequest {}

    private var armed = true

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if armed {
            armed = false
            context.fireUserInboundEventTriggered(RequestStarted())
        }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is AwaitNextRequest else { return context.triggerUserOutboundEvent(event, promise: promise) }
        armed = true
        promise?.succeed()
    }
}
