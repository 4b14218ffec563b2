import Foundation
import WhereaboutsCore

/// Everything one simulated run of a strategy over a scenario produced.
public struct ScenarioResult: Sendable {
    /// The scenario's name.
    public let scenario: String
    /// The strategy's name.
    public let strategy: String
    /// The truth path the run was scored against.
    public let truth: TruthPath
    /// What the engine reported and recorded, and the energy timeline.
    public let outcome: SimulationOutcome
    /// The scores.
    public let report: RunReport
}
