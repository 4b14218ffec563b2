import Foundation

/// Limits on how much the store keeps. Delivered records go first; undelivered ones (pending or
/// rejected) go only when the limit is still exceeded, and every drop is counted in the drop log.
public struct RetentionPolicy: Sendable, Equatable {
    /// The most records kept, or `nil` for no limit.
    public var maxRecords: Int?
    /// The oldest a record may be, in seconds, or `nil` for no limit.
    public var maxAge: TimeInterval?
    /// Limits are checked after this many appended records.
    public var checkEvery: Int

    /// Creates a policy; by default nothing is dropped.
    public init(maxRecords: Int? = nil, maxAge: TimeInterval? = nil, checkEvery: Int = 256) {
        self.maxRecords = maxRecords
        self.maxAge = maxAge
        self.checkEvery = max(1, checkEvery)
    }

    var isLimited: Bool { maxRecords != nil || maxAge != nil }
}
