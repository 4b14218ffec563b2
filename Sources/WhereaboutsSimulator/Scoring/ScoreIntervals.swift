import WhereaboutsCore

/// How precisely a set of runs measures a strategy's pooled figures: percentile bootstrap intervals
/// of its recall, precision, p95 latency and energy ratio, resampling whole trace groups.
///
/// The unit resampled is the trace (``ScenarioFamily/trace(of:)``), with every run made from it (each
/// family built on it, at every seed), because those runs share the trace's roads, stops and speeds and
/// so are not independent. An interval that holds an aim says the runs cannot tell the figure from the
/// aim; one wholly on the wrong side says the aim is missed by more than which traces were recorded.
/// The resamples come from a fixed seed, so the same runs always give the same intervals.
public struct ScoreIntervals: Sendable, Equatable {
    /// The pooled recall's interval.
    public let recall: ClosedRange<Double>
    /// The pooled precision's interval.
    public let precision: ClosedRange<Double>
    /// The pooled p95 latency's interval, seconds; `nil` when a resample holds no matched event.
    public let latencyP95: ClosedRange<Double>?
    /// The mean energy ratio's interval.
    public let energyRatio: ClosedRange<Double>
    /// How many trace groups the runs come from.
    public let groups: Int
    /// How many resamples the intervals come from.
    public let resamples: Int
    /// The share of resamples each interval holds (0.95: from the 2.5th to the 97.5th percentile).
    public let level: Double

    /// The intervals of `reports`' figures, from `resamples` draws of as many trace groups as they
    /// hold, with replacement; `nil` when they come from fewer than two groups, where resampling can
    /// say nothing about other traces.
    ///
    /// - Precondition: `resamples` is at least 1 and `level` lies strictly between 0 and 1.
    public init?(reports: [RunReport], resamples: Int = 1000, level: Double = 0.95, seed: UInt64 = 1) {
        guard let drawn = Self.draw([reports], resamples: resamples, seed: seed) else { return nil }
        self.init(drawn.figures.map { $0[0] }, groups: drawn.groups, level: level)
    }

    /// The intervals of the differences between two strategies' figures, `reports`' less `other`'s,
    /// each draw taking the same traces for both, so that what a trace does to both cancels out: an
    /// interval wholly above 0 says the first strategy's figure is higher on traces like these, not
    /// only on these. `nil` when the two come from different traces or from fewer than two.
    ///
    /// - Precondition: `resamples` is at least 1 and `level` lies strictly between 0 and 1.
    public static func difference(
        _ reports: [RunReport], minus other: [RunReport], resamples: Int = 1000, level: Double = 0.95, seed: UInt64 = 1
    ) -> ScoreIntervals? {
        guard let drawn = draw([reports, other], resamples: resamples, seed: seed) else { return nil }
        let differences = drawn.figures.map { pair in
            ResampledFigures(
                recall: pair[0].recall - pair[1].recall, precision: pair[0].precision - pair[1].precision,
                latencyP95: pair[0].latencyP95.flatMap { first in pair[1].latencyP95.map { first - $0 } },
                energyRatio: pair[0].energyRatio - pair[1].energyRatio)
        }
        return ScoreIntervals(differences, groups: drawn.groups, level: level)
    }

    /// Percentile intervals of each figure over the draws.
    private init(_ draws: [ResampledFigures], groups: Int, level: Double) {
        precondition(!draws.isEmpty && level > 0 && level < 1, "resamples ≥ 1 and 0 < level < 1")
        func interval(_ values: [Double]) -> ClosedRange<Double> {
            let sorted = values.sorted()
            let tail = (1 - level) / 2
            let low = Int((tail * Double(sorted.count)).rounded(.down))
            let high = Int(((1 - tail) * Double(sorted.count)).rounded(.up)) - 1
            return sorted[min(low, sorted.count - 1)]...sorted[max(0, min(high, sorted.count - 1))]
        }
        recall = interval(draws.map(\.recall))
        precision = interval(draws.map(\.precision))
        energyRatio = interval(draws.map(\.energyRatio))
        let latencies = draws.compactMap(\.latencyP95)
        latencyP95 = latencies.count == draws.count ? interval(latencies) : nil
        self.groups = groups
        resamples = draws.count
        self.level = level
    }

