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
}
