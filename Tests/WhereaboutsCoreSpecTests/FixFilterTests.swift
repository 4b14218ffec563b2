import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("FixFilter: future, stale and impossible fixes")
struct FixFilterTests {
    private let maxSpeed = 90.0

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
        #expect(FixFilter.rejection(of: fix(home, t: 105), after: nil, now: time(100), maxSpeed: maxSpeed) == nil,
            "up to five seconds of clock skew are tolerated")
        #expect(FixFilter.rejection(of: fix(home, t: 3_700), after: fix(home, t: 0), now: time(100), maxSpeed: maxSpeed)
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
        #expect(FixFilter.rejection(of: fix(point(home, metres: 1_000), acc: 30, t: 10), after: last, now: time(10),
            maxSpeed: maxSpeed) == .impossibleSpeed)
        // With 60 m + 60 m it is 88 m/s: allowed.
        let coarseLast = fix(home, acc: 60, t: 0)
        #expect(FixFilter.rejection(of: fix(point(home, metres: 1_000), acc: 60, t: 10), after: coarseLast,
            now: time(10), maxSpeed: maxSpeed) == nil)
        // A cell fix 2 km off with 3 km accuracy explains itself entirely.
        #expect(FixFilter.rejection(of: fix(point(home, metres: 2_000), acc: 3_000, t: 1), after: fix(home, t: 0),
            now: time(1), maxSpeed: maxSpeed) == nil)
    }

    @Test func maxSpeedIsAParameter() {
        let last = fix(home, acc: 0, t: 0)
        let next = fix(point(home, metres: 100), acc: 0, t: 10)
        #expect(FixFilter.rejection(of: next, after: last, now: time(10), maxSpeed: 9) == .impossibleSpeed)
        #expect(FixFilter.rejection(of: next, after: last, now: time(10), maxSpeed: 11) == nil)
    }
}