    /// The pooled figures of each set of runs in `resamples` draws of their trace groups, each draw
    /// taking the same groups for every set; `nil` when the sets come from different groups or fewer
    /// than two.
    private static func draw(_ sets: [[RunReport]], resamples: Int, seed: UInt64) -> (groups: Int, figures: [[ResampledFigures]])? {
        precondition(resamples >= 1, "resamples ≥ 1")
        let totals = sets.map(TraceGroupTotals.make)
        guard let names = totals.first?.names, names.count >= 2, totals.allSatisfy({ $0.names == names }) else { return nil }
        var random = SeededGenerator(seed: seed)
        let figures = (0..<resamples).map { _ in
            let picks = names.indices.map { _ in Int.random(in: names.indices, using: &random) }
            return totals.map { set in
                var sum = TraceGroupTotals.Totals(latencyValues: set.latencyValues.count)
                for pick in picks { sum.add(set.totals[pick]) }
                return ResampledFigures(
                    recall: sum.required == 0 ? 1 : Double(sum.matchedRequired) / Double(sum.required),
                    precision: sum.reports == 0 ? 1 : Double(sum.matchedReports) / Double(sum.reports),
                    latencyP95: sum.latencyP95(values: set.latencyValues), energyRatio: sum.energyRatioSum / Double(sum.runs))
            }
        }
        return (names.count, figures)
    }
}

/// One resample's pooled figures (or their differences between two strategies).
private struct ResampledFigures {
    let recall: Double
    let precision: Double
    let latencyP95: Double?
    let energyRatio: Double
}

/// The counts a bootstrap adds up for each trace group, and every distinct latency once, so that a
/// resample's p95 is read from counts instead of sorting its latencies.
private struct TraceGroupTotals {
    struct Totals {
        var runs = 0
        var required = 0
        var matchedRequired = 0
        var reports = 0
        var matchedReports = 0
        var energyRatioSum = 0.0
        /// How many latencies equal each of the distinct values, in their order.
        var latencyCounts: [Int]

        init(latencyValues: Int) { latencyCounts = Array(repeating: 0, count: latencyValues) }

        /// The totals of one run, its latencies counted at their places among `latencyValues`.
        init(_ report: RunReport, latencyValues: Int, place: [Double: Int]) {
            self.init(latencyValues: latencyValues)
            runs = 1
            required = report.requiredTruthEvents
            matchedRequired = report.matchedRequired
            reports = report.reports
            matchedReports = report.matchedReports
            energyRatioSum = report.energyRatio
            for latency in report.latencies { latencyCounts[place[latency]!] += 1 }
        }

        mutating func add(_ other: Totals) {
            runs += other.runs
            required += other.required
            matchedRequired += other.matchedRequired
            reports += other.reports
            matchedReports += other.matchedReports
            energyRatioSum += other.energyRatioSum
            for index in latencyCounts.indices { latencyCounts[index] += other.latencyCounts[index] }
        }

        /// The 95th percentile of the latencies counted, by the nearest rank as ``percentile(_:_:)``
        /// takes it; `nil` when none is.
        func latencyP95(values: [Double]) -> Double? {
            let count = latencyCounts.reduce(0, +)
            guard count > 0 else { return nil }
            let rank = max(1, Int((0.95 * Double(count)).rounded(.up)))
            var seen = 0
            for (index, value) in values.enumerated() {
                seen += latencyCounts[index]
                if seen >= rank { return value }
            }
            return values.last
        }
    }

    /// The groups' names (``ScenarioFamily/trace(of:)``), sorted.
    let names: [String]
    /// Each group's totals, in the order of `names`.
    let totals: [Totals]
    /// Every distinct latency, ascending.
    let latencyValues: [Double]

    static func make(_ reports: [RunReport]) -> TraceGroupTotals {
        let values = Array(Set(reports.flatMap(\.latencies))).sorted()
        let place = Dictionary(uniqueKeysWithValues: values.enumerated().map { ($1, $0) })
        var byGroup: [String: Totals] = [:]
        for report in reports {
            byGroup[ScenarioFamily.trace(of: report.scenario), default: Totals(latencyValues: values.count)]
                .add(Totals(report, latencyValues: values.count, place: place))
        }
        let names = byGroup.keys.sorted()
        return TraceGroupTotals(names: names, totals: names.map { byGroup[$0]! }, latencyValues: values)
    }
}
