import Foundation

/// What a simulated run produced.
public struct SimulationOutcome: Sendable {
    /// Events, records and the energy timeline.
    public let run: SimulationRun
    /// Counters from inside the phone.
    public let diagnostics: SimulationDiagnostics
}
