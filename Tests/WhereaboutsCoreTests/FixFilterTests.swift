import Foundation
import Testing
import WhereaboutsCore

@Suite("Fix filter and record policy")
struct FixFilterTests {
    typealias F = TestFixtures

    @Test("future, stale and impossible fixes are refused; good ones pass")
    func filter() {
        let last = F.fix(east: 0, at: 100)
        #expect(FixFilter.rejection(of: F.fix(east: 0, at: 200), after: last, now: F.date(150), maxSpeed: 90) == .fromTheFuture)
        #expect(FixFilter.rejection(of: F.fix(east: 10, at: 100), after: last, now: F.date(150), maxSpeed: 90) == .stale)
        #expect(FixFilter.rejection(of: F.fix(east: 10, at: 50), after: last, now: F.date(150), maxSpeed: 90) == .stale)
        #expect(FixFilter.rejection(of: F.fix(east: 5000, at: 110), after: last, now: F.date(150), maxSpeed: 90) == .impossibleSpeed)
        let coarse = F.fix(F.point(1000), accuracy: 1000, at: 110)
        #expect(FixFilter.rejection(of: coarse, after: last, now: F.date(150), maxSpeed: 90) == nil)
        #expect(FixFilter.rejection(of: F.fix(east: 100, at: 110), after: last, now: F.date(150), maxSpeed: 90) == nil)
        #expect(FixFilter.rejection(of: F.fix(east: 100, at: 110), after: nil, now: F.date(150), maxSpeed: 90) == nil)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let mode: TrackingMode
        let metres: Double
        let seconds: Double
        let records: Bool
        var testDescription: String { "\(mode.name) \(Int(metres)) m \(Int(seconds)) s → \(records)" }
    }

    @Test("each mode's record rule", arguments: [
        Case(mode: .manual, metres: 5000, seconds: 5000, records: false),
        Case(mode: .significant, metres: 499, seconds: 1000, records: false),
        Case(mode: .significant, metres: 600, seconds: 299, records: false),
        Case(mode: .significant, metres: 600, seconds: 300, records: true),
        Case(mode: .move(), metres: 100.01, seconds: 10, records: true),
        Case(mode: .move(), metres: 50, seconds: 300, records: true),
        Case(mode: .move(), metres: 50, seconds: 299, records: false),
        Case(mode: .interval(interval: 60, displacement: 500), metres: 600, seconds: 59, records: false),
        Case(mode: .interval(interval: 60, displacement: 500), metres: 499, seconds: 600, records: false),
        Case(mode: .interval(interval: 60, displacement: 500), metres: 500.01, seconds: 60, records: true),
        Case(mode: .continuous(), metres: 0, seconds: 1, records: true),
        Case(mode: .adaptive(), metres: 0, seconds: 1, records: true),
    ])
    func recordRule(_ c: Case) {
        let last = F.fix(east: 0, at: 0)
        let next = F.fix(east: c.metres, at: c.seconds)
        #expect(RecordPolicy.shouldRecord(next, mode: c.mode, lastRecord: last) == c.records)
    }

    @Test("the first fix is recorded in every automatic mode, never in manual")
    func firstFix() {
        let fix = F.fix(east: 0, at: 0)
        #expect(!RecordPolicy.shouldRecord(fix, mode: .manual, lastRecord: nil))
        #expect(RecordPolicy.shouldRecord(fix, mode: .significant, lastRecord: nil))
        #expect(RecordPolicy.mergeRadius(base: 25, F.fix(east: 0, accuracy: 10, at: 0), F.fix(east: 0, accuracy: 30, at: 1)) == 45)
    }
}
