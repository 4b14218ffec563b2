import Foundation
import Logging
import Whereabouts
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore

/// What a simulated run produced.
public struct SimulationOutcome: Sendable {
    /// Events, records and the energy timeline.
    public let run: SimulationRun
    /// Counters from inside the phone.
    public let diagnostics: SimulationDiagnostics
}
