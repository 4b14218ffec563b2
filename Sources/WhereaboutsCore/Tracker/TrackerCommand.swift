import Foundation

/// Commands from the app (or from a server, relayed by the app).
public enum TrackerCommand: Sendable, Equatable {
    /// Start tracking in the configured mode.
    case start
    /// Stop tracking: location updates off, regions no longer monitored.
    case stop
    /// Change the tracking mode.
    case setMode(TrackingMode)
    /// Change the seconds between two coalesced uploads
    /// (``TrackerConfiguration/minimumFlushInterval``; `nil` takes the mode's).
    case setUploadInterval(TimeInterval?)
    /// Take one fix now and record it.
    case requestFix
    /// Track continuously for the given number of seconds, then return to the previous mode.
    case startActiveTracking(duration: TimeInterval)
    /// Add regions (replacing any with the same id).
    case addRegions([Region])
    /// Remove regions by id.
    case removeRegions([String])
    /// The stored records were deleted (the user cleared the history): the next fix starts a new
    /// record instead of merging into the deleted one.
    case forgetRecords
}
