import Foundation
import WhereaboutsCore

/// The scores of one strategy over several runs.
public struct StrategyAggregate: Sendable, Codable, Equatable {
    /// The strategy's name.
    public let strategy: String
    /// How many runs.
    public let runs: Int
    /// Pooled recall: all matched required events over all required events.
    public let recall: Double
    /// Pooled precision: all matched reports over all reports.
    public let precision: Double
    /// Median of all pooled latencies, seconds.
    public let latencyMedian: Double?
    /// 95th percentile of all pooled latencies, seconds.
    public let latencyP95: Double?
    /// Mean of the per-run energy ratios.
    public let energyRatio: Double
    /// All energy over all reference energy.
    public let pooledEnergyRatio: Double
    /// Mean of all pooled track-error samples, metres.
    public let trackErrorMean: Double?
    /// All bytes uploaded over all hours of travel (``RunReport/travelSeconds``): what a denser
    /// track costs in data.
    public let bytesPerTravelHour: Double?
    /// Median and 95th percentile of the pooled upload lags of location records, seconds
    /// (``UploadLags/locations``): how late the server learns of the track.
    public let locationLag: UploadLags.Spread?
    /// Median and 95th percentile of the pooled upload lags of region events, seconds.
    public let eventLag: UploadLags.Spread?

    /// Combines the reports of one strategy.
    public init(reports: [RunReport]) {
        strategy = reports.first?.strategy ?? ""
        runs = reports.count
        let required = reports.map(\.requiredTruthEvents).reduce(0, +)
        let matched = reports.map(\.matchedRequired).reduce(0, +)
        let reported = reports.map(\.reports).reduce(0, +)
        let matchedReports = reports.map(\.matchedReports).reduce(0, +)
        recall = required == 0 ? 1 : Double(matched) / Double(required)
        precision = reported == 0 ? 1 : Double(matchedReports) / Double(reported)
        let latencies = reports.flatMap(\.latencies)
        latencyMedian = percentile(latencies, 50)
        latencyP95 = percentile(latencies, 95)
        energyRatio = reports.isEmpty ? 0 : reports.map(\.energyRatio).reduce(0, +) / Double(reports.count)
        let reference = reports.map(\.referenceJoules).reduce(0, +)
        pooledEnergyRatio = reference == 0 ? 0 : reports.map(\.energy.total).reduce(0, +) / reference
        let samples = reports.map(\.trackErrorSamples).reduce(0, +)
        trackErrorMean = samples == 0 ? nil : reports.map(\.trackErrorSum).reduce(0, +) / Double(samples)
        let travel = reports.map(\.travelSeconds).reduce(0, +)
        bytesPerTravelHour = travel == 0 ? nil : Double(reports.map(\.uploadedBytes).reduce(0, +)) / (travel / 3600)
        locationLag = UploadLags.Spread(reports.flatMap(\.uploadLags.locations))
        eventLag = UploadLags.Spread(reports.flatMap(\.uploadLags.events))
    }
}
