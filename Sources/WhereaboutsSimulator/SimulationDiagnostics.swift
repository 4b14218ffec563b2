import Foundation

/// Counters of what happened inside the simulated phone, for reports and tests.
public struct SimulationDiagnostics: Sendable, Equatable, Codable {
    /// Fixes the OS produced for the app, by source.
    public var fixesDelivered: [String: Int] = [:]
    /// Times the OS woke the suspended app.
    public var wakes = 0
    /// Sleeps of the app (its timers, the uploader's retries) that ended.
    public var timersFired = 0
    /// Sleeps that came due while the app was suspended and ended at the next wake.
    public var timersFiredLate = 0
    /// Times the app asked the OS to monitor more regions than it has slots.
    public var slotOverflows = 0
}
