import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers a request the HTTP parser cannot read with the JSON error body every other error has
/// (`{"error":"malformed_request","message":…}`), then closes the connection; Hummingbird alone
/// would answer an empty 400.
///
/// Between requests the handler answers at once. After a request whose answer is still being
/// written, it answers once that answer ends. While a request's body is being read, the route reading
/// it answers: the parse error reaches it as a ``MalformedRequest``.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var requestsStarted = 0
    private var readingBody = false
    private var answersEnded = 0
    /// A parse error met after a complete request, answered once that request's answer ends.
    private var waiting: MalformedRequest?
    private var answered = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            requestsStarted += 1
            readingBody = true
        case .body: break
        case .end: readingBody = false
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let malformed = MalformedRequest(error) else { return context.fireErrorCaught(error) }
        if answered {
            return
        } else if readingBody {
            context.fireErrorCaught(malformed)
        } else if answersEnded < requestsStarted {
            waiting = malformed
        } else {
            answer(malformed, context: context)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        answersEnded += 1
        context.write(data, promise: promise)
        if let waiting, answersEnded == requestsStarted {
            self.waiting = nil
            answer(waiting, context: context)
        }
    }

    private func answer(_ malformed: MalformedRequest, context: ChannelHandlerContext) {
        answered = true
        let body = ByteBuffer(bytes: APIError(malformed.status, malformed.code, malformed.message).json)
        let head = HTTPResponse(
            status: malformed.status,
            headerFields: [.connection: "close", .contentType: "application/json", .contentLength: String(body.readableBytes)])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}
