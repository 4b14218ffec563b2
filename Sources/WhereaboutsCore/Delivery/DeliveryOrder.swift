import Foundation

/// The order in which pending records leave the device.
public enum DeliveryOrder: String, Sendable, Codable, CaseIterable {
    /// Oldest first: the server's history fills in order.
    case oldestFirst
    /// Newest first: after a long offline period the live position is fresh at once.
    case latestFirst
}
