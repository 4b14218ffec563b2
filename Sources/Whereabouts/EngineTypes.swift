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

/// What one background refresh (the travel app's background task) did.
public enum BackgroundRefreshOutcome: Sendable, Equatable {
    /// Tracking is off: the run exited at once.
    case trackingDisabled
    /// The run asked for a fix (`nil` when none came before the deadline) and uploaded what it could.
    case ran(fix: Fix?, delivered: Int, stillPending: Int)
}

/// Counters of what the engine has handled, for status lines and tests.
public struct EngineDiagnostics: Sendable, Equatable {
    /// Events taken from the location service.
    public internal(set) var eventsHandled = 0
    /// Fixes among them.
    public internal(set) var fixes = 0
    /// Region crossings reported by the OS among them.
    public internal(set) var crossings = 0
    /// Times a sleep on the engine's clock ended (timers and deadlines), stale ones included.
    public internal(set) var timerWakeups = 0
    /// Failures the service reported.
    public internal(set) var failures = 0
    /// The most recent failure.
    public internal(set) var lastFailure: LocationServiceFailure?
    /// Writes waiting for the store (a full disk).
    public internal(set) var storeBacklog = 0
    /// Writes lost because the backlog overflowed while the disk was full.
    public internal(set) var storeOverflowed = 0
}
