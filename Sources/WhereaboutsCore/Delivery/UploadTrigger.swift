import Foundation

/// Why a flush started.
public enum UploadTrigger: String, Sendable, CaseIterable {
    /// Enough records are pending (the Tracker's count threshold, ``TrackerConfiguration/uploadThreshold``).
    case threshold
    /// A region event happened.
    case regionEvent
    /// The device stopped or started moving.
    case motionChange
    /// The device arrived at a place where it stays, with records waiting (``FlushReason/arrival``).
    case arrival
    /// The network came back; skips the back-off (not a server's `Retry-After`).
    case connectivity
    /// The app came to the foreground; skips the back-off (not a server's `Retry-After`).
    case foreground
    /// Tracking stopped.
    case stopped
    /// A scheduled retry after a failure.
    case retry
    /// The app asked.
    case manual

    /// The trigger for a Tracker flush effect.
    public init(_ reason: FlushReason) {
        switch reason {
        case .threshold: self = .threshold
        case .regionEvent: self = .regionEvent
        case .motionChange: self = .motionChange
        case .arrival: self = .arrival
        case .foreground: self = .foreground
        case .stopped: self = .stopped
        }
    }

    var skipsBackoff: Bool { self == .connectivity || self == .foreground || self == .manual }
}
