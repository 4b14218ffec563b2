import Foundation
import WhereaboutsCore

/// A stored location as the OwnTracks paths read it: the record, and the OwnTracks fields when it
/// came through `/pub` (`nil` for one sent to our batch API).
public struct OwnTracksLocation: Sendable, Equatable {
    /// The location.
    public let record: LocationRecord
    /// What the OwnTracks message carried.
    public let fields: OwnTracksFields?
    /// When the server stored it.
    public let receivedAt: Date

    /// Creates a location.
    public init(record: LocationRecord, fields: OwnTracksFields?, receivedAt: Date) {
        self.record = record
        self.fields = fields
        self.receivedAt = receivedAt
    }
}
