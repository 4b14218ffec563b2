import Foundation

/// The pure tracking state machine: `(input, now) → [effect]`.
///
/// The Tracker owns no clock and performs no I/O. A shell (the simulator, CoreLocation, gpsd) feeds
/// it inputs with the time they happened and performs the effects it returns, in order.
public struct Tracker: Sendable {
    /// The configuration in force.
    public private(set) var configuration: TrackerConfiguration

    /// Creates a stopped tracker watching `regions`.
    public init(configuration: TrackerConfiguration, regions: [Region] = []) {
        self.configuration = configuration
    }

    /// Handles one input that happened at `now` and returns what the shell must do.
    public mutating func handle(_ input: TrackerInput, now: Date) -> [TrackerEffect] {
        []
    }
}
