import Foundation
import WhereaboutsCore

/// An engine clock that keeps the receiver's time when the host's clock is behind it: the
/// ``WhereaboutsCore/ReceiverClock`` rule on the host's wall clock and its monotonic clock. Pass
/// ``clock`` to both ``GPSDLocationService`` (with `following:` this object) and the engine.
public final class GPSTime: @unchecked Sendable {
    private let lock = NSLock()
    private let systemNow: @Sendable () -> Date
    private let uptime: @Sendable () -> TimeInterval
    private var rule = ReceiverClock()

    /// Creates a clock that reads the system clock until fixes are ahead of it.
    public convenience init() {
        let start = ContinuousClock.now
        self.init(systemNow: Date.init, uptime: { (ContinuousClock.now - start) / .seconds(1) })
    }

    /// Creates a clock on the given readings (tests pass their own).
    /// - Parameters:
    ///   - systemNow: the host's wall clock.
    ///   - uptime: seconds on a clock that never steps.
    init(systemNow: @escaping @Sendable () -> Date, uptime: @escaping @Sendable () -> TimeInterval) {
        self.systemNow = systemNow
        self.uptime = uptime
    }

    /// The current time: the system clock's, or the receiver's since fixes were ahead of it.
    public func now() -> Date {
        lock.withLock { rule.time(atUptime: uptime(), system: systemNow()) }
    }

    /// How far the system clock is ahead of this clock (negative: behind), or `nil` while this clock
    /// still reads the system clock.
    public var systemClockError: TimeInterval? {
        lock.withLock {
            let system = systemNow()
            return rule.followsReceiver ? system.timeIntervalSince(rule.time(atUptime: uptime(), system: system)) : nil
        }
    }

    /// The engine's clock on this time: a sleep ends once this clock passes its deadline, looked at
    /// every second at most, so a fix that sets the clock forward ends the sleeps it passes.
    public var clock: EngineClock {
        EngineClock(
            now: { [self] in now() },
            sleep: { [self] deadline in
                while true {
                    let seconds = deadline.timeIntervalSince(now())
                    guard seconds > 0 else { return }
                    try await Task.sleep(nanoseconds: UInt64(min(seconds, 1) * 1e9))
                }
            },
            spawn: EngineClock.system.spawn)
    }

    /// Takes in the time of a fix that has just arrived.
    /// - Returns: `true` when the clock was set to it.
    @discardableResult
    func observe(fixTime: Date) -> Bool {
        lock.withLock { rule.observe(fixTime: fixTime, uptime: uptime(), system: systemNow()) }
    }
}
