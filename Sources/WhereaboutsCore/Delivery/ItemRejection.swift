import Foundation

/// One refused item of a batch.
public struct ItemRejection: Sendable, Hashable, Codable {
    /// Index of the item in the request's `locations`.
    public var index: Int
    /// Why it was refused.
    public var reason: String

    /// Creates an item rejection.
    public init(index: Int, reason: String) {
        self.index = index
        self.reason = reason
    }
}
