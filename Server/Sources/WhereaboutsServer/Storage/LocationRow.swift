import Foundation
import WhereaboutsCore

/// A location to insert with its device and when it was received: one row of a multi-device
/// insert, as a group of requests commits them together.
struct LocationRow: Sendable {
    /// A stored location's identity.
    struct Key: Hashable, Sendable {
        let device: String
        let id: UUID
    }

    var device: String
    var record: LocationRecord
    var received: Date

    var key: Key { Key(device: device, id: record.id) }
}
