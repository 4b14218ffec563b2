import Foundation
import GRDB
import WhereaboutsCore

/// One entry of the drop log.
public struct DropEntry: Sendable, Equatable {
    /// When the records were dropped.
    public let at: Date
    /// Which limit dropped them.
    public let reason: String
    /// Their state when dropped.
    public let state: DeliveryState
    /// How many.
    public let count: Int
}
