import Foundation

/// What a strategy's energy went on over several runs: each item of ``EnergyMeter`` over the run's
/// reference (continuous GPS over the same scenario), averaged over the runs as
/// ``StrategyAggregate/energyRatio`` is, so the items add up to that ratio.
///
/// An energy aim is met or missed item by item: a strategy at 0.16 whose GPS and Wi-Fi take 0.10 can
/// reach 0.10 only by positioning less, while one whose uploads take 0.03 can also upload less often.
public struct EnergyShares: Sendable, Equatable {
    /// GPS, tracking and acquiring.
    public let gps: Double
    /// Wi-Fi scans.
    public let wifi: Double
    /// Cell fixes.
    public let cell: Double
    /// The app running in the background.
    public let app: Double
    /// Motion sensing.
    public let motionSensing: Double
    /// Uploads: the radio's promotions and tails.
    public let network: Double
    /// Wakes of a suspended app.
    public let wakes: Double

    /// Every item together: the mean energy ratio of the runs.
    public var total: Double { gps + wifi + cell + app + motionSensing + network + wakes }

    /// The mean share of each item over `reports`; all zero when there are none. A run without a
    /// reference (a scenario of no duration) counts as spending nothing.
    public init(reports: [RunReport]) {
        func mean(_ item: (EnergyMeter) -> Double) -> Double {
            guard !reports.isEmpty else { return 0 }
            let shares = reports.map { $0.referenceJoules > 0 ? item($0.energy) / $0.referenceJoules : 0 }
            return shares.reduce(0, +) / Double(reports.count)
        }
        gps = mean(\.gps)
        wifi = mean(\.wifi)
        cell = mean(\.cell)
        app = mean(\.app)
        motionSensing = mean(\.motionSensing)
        network = mean(\.network)
        wakes = mean(\.wakes)
    }
}
