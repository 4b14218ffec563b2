import Foundation

/// Where a stored record stands on its way to a server.
public enum DeliveryState: Int, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Not yet acknowledged by a server (it may be in flight under a lease).
    case pending = 0
    /// A server acknowledged it (stored it, or already had it).
    case delivered = 1
    /// A server refused it with a 4xx that retrying cannot fix; never resent automatically.
    case rejected = 2

    /// Lower-case name.
    public var description: String {
        switch self {
        case .pending: "pending"
        case .delivered: "delivered"
        case .rejected: "rejected"
        }
    }
}
