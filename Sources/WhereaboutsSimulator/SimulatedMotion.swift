import Foundation
import WhereaboutsCore

/// The motion coprocessor of the simulated phone, as `evaluation.md` specifies: the truth's speed,
/// smoothed over 20 s, classed as stationary (< 0.4 m/s), walking (< 2.5 m/s), cycling (< 7 m/s) or
/// automotive; a class that lasts under 30 s is never reported; a new class is reported 10–60 s
/// (seeded) after it starts, and one report in twenty names a neighbouring class with low confidence.
/// The reports are worked out for the whole path at once: the classifier, unlike the app, may know
/// what the device does.
struct SimulatedMotion {
    /// When each report is made, in time order.
    let reports: [(time: Double, activity: MotionActivity)]

    init(truth: TruthPath, random: inout SeededGenerator) {
        var runs: [(start: Double, kind: MotionActivity.Kind)] = []
        var window: [Double] = []
        var sum = 0.0
        for (offset, speed) in truth.speeds.enumerated() {
            window.append(speed)
            sum += speed
            if window.count > 20 { sum -= window.removeFirst() }
            let kind = Self.kind(speed: sum / Double(window.count))
            if runs.last?.kind != kind { runs.append((truth.start + Double(offset), kind)) }
        }
        var lasting: [(start: Double, kind: MotionActivity.Kind)] = []
        for (index, run) in runs.enumerated() {
            let end = index + 1 < runs.count ? runs[index + 1].start : truth.end + 1
            guard end - run.start >= 30, lasting.last?.kind != run.kind else { continue }
            lasting.append(run)
        }
        var reports: [(time: Double, activity: MotionActivity)] = []
        for run in lasting {
            let time = max(reports.last?.time ?? -.infinity, run.start + random.uniform(10...60).rounded())
            let wrong = random.uniform(0...1) < 0.05
            let kind = wrong ? Self.neighbour(of: run.kind, random: &random) : run.kind
            reports.append(
                (time, MotionActivity(kind: kind, confidence: wrong ? .low : .high, start: Date(timeIntervalSince1970: run.start))))
        }
        self.reports = reports
    }

    /// The last report made by `t`.
    func latest(by t: Double) -> MotionActivity? {
        var low = 0
        var high = reports.count
        while low < high {
            let middle = (low + high) / 2
            if reports[middle].time <= t { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? reports[low - 1].activity : nil
    }

    /// The reports made at `t`.
    func reports(at t: Double) -> [MotionActivity] {
        reports.filter { $0.time == t }.map(\.activity)
    }

    private static func kind(speed: Double) -> MotionActivity.Kind {
        switch speed {
        case ..<0.4: .stationary
        case ..<2.5: .walking
        case ..<7: .cycling
        default: .automotive
        }
    }

    private static func neighbour(of kind: MotionActivity.Kind, random: inout SeededGenerator) -> MotionActivity.Kind {
        let all = MotionActivity.Kind.allCases
        let index = all.firstIndex(of: kind)!
        let neighbours = [index - 1, index + 1].filter(all.indices.contains)
        return all[neighbours[Int(random.uniform(0...0.999) * Double(neighbours.count))]]
    }
}
