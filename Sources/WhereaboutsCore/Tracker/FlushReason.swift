import Foundation

/// Why an upload flush was requested.
public enum FlushReason: String, Sendable, Codable {
    /// Enough records are pending.
    case threshold
    /// A region event happened.
    case regionEvent
    /// The device stopped or started moving.
    case motionChange
    /// The app came to the foreground.
    case foreground
    /// Tracking stopped.
    case stopped
}
