import Foundation
import GRDB
import WhereaboutsCore

/// A record a server refused.
public struct RejectedRecord: Sendable, Equatable {
    /// The record's id.
    public let id: UUID
    /// When it was measured.
    public let timestamp: Date
    /// The server's answer.
    public let rejection: Rejection
}
