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

/// A server's answer as the transport received it.
public struct HTTPReply: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a reply; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// The start of the body as text, for reports.
    public var bodyPrefix: String {
        String(decoding: body.prefix(Rejection.maxReasonLength), as: UTF8.self)
    }
}

/// What an upload presents to prove who it is.
public enum Credential: Sendable, Equatable {
    /// `Authorization: Bearer …` (our server, a Firebase ID token).
    case bearer(String)
    /// `Authorization: Basic …` (OwnTracks HTTP mode).
    case basic(user: String, password: String)

    /// The `Authorization` header value.
    public var authorization: String {
        switch self {
        case .bearer(let token): "Bearer \(token)"
        case .basic(let user, let password): "Basic \(Data("\(user):\(password)".utf8).base64EncodedString())"
        }
    }
}
