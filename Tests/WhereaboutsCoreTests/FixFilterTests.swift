import Foundation
import Testing

@testable import WhereaboutsCore

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

    @Test(
        "each mode's record rule",
        arguments: [
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

extension FixFilterTests {
    private var maxSpeed: Double { 90 }

    @Test func firstGoodFixIsAccepted() {
        #expect(FixFilter.rejection(of: fix(home, t: 100), after: nil, now: time(100), maxSpeed: maxSpeed) == nil)
    }

    @Test func goodFixAfterAnotherIsAccepted() {
        let last = fix(home, acc: 5, t: 0)
        let next = fix(point(home, metres: 30), acc: 5, t: 3)
        #expect(FixFilter.rejection(of: next, after: last, now: time(3), maxSpeed: maxSpeed) == nil)
    }

    @Test func fixFromTheFutureIsRejected() {
        #expect(FixFilter.rejection(of: fix(home, t: 106), after: nil, now: time(100), maxSpeed: maxSpeed) == .fromTheFuture)
        #expect(
            FixFilter.rejection(of: fix(home, t: 105), after: nil, now: time(100), maxSpeed: maxSpeed) == nil,
            "up to five seconds of clock skew are tolerated")
        #expect(
            FixFilter.rejection(of: fix(home, t: 3_700), after: fix(home, t: 0), now: time(100), maxSpeed: maxSpeed)
                == .fromTheFuture)
    }

    @Test(arguments: [0.0, -1, -3_600])
    func fixNotNewerThanTheLastIsStale(offset: TimeInterval) {
        let last = fix(home, t: 1_000)
        let next = fix(point(home, metres: 10), t: 1_000 + offset)
        #expect(FixFilter.rejection(of: next, after: last, now: time(1_010), maxSpeed: maxSpeed) == .stale)
    }

    @Test func oldFixArrivingLateIsFineWhenNewerThanTheLast() {
        let last = fix(home, t: 0)
        #expect(FixFilter.rejection(of: fix(home, t: 10), after: last, now: time(600), maxSpeed: maxSpeed) == nil)
    }

    @Test func impossibleSpeedIsRejected() {
        let last = fix(home, acc: 5, t: 0)
        let jump = fix(point(home, metres: 1_000), acc: 5, t: 1)
        #expect(FixFilter.rejection(of: jump, after: last, now: time(1), maxSpeed: maxSpeed) == .impossibleSpeed)
        // 1 km in 20 s is 50 m/s: a motorway, possible.
        let fast = fix(point(home, metres: 1_000), acc: 5, t: 20)
        #expect(FixFilter.rejection(of: fast, after: last, now: time(20), maxSpeed: maxSpeed) == nil)
    }

    @Test func speedAllowsForBothAccuracies() {
        // 1 000 m in 10 s: 100 m/s raw, but with 30 m + 30 m of uncertainty only 94 m/s: still too fast.
        let last = fix(home, acc: 30, t: 0)
        #expect(
            FixFilter.rejection(
                of: fix(point(home, metres: 1_000), acc: 30, t: 10), after: last, now: time(10),
                maxSpeed: maxSpeed) == .impossibleSpeed)
        // With 60 m + 60 m it is 88 m/s: allowed.
        let coarseLast = fix(home, acc: 60, t: 0)
        #expect(
            FixFilter.rejection(
                of: fix(point(home, metres: 1_000), acc: 60, t: 10), after: coarseLast,
                now: time(10), maxSpeed: maxSpeed) == nil)
        // A cell fix 2 km off with 3 km accuracy explains itself entirely.
        #expect(
            FixFilter.rejection(
                of: fix(point(home, metres: 2_000), acc: 3_000, t: 1), after: fix(home, t: 0),
                now: time(1), maxSpeed: maxSpeed) == nil)
    }

    @Test func maxSpeedIsAParameter() {
        let last = fix(home, acc: 0, t: 0)
        let next = fix(point(home, metres: 100), acc: 0, t: 10)
        #expect(FixFilter.rejection(of: next, after: last, now: time(10), maxSpeed: 9) == .impossibleSpeed)
        #expect(FixFilter.rejection(of: next, after: last, now: time(10), maxSpeed: 11) == nil)
    }
}
