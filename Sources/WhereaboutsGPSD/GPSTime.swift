import Foundation
import WhereaboutsCore

/// An engine clock that keeps the receiver's time when the host's clock is behind it.
///
/// A Raspberry Pi has no battery-backed clock: without a network it boots at the time it last shut
/// down (or at 1970), hours or years behind the GPS. The engine refuses a fix more than
/// ``WhereaboutsCore/FixFilter/futureTolerance`` ahead of its clock, so on the system clock such a
/// device would record nothing until someone set the time. This clock reads the system clock until
/// two fixes in a row are more than ``aheadTolerance`` ahead of it (no fix is measured after it
/// arrives) and agree with each other (their times differ by the time between their arrivals,
/// within ``agreement``), so one fix with a wrong date moves nothing. From then on it counts from
/// the second fix's time on the monotonic clock, so a later step of the system clock (NTP or
/// chrony setting it) changes nothing. Two more such fixes set it forward again; two agreeing
/// fixes more than ``behindTolerance`` behind it set it back, as long as they are not behind the
/// system clock (the clock was set by fixes whose dates were wrong).
///
/// A fix behind the system clock never sets it: a receiver with the GPS week-rollover fault reports
/// dates 19.6 years back, and a correct clock must not follow it there. A host whose clock agrees
/// with the receiver never notices this clock. Pass ``clock`` to both ``GPSDLocationService`` (with
/// `following:` this object) and the engine.
public final class GPSTime: @unchecked Sendable {
    /// How far ahead of the clock a fix may be before the clock is set to it, in seconds.
    public static let aheadTolerance: TimeInterval = 1
    /// How far behind the clock a fix may be before the clock is set back to it, in seconds (only
    /// once the clock follows the receiver, and never behind the system clock).
    public static let behindTolerance: TimeInterval = 30
    /// How far two fixes' times may differ from the time between their arrivals for them to agree,
    /// in seconds.
    public static let agreement: TimeInterval = 2

    private let lock = NSLock()
    private let systemNow: @Sendable () -> Date
    private let uptime: @Sendable () -> TimeInterval
    /// The time of the fix the clock was last set to, and the uptime at which it arrived.
    private var anchor: (time: Date, uptime: TimeInterval)?
    /// The last fix that disagreed with the clock, waiting for the next to agree with it.
    private var candidate: (time: Date, uptime: TimeInterval)?

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
        lock.withLock { time(at: uptime()) }
    }

    /// How far the system clock is ahead of this clock (negative: behind), or `nil` while this clock
    /// still reads the system clock.
    public var systemClockError: TimeInterval? {
        lock.withLock { anchor.map { _ in systemNow().timeIntervalSince(time(at: uptime())) } }
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
        lock.withLock {
            let arrival = uptime()
            let lead = fixTime.timeIntervalSince(time(at: arrival))
            let ahead = lead > Self.aheadTolerance
            let wronglyAhead =
                anchor != nil && lead < -Self.behindTolerance && fixTime.timeIntervalSince(systemNow()) > -Self.aheadTolerance
            guard ahead || wronglyAhead else {
                candidate = nil
                return false
            }
            defer { candidate = (fixTime, arrival) }
            guard let candidate,
                abs(fixTime.timeIntervalSince(candidate.time) - (arrival - candidate.uptime)) <= Self.agreement
            else { return false }
            anchor = (fixTime, arrival)
            return true
        }
    }

    private func time(at uptime: TimeInterval) -> Date {
        guard let anchor else { return systemNow() }
        return anchor.time.addingTimeInterval(uptime - anchor.uptime)
    }
}
