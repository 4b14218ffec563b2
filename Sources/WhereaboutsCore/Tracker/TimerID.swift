/// Identifies one of the Tracker's timers.
public enum TimerID: String, Sendable, Hashable, CaseIterable {
    /// The moving/stationary decision of the stop-detecting modes.
    case stationaryCheck
    /// The end of active tracking.
    case activeTrackingEnd
    /// A region's loitering delay ends.
    case dwell
    /// The device may be within reach of a region boundary: time for a fine fix (adaptive's cruise).
    case clearance
    /// A coalesced upload's interval ends: it starts then, if nothing started it before.
    case flush
}
