import NIOCore
import NIOHTTP1

/// The connection limits of ``RequestDeadlineHandler`` for what comes before a WebSocket upgrade
/// is decided: the first request's header is read before the HTTP handlers are added (they follow
/// only once the request is known not to upgrade), so this handler, just after the HTTP decoder,
/// closes a connection that sends nothing within the idle timeout, answers 408 to a first header not
/// read in full within the header timeout, and answers a first header the parser cannot read with
/// the JSON error body (``MalformedRequest``; ``MalformedRequestHandler`` answers the later ones). It
/// leaves once the header is read.
final class FirstRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let headerTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private let metrics: ServerMetrics
    private var timer: Scheduled<Void>?
    private var answered = false

    init(headerTimeout: TimeAmount, idleTimeout: TimeAmount, metrics: ServerMetrics) {
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.metrics = metrics
    }

    func handlerAdded(context: ChannelHandlerContext) {
        schedule(after: idleTimeout, context: context) { context in context.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is RequestStartDetector.RequestStarted {
            schedule(after: headerTimeout, context: context) { [self] context in
                metrics.countTimeout()
                answer(.requestTimeout, ByteBuffer(string: RequestDeadlineHandler.timeoutAnswer), context: context)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let malformed = MalformedRequest(error) else { return context.fireErrorCaught(error) }
        timer?.cancel()
        timer = nil
        let body = ByteBuffer(bytes: APIError(malformed.status, malformed.code, malformed.message).json)
        answer(HTTPResponseStatus(statusCode: malformed.status.code), body, context: context)
    }

    /// Answers `status` with the JSON `body` and closes the connection; once only.
    private func answer(_ status: HTTPResponseStatus, _ body: ByteBuffer, context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        var headers = HTTPHeaders()
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        context.write(
            NIOAny(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            timer?.cancel()
            timer = nil
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        context.fireChannelRead(data)
    }

    private func schedule(after delay: TimeAmount, context: ChannelHandlerContext, _ fire: @escaping (ChannelHandlerContext) -> Void) {
        timer?.cancel()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
            timer = nil
            fire(context)
        }
    }
}
