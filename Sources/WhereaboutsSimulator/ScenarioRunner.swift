import Foundation
import WhereaboutsCore

/// Runs strategies over scenarios and scores them.
public enum ScenarioRunner {
    /// Simulates `strategy` over `scenario` with `pad` still seconds at each end and scores the run.
    /// The seed is mixed with the scenario's name so every scenario gets its own noise. The run
    /// records into `storePath` (a temporary store when `nil`) and uploads to `upload`.
    public static func run(
        _ scenario: Scenario, strategy: Strategy, pad: Double, seed: UInt64, storePath: String? = nil, upload: UploadTarget = .loopback
    ) async throws -> ScenarioResult {
        let truth = TruthPath(trace: scenario.trace, pad: pad)
        let runSeed = runSeed(seed, scenario: scenario.name)
        let outcome = try await Simulation(
            truth: truth, regions: scenario.regions, configuration: strategy.configuration, seed: runSeed, storePath: storePath,
            upload: upload
        ).run()
        let report = RunReport.score(
            run: outcome.run, truth: truth, regions: scenario.regions, scenario: scenario.name,
            strategy: strategy.name, seed: runSeed)
        return ScenarioResult(scenario: scenario.name, strategy: strategy.name, truth: truth, outcome: outcome, report: report)
    }

    /// The seed of one run (its report's ``RunReport/seed``): `seed` mixed with the scenario's name.
    public static func runSeed(_ seed: UInt64, scenario: String) -> UInt64 {
        seed ^ stableHash(scenario)
    }

    /// FNV-1a of the UTF-8 bytes: a hash that is the same on every run and platform.
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
