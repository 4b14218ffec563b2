import HTTPTypes
import Hummingbird

/// Refuses, before routing, what a request asks of the server that it does not do, rather than
/// answering as if it had been done: an `Expect` other than `100-continue` gets 417, and a
/// `Transfer-Encoding` with a coding other than `chunked` (such as `gzip, chunked`, whose body would
/// be read as plain text) gets 501.
struct HeaderGuardMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let expect = request.headers[.expect], expect.lowercased() != "100-continue" {
            throw APIError(
                .expectationFailed, "expectation_failed",
                "Expect: \(expect.prefix(80)) is not an expectation this server meets; send the request without it, or with Expect: 100-continue"
            )
        }
        let codings = request.headers[values: .transferEncoding].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if let other = codings.first(where: { $0 != "chunked" }) {
            throw APIError(
                .notImplemented, "unsupported_transfer_encoding",
                "Transfer-Encoding \(other.prefix(40)) is not read here, only chunked; send the body uncompressed (Content-Encoding is not read either)"
            )
        }
        return try await next(request, context)
    }
}
