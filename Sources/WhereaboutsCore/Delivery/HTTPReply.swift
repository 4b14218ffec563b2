import Foundation

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
