import Foundation
import WhereaboutsCore

/// One change the engine makes to the store. ``SQLiteLocationStore/apply(_:)`` writes a whole list in
/// one transaction, so the records, events, region states and settings of one input are all stored
/// or none is.
public enum StoreWrite: Sendable, Equatable {
    /// A new record.
    case record(LocationRecord)
    /// The stay at record `of` (the newest) lasts this many seconds; a delivered record becomes
    /// pending again so the server learns the longer stay (uploads are upserts by id). Nothing
    /// changes when that record is not stored.
    case dwell(TimeInterval, of: UUID)
    /// Record `of` (the newest) is better placed by this fix, which carries the record's own
    /// timestamp; a delivered record becomes pending again so the server learns the better position.
    /// Nothing changes when that record is not stored.
    case place(Fix, of: UUID)
    /// A region event, pending upload.
    case event(EventRecord)
    /// Regions' states, what a relaunched app restores.
    case regionStates([RegionStateRecord])
    /// Every region's state forgotten (tracking stopped).
    case forgetRegionStates
    /// A session value: configuration, tracking on or off, permissions, regions, applied commands.
    case session(SessionWrite)
}
