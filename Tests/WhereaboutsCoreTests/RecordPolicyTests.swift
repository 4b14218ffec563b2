import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("RecordPolicy: which accepted fixes become records")
struct RecordPolicyTests {
    /// A fix `metres` east of the last record and `seconds` after it, or a first fix.
    struct Case: Sendable, CustomTestStringConvertible {
        let mode: TrackingMode
        let last: (metres: Double, seconds: TimeInterval)?
        let records: Bool
        var testDescription: String {
            "\(mode) " + (last.map { "after \($0.metres) m / \($0.seconds) s" } ?? "first fix") + " → \(records)"
        }
    }

    @Test(arguments: [
        Case(mode: .manual, last: nil, records: false),
        Case(mode: .manual, last: (10_000, 3_600), records: false),

        Case(mode: .significant, last: nil, records: true),
        Case(mode: .significant, last: (500.01, 300), records: true),
        Case(mode: .significant, last: (5_000, 3_600), records: true),
        Case(mode: .significant, last: (499, 3_600), records: false),
        Case(mode: .significant, last: (10_000, 299), records: false),
        Case(mode: .significant, last: (0, 0.5), records: false),

        Case(mode: .move(), last: nil, records: true),
        Case(mode: .move(), last: (100.01, 1), records: true),
        Case(mode: .move(), last: (0, 300), records: true),
        Case(mode: .move(), last: (99, 299), records: false),
        Case(mode: .move(distance: 50, interval: 60), last: (51, 1), records: true),
        Case(mode: .move(distance: 50, interval: 60), last: (49, 59), records: false),
        Case(mode: .move(distance: 50, interval: 60), last: (0, 60), records: true),

        Case(mode: .interval(interval: 60, displacement: 50), last: nil, records: true),
        Case(mode: .interval(interval: 60, displacement: 50), last: (50.01, 60), records: true),
        Case(mode: .interval(interval: 60, displacement: 50), last: (10_000, 59), records: false),
        Case(mode: .interval(interval: 60, displacement: 50), last: (49, 3_600), records: false),
        Case(mode: .interval(interval: 60, displacement: 0), last: (0, 60), records: true),

        Case(mode: .continuous(), last: nil, records: true),
        Case(mode: .continuous(), last: (0, 1), records: true),
        Case(mode: .continuous(accuracy: .hundredMeters, distanceFilter: 50), last: (1, 1), records: true),

        Case(mode: .adaptive(), last: nil, records: true),
        Case(mode: .adaptive(.stopDetect), last: (0, 1), records: true),
    ])
    func shouldRecord(_ c: Case) {
        let lastRecord = c.last.map { _ in fix(home, acc: 5, t: 0) }
        let candidate = c.last.map { fix(east(of: home, $0.metres), acc: 5, t: $0.seconds) } ?? fix(home, acc: 5, t: 0)
        #expect(RecordPolicy.shouldRecord(candidate, mode: c.mode, lastRecord: lastRecord) == c.records)
    }

    @Test(arguments: [
        (base: 25.0, a: 0.0, b: 0.0, radius: 25.0),
        (base: 25, a: 10, b: 30, radius: 45),
        (base: 25, a: 65, b: 65, radius: 90),
        (base: 0, a: 1_000, b: 5, radius: 502.5),
    ])
    func mergeRadiusGrowsByHalfOfEachAccuracy(base: Double, a: Double, b: Double, radius: Double) {
        let first = fix(home, acc: a, t: 0)
        let second = fix(point(home, metres: 3), acc: b, t: 10)
        #expect(RecordPolicy.mergeRadius(base: base, first, second) == radius)
        #expect(RecordPolicy.mergeRadius(base: base, second, first) == radius)
    }

    @Test(arguments: [
        (metres: 20.0, seconds: 10.0, accuracy: 10.0, adds: false),
        (metres: 100, seconds: 120, accuracy: 40, adds: false),
        (metres: 30, seconds: 10, accuracy: 10, adds: true),
        (metres: 24, seconds: 300, accuracy: 10, adds: false),
        (metres: 26, seconds: 1, accuracy: 20, adds: true),
        (metres: 26, seconds: 1, accuracy: 21, adds: false),
    ])
    func moving(metres: Double, seconds: TimeInterval, accuracy: Double, adds: Bool) {
        let last = fix(home, acc: 40, t: 0)
        let next = fix(east(of: home, metres), acc: accuracy, t: seconds)
        #expect(
            RecordPolicy.addsShape(next, after: last, base: 25) == adds,
            "a GPS-grade fix beyond base and its accuracy")
    }
}
