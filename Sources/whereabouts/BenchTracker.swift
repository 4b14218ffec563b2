import ArgumentParser
import Foundation
import WhereaboutsCore
import WhereaboutsSimulator

/// `whereabouts bench tracker`: fixes per second through the whole Tracker, against judging every
/// region by brute force in the same process.
struct BenchTracker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracker",
        abstract: "Tracker throughput (fixes/s) with N regions, against brute-force region judging.")

    @Option(help: "Region counts to measure, comma-separated.")
    var regions: String = "300,100000"

    @Option(help: "Fixes fed per measurement.")
    var fixes: Int = 20_000

    @Flag(help: "Print one JSON object as the last line.")
    var json = false

    func run() throws {
        let counts = try regions.split(separator: ",").map { text -> Int in
            guard let count = Int(text.trimmingCharacters(in: .whitespaces)), count > 0 else {
                throw InputError("--regions \(regions): \"\(text)\" is not a positive whole number; give counts like 300,100000")
            }
            return count
        }
        guard fixes > 0 else { throw InputError("--fixes \(fixes) is not positive; give the number of fixes to feed") }
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let track = SyntheticCity.track(count: fixes, start: start, seed: 2)
        var rows: [[String: Double]] = []
        print("regions    tracker fixes/s    brute-force fixes/s    ratio")
        for count in counts {
            let regionSet = SyntheticCity.regions(count: count, seed: 1)
            let trackerRate = measure(fixes: track.count) {
                var tracker = Tracker(configuration: TrackerConfiguration(mode: .continuous()), regions: regionSet)
                _ = tracker.handle(.command(.start), now: start)
                for fix in track { _ = tracker.handle(.fix(fix), now: fix.timestamp) }
            }
            let bruteFixes = min(track.count, max(200, 20_000_000 / count))
            let bruteRate = measure(fixes: bruteFixes) {
                var inside = 0
                for fix in track.prefix(bruteFixes) {
                    for region in regionSet {
                        let d = Geodesy.distance(fix.coordinate, region.center)
                        if TransitionRule.evidence(distance: d, accuracy: fix.horizontalAccuracy, radius: region.radius) == .inside {
                            inside += 1
                        }
                    }
                }
                precondition(inside >= 0)
            }
            print(String(format: "%7d    %15.0f    %19.0f    %5.1f×", count, trackerRate, bruteRate, trackerRate / bruteRate))
            rows.append([
                "regions": Double(count), "trackerFixesPerSecond": trackerRate.rounded(),
                "bruteForceFixesPerSecond": bruteRate.rounded(), "ratio": (trackerRate / bruteRate * 10).rounded() / 10,
            ])
        }
        if json {
            let data = try JSONSerialization.data(withJSONObject: ["bench": "tracker", "runs": rows], options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }

    private func measure(fixes: Int, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let elapsed = clock.measure(body)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return Double(fixes) / seconds
    }
}
