import Foundation
import WhereaboutsCore

/// The bench's table: per scenario the medians of its runs, its locations/s as a multiple of the
/// first scenario's (the baseline: batches of 1 unless `--batch` starts otherwise), and locations per
/// CPU-second of the process, which other load on a shared machine changes far less.
final class BenchReport {
    private var baseline: Double?
    private(set) var fields: [(String, JSONScalar)] = []

    func printHeader() {
        print(Self.row("scenario", "locations/s", "requests/s", "p50 ms", "p99 ms", "× baseline", "loc/CPU-s"))
    }

    /// Prints the medians of one scenario's `runs`.
    func add(_ runs: [BenchRun]) {
        guard let scenario = runs.first?.scenario else { return }
        let locations = Self.median(runs.map(\.locationsPerSecond))
        let requests = Self.median(runs.map(\.requestsPerSecond))
        let perCPU = Self.median(runs.map(\.locationsPerCPUSecond))
        let p50 = Self.median(runs.map(\.p50)) * 1000
        let p99 = Self.median(runs.map(\.p99)) * 1000
        let baseline = baseline ?? locations
        self.baseline = baseline
        let ratio = locations / baseline
        print(
            Self.row(
                scenario.description, Self.grouped(locations), Self.grouped(requests), String(format: "%.2f", p50),
                String(format: "%.2f", p99),
                String(format: "%.1f", ratio), Self.grouped(perCPU)))
        let key =
            switch scenario {
            case .batch(let size): "batch\(size)"
            case .pub: "pub"
            }
        fields += [
            ("\(key)LocationsPerSecond", .number(locations.rounded())), ("\(key)RequestsPerSecond", .number(requests.rounded())),
            ("\(key)P50Ms", .number((p50 * 100).rounded() / 100)), ("\(key)P99Ms", .number((p99 * 100).rounded() / 100)),
            ("\(key)Ratio", .number((ratio * 10).rounded() / 10)), ("\(key)LocationsPerCPUSecond", .number(perCPU.rounded())),
        ]
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    private static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        return String(
            digits.reversed().enumerated().map { $0.offset > 0 && $0.offset % 3 == 0 ? ",\($0.element)" : "\($0.element)" }.joined()
                .reversed())
    }

    private static func row(_ cells: String...) -> String {
        cells.enumerated().map {
            $0.offset == 0
                ? $0.element.padding(toLength: 18, withPad: " ", startingAt: 0)
                : String(repeating: " ", count: max(0, 12 - $0.element.count)) + $0.element
        }
        .joined()
    }
}
