import Foundation
import WhereaboutsCore

/// What ``LocationEngine/launch(_:)`` did.
public enum LaunchOutcome: Sendable, Equatable {
    /// Tracking was on and restarted in this mode.
    case tracking(TrackingMode)
    /// Tracking is off; the engine answers calls and waits for ``LocationEngine/start(mode:)``.
    case idle
    /// The OS launched the app in the background but tracking is off: nothing was started and the app
    /// may exit at once.
    case trackingDisabled
}
