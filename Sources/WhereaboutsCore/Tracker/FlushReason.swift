import Foundation

/// Why an upload flush was requested.
public enum FlushReason: String, Sendable, Codable {
    /// Enough records are pending.
    case threshold
    /// A region event happened.
    case regionEvent
    /// The device stopped or started moving.
    case motionChange
    /// The OS reported a visit arrival while the device was judged still, with an upload waiting for
    /// the coalescing interval: the OS may not wake the app again for hours.
    case arrival
    /// The app came to the foreground.
    case foreground
    /// Tracking stopped.
    case stopped
}
