import Foundation
import Testing

@testable import WhereaboutsServer

@Suite("Rate limiter on a given clock")
struct RateLimiterTests {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("a burst goes through, then each request waits for its token, and the wait is in whole seconds")
    func burstThenWait() async {
        let limiter = RateLimiter(rate: 1, burst: 2)
        #expect(await limiter.admit("a", now: start) == nil)
        #expect(await limiter.admit("a", now: start) == nil)
        #expect(await limiter.admit("a", now: start) == 1)
        #expect(await limiter.admit("a", now: start.addingTimeInterval(0.5)) == 1)
        #expect(await limiter.admit("a", now: start.addingTimeInterval(1)) == nil)
        #expect(await limiter.admit("a", now: start.addingTimeInterval(1)) == 1)
        // Tokens never pile up beyond the burst.
        #expect(await limiter.admit("a", now: start.addingTimeInterval(100)) == nil)
        #expect(await limiter.admit("a", now: start.addingTimeInterval(100)) == nil)
        #expect(await limiter.admit("a", now: start.addingTimeInterval(100)) == 1)
    }

    @Test("devices have buckets of their own; a slow rate asks for a longer wait; rate 0 is no limit")
    func devicesAndRates() async {
        let limiter = RateLimiter(rate: 0.25, burst: 1)
        #expect(await limiter.admit("a", now: start) == nil)
        #expect(await limiter.admit("a", now: start) == 4)
        #expect(await limiter.admit("b", now: start) == nil)
        #expect(await limiter.admit("a", now: start.addingTimeInterval(3)) == 1)
        let unlimited = RateLimiter(rate: 0, burst: 1)
        for _ in 0..<100 { #expect(await unlimited.admit("a", now: start) == nil) }
    }

    @Test("wait looks without taking: a key with a token left waits nil; one without, the seconds until it has one")
    func waitDoesNotTake() async {
        let limiter = RateLimiter(rate: 0.5, burst: 2)
        #expect(await limiter.wait("a", now: start) == nil)
        #expect(await limiter.wait("a", now: start) == nil)
        #expect(await limiter.admit("a", now: start) == nil)
        #expect(await limiter.admit("a", now: start) == nil)
        #expect(await limiter.wait("a", now: start) == 2)
        #expect(await limiter.wait("a", now: start.addingTimeInterval(1)) == 1)
        #expect(await limiter.wait("a", now: start.addingTimeInterval(2)) == nil)
        #expect(await limiter.wait("b", now: start) == nil)
    }

    @Test("past 10000 keys the filled-up ones are pruned: a drained key still waits, a forgotten one starts full")
    func pruning() async {
        let limiter = RateLimiter(rate: 1, burst: 1)
        for index in 0..<10_001 { _ = await limiter.admit("k\(index)", now: start) }
        _ = await limiter.admit("late", now: start.addingTimeInterval(5))
        #expect(await limiter.wait("late", now: start.addingTimeInterval(5)) == 1)
        #expect(await limiter.wait("k0", now: start.addingTimeInterval(5)) == nil)
    }
}
