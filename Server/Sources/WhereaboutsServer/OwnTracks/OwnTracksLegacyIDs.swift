import Foundation
import WhereaboutsCore

/// When a database that earlier servers made stops getting their name-based ids for OwnTracks
/// locations sent without `_id`.
public enum OwnTracksLegacyIDs {
    /// The limit the upgrade's migration at `date` records, in seconds since 1970: a location timed
    /// before it may have been stored by an earlier server (its time can be up to
    /// ``WireLimits/futureTolerance`` ahead of the moment it was stored), or by an instance of the
    /// earlier version still running during a rolling upgrade (a day), and its resend must get the
    /// same id to be recognised.
    public static func limit(migratedAt date: Date) -> Double {
        date.timeIntervalSince1970 + WireLimits.futureTolerance + 86_400
    }
}
