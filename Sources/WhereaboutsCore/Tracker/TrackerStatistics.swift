import Foundation

/// Counters of what the Tracker dropped.
public struct TrackerStatistics: Sendable, Equatable {
    /// Fixes refused, by reason.
    public internal(set) var rejected: [FixRejection: Int] = [:]
    /// Fixes used for regions but too coarse to record.
    public internal(set) var tooCoarseToRecord = 0
    /// Fixes accepted.
    public internal(set) var accepted = 0
    /// Times the clock was seen set back, each forgetting the last fix and record taken on the old clock.
    public internal(set) var clockJumpsBack = 0
}
