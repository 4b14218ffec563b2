import Foundation
import Testing
import WhereaboutsCore

@testable import WhereaboutsGPSD

/// The clock `track` gives the engine: the system's until a fix is ahead of it.
struct GPSTimeTests {
    /// A host's two clocks, moved by the test.
    final class HostClocks: @unchecked Sendable {
        private let lock = NSLock()
        private var system: Date
        private var uptime: TimeInterval = 0

        init(system: Date) { self.system = system }

        /// Both clocks advance.
        func pass(_ seconds: TimeInterval) {
            lock.withLock {
                system += seconds
                uptime += seconds
            }
        }

        /// The wall clock is set (NTP, chrony, the user); uptime goes on.
        func setSystem(_ date: Date) { lock.withLock { system = date } }

        func time() -> GPSTime {
            GPSTime(systemNow: { [self] in lock.withLock { system } }, uptime: { [self] in lock.withLock { uptime } })
        }
    }

    let boot = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("a host whose clock agrees with the receiver keeps its clock: fixes arrive a little after their time")
    func agreeingClock() {
        let host = HostClocks(system: boot)
        let time = host.time()
        for second in 1...5 {
            host.pass(1)
            #expect(!time.observe(fixTime: boot + Double(second) - 0.4))
        }
        #expect(time.now() == boot + 5)
        #expect(time.systemClockError == nil)
    }

    @Test(
        "a clock hours behind the receiver (a Raspberry Pi without a network) takes the receiver's time from two agreeing fixes and keeps it"
    )
    func clockBehind() {
        let host = HostClocks(system: boot)
        let time = host.time()
        let gps = boot + 3 * 3600
        #expect(!time.observe(fixTime: gps), "one fix alone sets nothing")
        host.pass(1)
        #expect(time.observe(fixTime: gps + 1))
        #expect(time.now() == gps + 1)
        host.pass(10)
        #expect(time.now() == gps + 11)
        #expect(abs((time.systemClockError ?? 0) + 3 * 3600) < 1e-6)
        // The next fixes agree with the clock it now keeps.
        #expect(!time.observe(fixTime: gps + 10.6))
        // Chrony steps the system clock to GPS time: the engine's clock does not move.
        host.setSystem(gps + 11)
        #expect(time.now() == gps + 11)
        #expect(time.systemClockError == 0)
    }

    @Test(
        "a fix a second or less ahead is within jitter; one wrongly dated fix, or two that disagree, set nothing; behind the system clock never does"
    )
    func tolerances() {
        let host = HostClocks(system: boot)
        let time = host.time()
        #expect(!time.observe(fixTime: boot + 1))
        // A receiver with the week-rollover fault, 1024 weeks back, fix after fix.
        for second in 0..<3 {
            host.pass(1)
            #expect(!time.observe(fixTime: boot + Double(second) - 1024 * 7 * 86_400))
        }
        #expect(time.systemClockError == nil)
        // A fix a year ahead, then correct ones: the odd fix sets nothing.
        #expect(!time.observe(fixTime: boot + 365 * 86_400))
        host.pass(1)
        #expect(!time.observe(fixTime: boot + 3))
        #expect(time.systemClockError == nil)
        // Two fixes ahead that disagree with each other (a minute apart, a second between them).
        #expect(!time.observe(fixTime: boot + 100))
        host.pass(1)
        #expect(!time.observe(fixTime: boot + 160))
        #expect(time.systemClockError == nil)
    }

    @Test("a clock set by wrongly dated fixes goes back to agreeing fixes behind it, never behind the system clock")
    func setBack() {
        let host = HostClocks(system: boot)
        let time = host.time()
        let wrong = boot + 86_400
        #expect(!time.observe(fixTime: wrong))
        host.pass(1)
        #expect(time.observe(fixTime: wrong + 1))
        host.pass(1)
        #expect(!time.observe(fixTime: boot + 2))
        host.pass(1)
        #expect(time.observe(fixTime: boot + 3))
        #expect(time.now() == boot + 3)
        // Agreeing fixes behind the system clock (the week-rollover fault) leave it.
        host.pass(1)
        #expect(!time.observe(fixTime: boot + 4 - 1024 * 7 * 86_400))
        host.pass(1)
        #expect(!time.observe(fixTime: boot + 5 - 1024 * 7 * 86_400))
        #expect(time.now() == boot + 5)
    }

    @Test("the engine clock sleeps until the receiver's time passes the deadline, and a fix setting it forward ends the sleep")
    func engineClock() async throws {
        let time = GPSTime()
        #expect(!time.observe(fixTime: Date() + 86_400))
        #expect(time.observe(fixTime: Date() + 86_400))
        let clock = time.clock
        let before = clock.now()
        #expect(abs(before.timeIntervalSinceNow - 86_400) < 5)
        let started = ContinuousClock.now
        try await clock.sleep(before + 1.5)
        #expect(ContinuousClock.now - started >= .seconds(1.4), "slept the whole 1.5 s, not one step of it")
        #expect(clock.now() >= before + 1.5)
        let long = Task { try await clock.sleep(before + 3600) }
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(!time.observe(fixTime: before + 7200))
        #expect(time.observe(fixTime: before + 7200))
        let woke = ContinuousClock.now
        try await long.value
        #expect(ContinuousClock.now - woke < .seconds(30), "woke within a step of the clock, not after the hour")
    }
}
