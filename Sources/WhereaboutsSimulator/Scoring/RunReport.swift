import Foundation
import WhereaboutsCore

/// The scores of one simulated run (`report.json`).
public struct RunReport: Sendable, Codable, Equatable {
    /// The scenario's name.
    public var scenario: String
    /// The strategy's name.
    public var strategy: String
    /// The seed of the run's noise.
    public var seed: UInt64
    /// Scenario length in seconds, pads included.
    public var durationSeconds: Double
    /// Truth events that must be detected.
    public var requiredTruthEvents: Int
    /// Truth events from visits under 30 s.
    public var optionalTruthEvents: Int
    /// Scored reports (not initial, not dwell).
    public var reports: Int
    /// Required truth events matched.
    public var matchedRequired: Int
    /// Reports matched.
    public var matchedReports: Int
    /// Matched required over required.
    public var recall: Double
    /// Matched reports over reports.
    public var precision: Double
    /// Median latency in seconds of matched required events.
    public var latencyMedian: Double?
    /// 95th percentile latency in seconds.
    public var latencyP95: Double?
    /// Mean track error in metres.
    public var trackErrorMean: Double?
    /// 95th percentile track error in metres.
    public var trackErrorP95: Double?
    /// Records stored after merging.
    public var recordedFixes: Int
    /// Bytes of every upload request on the timeline.
    public var uploadedBytes: Int
    /// How late the uploads carried what they carried, kept for pooling across runs.
    public var uploadLags: UploadLags
    /// Seconds the truth moves (at least ``movingSpeed``): the hours of travel that
    /// ``StrategyAggregate/bytesPerTravelHour`` divides by.
    public var travelSeconds: Double
    /// Energy spent, joules, by item.
    public var energy: EnergyMeter
    /// Joules of continuous GPS over the scenario.
    public var referenceJoules: Double
    /// Energy over the reference.
    public var energyRatio: Double
    /// Latencies of matched required events (seconds), kept for pooling across runs.
    public var latencies: [Double]
    /// Matched required truth events with their latency, as `time region kind seconds`.
    public var matchedRequiredEvents: [String]
    /// Required truth events no report matched, as `time region kind`.
    public var missedTruthEvents: [String]
    /// Reports that matched no truth event, as `time region kind`.
    public var unmatchedReports: [String]
    /// Sum and count of the track-error samples, kept for pooling across runs.
    public var trackErrorSum: Double
    /// Number of track-error samples.
    public var trackErrorSamples: Int

    /// The speed in metres per second from which the truth counts as travelling: the motion
    /// classifier's threshold between stationary and walking (`evaluation.md`).
    public static let movingSpeed = 0.4

    /// Scores `run` against `truth` and `regions`.
    public static func score(
        run: SimulationRun, truth: TruthPath, regions: [Region], scenario: String, strategy: String, seed: UInt64
    ) -> RunReport {
        let truthEvents = TruthTransitions.compute(truth: truth, regions: regions)
        let matching = EventMatching(events: run.events, truth: truthEvents)
        let track = TrackError(fixes: run.fixes, truth: truth)
        let duration = truth.end - truth.start + 1
        let energy = EnergyMeter(timeline: run.timeline, start: truth.start, end: truth.end + 1)
        let reference = EnergyMeter.reference(duration: duration)
        return RunReport(
            scenario: scenario, strategy: strategy, seed: seed, durationSeconds: duration,
            requiredTruthEvents: matching.required, optionalTruthEvents: matching.optional, reports: matching.reports,
            matchedRequired: matching.matchedRequired, matchedReports: matching.matchedReports,
            recall: matching.recall, precision: matching.precision,
            latencyMedian: percentile(matching.latencies, 50), latencyP95: percentile(matching.latencies, 95),
            trackErrorMean: track.mean, trackErrorP95: track.p95, recordedFixes: run.fixes.count,
            uploadedBytes: run.timeline.reduce(0) { if case .upload(_, let bytes) = $1 { $0 + bytes } else { $0 } },
            uploadLags: run.uploadLags,
            travelSeconds: Double(truth.speeds.filter { $0 >= movingSpeed }.count), energy: energy,
            referenceJoules: reference, energyRatio: energy.total / reference, latencies: matching.latencies,
            matchedRequiredEvents: matching.matchedRequiredEvents.map { "\($0.event.label) \(Int($0.latency))" },
            missedTruthEvents: matching.missed.map(\.label),
            unmatchedReports: matching.unmatched.map {
                "\(Int($0.timestamp.timeIntervalSince1970)) \($0.regionID) \($0.kind.rawValue)"
            },
            trackErrorSum: track.samples.reduce(0, +), trackErrorSamples: track.samples.count)
    }

    /// The report as pretty-printed JSON with sorted keys: the same bytes for the same run.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
