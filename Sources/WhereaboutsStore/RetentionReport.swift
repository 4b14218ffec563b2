import Foundation

/// What one enforcement of the retention limits dropped.
public struct RetentionReport: Sendable, Equatable {
    /// Delivered records dropped (harmless: a server has them).
    public var deliveredDropped = 0
    /// Records no server acknowledged that were dropped because the limit was still exceeded.
    public var undeliveredDropped = 0

    /// Creates an empty report.
    public init() {}
}
