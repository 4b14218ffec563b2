import Testing

@testable import WhereaboutsSimulator

@Suite("What a strategy's energy went on: each item as a share of continuous GPS's energy")
struct EnergySharesTests {
    /// A run of `duration` seconds that spent what `timeline` records, scored as ``RunReport`` scores it.
    static func report(duration: Double, _ timeline: [TimelineRecord]) -> RunReport {
        var report = TuningTests.report("d00", recall: 1, energy: 0)
        report.energy = EnergyMeter(timeline: timeline, start: 0, end: duration)
        report.referenceJoules = EnergyMeter.reference(duration: duration)
        report.energyRatio = report.energy.total / report.referenceJoules
        return report
    }

    @Test("the items add up to the mean energy ratio, each a mean of the runs' shares, not of their joules")
    func addsUp() {
        // A 1 000 s run with GPS tracking for 100 s and 20 Wi-Fi scans; a 4 000 s run with the app
        // running throughout and one upload.
        let short = Self.report(
            duration: 1000, [.gps(t: 0, state: .tracking), .gps(t: 100, state: .off)] + (0..<20).map { .wifiScan(t: Double($0)) })
        let long = Self.report(duration: 4000, [.app(t: 0, state: .running), .upload(t: 10, bytes: 500)])
        let shares = EnergyShares(reports: [short, long])
        #expect(abs(shares.gps - (30.0 / 300) / 2) < 1e-12, "GPS: 30 J of the short run's 300 J, averaged over two runs")
        #expect(abs(shares.wifi - (20 * EnergyMeter.wifiScan / 300) / 2) < 1e-12)
        #expect(abs(shares.app - (EnergyMeter.appRunning * 4000 / 1200) / 2) < 1e-12)
        #expect(shares.network > 0 && shares.cell == 0 && shares.wakes == 0 && shares.motionSensing == 0)
        let ratio = StrategyAggregate(reports: [short, long]).energyRatio
        #expect(abs(shares.total - ratio) < 1e-12, "the items add up to the table's energy ratio")
    }

    @Test("no runs, or a run without a reference, spend nothing")
    func nothing() {
        #expect(EnergyShares(reports: []).total == 0)
        var empty = Self.report(duration: 0, [.wifiScan(t: 0)])
        empty.referenceJoules = 0
        #expect(EnergyShares(reports: [empty]).total == 0)
    }
}
