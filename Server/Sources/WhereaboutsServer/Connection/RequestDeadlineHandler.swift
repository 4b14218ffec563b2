import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Enforces ``RequestDeadlines`` on a connection: keeps one timer, answers 408 and closes when a
/// request is read too slowly, and closes after answers that end the connection.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var deadlines: RequestDeadlines
    private let metrics: ServerMetrics
    private var timer: Scheduled<Void>?
    private var closing = false

    /// The body of the 408 answer to a request not read in time.
    static let timeoutAnswer =
        #"{"error":"request_timeout","message":"the request was not sent in time; send the header and the body without pausing"}"#

    init(deadlines: RequestDeadlines, metrics: ServerMetrics) {
        self.deadlines = deadlines
        self.metrics = metrics
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is RequestStartDetector.RequestStarted else { return context.fireUserInboundEventTriggered(event) }
        perform(deadlines.bytesArrived(now: .now()), context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): perform(deadlines.headerRead(method: head.method, now: .now()), context: context)
        case .body: break
        case .end: perform(deadlines.bodyRead(), context: context)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if deadlines.answerStarted() { head.headerFields[.connection] = "close" }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            guard deadlines.answerEnded() else { return context.write(data, promise: promise) }
            closing = true
            timer?.cancel()
            let sent = context.writeAndFlush(data)
            sent.cascade(to: promise)
            sent.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }

    private func perform(_ action: RequestDeadlines.Action, context: ChannelHandlerContext) {
        guard !closing else { return }
        switch action {
        case .none:
            break
        case .schedule(let deadline):
            timer?.cancel()
            timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
                timer = nil
                perform(deadlines.timerFired(now: .now()), context: context)
            }
        case .awaitNextRequest:
            timer?.cancel()
            timer = nil
            context.triggerUserOutboundEvent(RequestStartDetector.AwaitNextRequest(), promise: nil)
        case .answerTimeoutAndClose:
            closing = true
            metrics.countTimeout()
            let body = ByteBuffer(string: Self.timeoutAnswer)
            let head = HTTPResponse(
                status: .requestTimeout,
                headerFields: [.connection: "close", .contentType: "application/json", .contentLength: String(body.readableBytes)])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        case .close:
            closing = true
            metrics.countTimeout()
            context.close(promise: nil)
        }
    }
}
