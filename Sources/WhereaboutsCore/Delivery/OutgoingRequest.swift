import Foundation

/// An HTTP request an endpoint wants sent; the transport (URLSession) performs it.
public struct OutgoingRequest: Sendable, Equatable {
    /// `POST`, `PATCH`, …
    public var method: String
    /// The full URL.
    public var url: URL
    /// Header fields in order.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String], body: Data) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}
