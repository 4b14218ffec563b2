import Foundation

/// Why a server refused a record.
public struct Rejection: Sendable, Hashable, Codable {
    /// The HTTP status, or 200 when the server refused one item of an accepted batch.
    public let status: Int
    /// The server's reason: the start of the response body or the per-item reason.
    public let reason: String

    /// Creates a rejection; the reason is cut to ``maxReasonLength`` characters.
    public init(status: Int, reason: String) {
        self.status = status
        self.reason = String(reason.prefix(Self.maxReasonLength))
    }

    /// How much of a response body is kept.
    public static let maxReasonLength = 300
}
