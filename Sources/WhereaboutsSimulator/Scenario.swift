import Foundation
import WhereaboutsCore

/// A ground-truth trace and the regions to watch along it.
public struct Scenario: Sendable {
    /// A short name for reports and output folders (e.g. `d07`).
    public let name: String
    /// The recorded positions, sorted by time.
    public let trace: [TracePoint]
    /// The regions.
    public let regions: [Region]

    /// Creates a scenario.
    public init(name: String, trace: [TracePoint], regions: [Region]) {
        self.name = name
        self.trace = trace
        self.regions = regions
    }
}
