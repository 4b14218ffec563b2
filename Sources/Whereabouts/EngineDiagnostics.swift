import Foundation
import WhereaboutsCore

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
