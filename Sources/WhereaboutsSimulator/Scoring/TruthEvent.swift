import Foundation
import WhereaboutsCore

/// A transition of the ground truth that a strategy should report.
public struct TruthEvent: Sendable, Equatable {
    /// The region's id.
    public let regionID: String
    /// Enter or exit.
    public let kind: RegionEventKind
    /// When it happened, epoch seconds.
    public let time: Double
    /// Part of an inside visit shorter than 30 s: detecting it is neither required nor penalised.
    public let optional: Bool

    /// The event as a run's report lists it: `time region kind`, the time in whole epoch seconds.
    public var label: String { "\(Int(time)) \(regionID) \(kind.rawValue)" }
}
