import Testing

@testable import WhereaboutsSimulator

@Suite("How precisely runs measure a strategy: intervals by resampling whole traces")
struct ScoreIntervalsTests {
    static func report(_ scenario: String, recall: Double, energy: Double = 0.1, latencies: [Double] = [5]) -> RunReport {
        var report = TuningTests.report(scenario, recall: recall, energy: energy)
        report.latencies = latencies
        return report
    }

    @Test("runs of a single trace, whatever their families, give no interval")
    func oneTrace() {
        #expect(ScoreIntervals(reports: [Self.report("d00", recall: 0.9), Self.report("d00-stress", recall: 0.5)]) == nil)
        #expect(ScoreIntervals(reports: []) == nil)
    }

    @Test("traces that all score alike give intervals of a single point, the pooled figures")
    func alike() throws {
        let latencies = (1...20).map(Double.init)
        let reports = ["d00", "d01", "d02"].map { Self.report($0, recall: 0.9, energy: 0.12, latencies: latencies) }
        let intervals = try #require(ScoreIntervals(reports: reports))
        let pooled = StrategyAggregate(reports: reports)
        #expect(intervals.groups == 3)
        #expect(intervals.recall == pooled.recall...pooled.recall)
        #expect(intervals.precision == 1...1)
        #expect(abs(intervals.energyRatio.lowerBound - 0.12) < 1e-12 && abs(intervals.energyRatio.upperBound - 0.12) < 1e-12)
        // Every resample holds each latency equally often, so its p95 by counts is the pooled one: 19 s.
        let p95 = try #require(pooled.latencyP95)
        #expect(p95 == 19)
        #expect(intervals.latencyP95 == p95...p95)
    }

    @Test("a trace's families and seeds are drawn together, as one group")
    func groupedByTrace() throws {
        let reports = [
            Self.report("d00", recall: 1), Self.report("d00-stress", recall: 1), Self.report("d00-block", recall: 1),
            Self.report("d01", recall: 0.5),
        ]
        let intervals = try #require(ScoreIntervals(reports: reports))
        #expect(intervals.groups == 2)
        // Two draws of two groups: both d01 (a quarter of draws) gives 0.5, both d00 1.0.
        #expect(intervals.recall == 0.5...1)
    }

    @Test("the interval holds the pooled figure, widens with the spread between traces, and is the same on every run")
    func holdsAndRepeats() throws {
        let spread = (0..<20).map {
            Self.report(String(format: "d%02d", $0), recall: 0.90 + 0.005 * Double($0 % 10), energy: 0.1 + 0.01 * Double($0 % 5))
        }
        let narrow = (0..<20).map { Self.report(String(format: "d%02d", $0), recall: 0.92 + 0.001 * Double($0 % 10)) }
        let intervals = try #require(ScoreIntervals(reports: spread))
        let pooled = StrategyAggregate(reports: spread)
        #expect(intervals.recall.contains(pooled.recall) && intervals.energyRatio.contains(pooled.energyRatio))
        #expect(intervals.recall.lowerBound < pooled.recall && pooled.recall < intervals.recall.upperBound)
        #expect(ScoreIntervals(reports: spread) == intervals)
        let tight = try #require(ScoreIntervals(reports: narrow))
        #expect(tight.recall.upperBound - tight.recall.lowerBound < intervals.recall.upperBound - intervals.recall.lowerBound)
        let wider = try #require(ScoreIntervals(reports: spread, level: 0.99))
        #expect(wider.recall.lowerBound <= intervals.recall.lowerBound && wider.recall.upperBound >= intervals.recall.upperBound)
    }

    @Test("a difference draws the same traces for both strategies, so what a trace does to both cancels out")
    func pairedDifference() throws {
        let names = (0..<12).map { String(format: "d%02d", $0) }
        let recalls = names.indices.map { 0.80 + 0.015 * Double($0) }
        let lower = names.indices.map { Self.report(names[$0], recall: recalls[$0], energy: 0.1) }
        let higher = names.indices.map { Self.report(names[$0], recall: recalls[$0] + 0.05, energy: 0.1 + 0.002 * Double($0)) }
        let gap = try #require(ScoreIntervals.difference(higher, minus: lower))
        #expect(abs(gap.recall.lowerBound - 0.05) < 1e-9 && abs(gap.recall.upperBound - 0.05) < 1e-9)
        #expect(gap.precision == 0...0 && gap.latencyP95 == 0...0)
        #expect(gap.energyRatio.lowerBound > 0)
        // Each strategy alone varies far more between traces than the gap between them.
        let alone = try #require(ScoreIntervals(reports: lower))
        #expect(alone.recall.upperBound - alone.recall.lowerBound > 0.05)
        // Runs of different traces cannot be paired.
        #expect(ScoreIntervals.difference(higher, minus: Array(lower.dropLast())) == nil)
    }

    @Test("runs with no matched event have no latency interval, and the other figures still have theirs")
    func noLatency() throws {
        let reports = ["d00", "d01"].map { Self.report($0, recall: 0, latencies: []) }
        let intervals = try #require(ScoreIntervals(reports: reports))
        #expect(intervals.latencyP95 == nil)
        #expect(intervals.recall == 0...0)
    }
}
