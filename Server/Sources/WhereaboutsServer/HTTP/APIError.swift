import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WhereaboutsCore

/// An error answer: `{"error": code, "message": text}` plus per-item detail for batches.
public struct APIError: HTTPResponseError, Sendable {
    public let status: HTTPResponse.Status
    /// A stable machine-readable code.
    public let code: String
    /// What went wrong and what to do, for a person.
    public let message: String
    /// Per-item problems of a batch.
    public let items: [ItemRejection]
    /// Seconds to wait, for 429 and 503.
    public let retryAfter: Int?
    /// The methods a path serves, for 405.
    public let allow: String?

    /// Creates an error.
    public init(
        _ status: HTTPResponse.Status, _ code: String, _ message: String, items: [ItemRejection] = [], retryAfter: Int? = nil,
        allow: String? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.items = items
        self.retryAfter = retryAfter
        self.allow = allow
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONResponse.make(status, body)
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        if let allow { response.headers[.allow] = allow }
        return response
    }

    /// The JSON body of the answer.
    var json: Data { JSONResponse.encode(body) }

    private var body: Body { Body(error: code, message: message, items: items.isEmpty ? nil : items) }

    private struct Body: Encodable {
        let error: String
        let message: String
        let items: [ItemRejection]?
    }

    static func unauthorized(_ message: String) -> APIError { APIError(.unauthorized, "unauthorized", message) }
    static func forbidden(_ message: String) -> APIError { APIError(.forbidden, "forbidden", message) }
    static func badRequest(_ code: String, _ message: String) -> APIError { APIError(.badRequest, code, message) }
    static func notFound(_ message: String) -> APIError { APIError(.notFound, "not_found", message) }
}

/// JSON answers.
enum JSONResponse {
    static func make(_ status: HTTPResponse.Status, _ value: some Encodable) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: encode(value))))
    }

    /// `value` as sorted-key JSON, with times as ``Timestamp`` strings.
    static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.format(date))
        }
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }
}
