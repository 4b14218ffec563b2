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

/// Runs strategies over scenarios and scores them.
public enum ScenarioRunner {
    /// Simulates `strategy` over `scenario` with `pad` still seconds at each end and scores the run.
    /// The seed is mixed with the scenario's name so every scenario gets its own noise. The run
    /// records into `storePath` (a temporary store when `nil`) and uploads to `upload`.
    public static func run(
        _ scenario: Scenario, strategy: Strategy, pad: Double, seed: UInt64, storePath: String? = nil, upload: UploadTarget = .loopback
    ) async throws -> ScenarioResult {
        let truth = TruthPath(trace: scenario.trace, pad: pad)
        let runSeed = seed ^ stableHash(scenario.name)
        let outcome = try await Simulation(
            truth: truth, regions: scenario.regions, configuration: strategy.configuration, seed: runSeed, storePath: storePath,
            upload: upload
        ).run()
        let report = RunReport.score(
            run: outcome.run, truth: truth, regions: scenario.regions, scenario: scenario.name,
            strategy: strategy.name, seed: runSeed)
        return ScenarioResult(scenario: scenario.name, strategy: strategy.name, truth: truth, outcome: outcome, report: report)
    }

    /// FNV-1a of the UTF-8 bytes: a hash that is the same on every run and platform.
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
