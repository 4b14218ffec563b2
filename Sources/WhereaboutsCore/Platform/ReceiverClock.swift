import Foundation

/// The time a GPS receiver keeps, for a host whose clock may be behind it: the rule, with the
/// clocks read by the shell (`GPSTime` in `WhereaboutsGPSD`).
///
/// A Raspberry Pi has no battery-backed clock: without a network it boots at the time it last shut
/// down (or at 1970), hours or years behind the GPS. The engine refuses a fix more than
/// ``FixFilter/futureTolerance`` ahead of its clock, so on the system clock such a device would
/// record nothing until someone set the time. This clock reads the system clock until two fixes in
/// a row are more than ``aheadTolerance`` ahead of it (no fix is measured after it arrives) and
/// agree with each other (their times differ by the time between their arrivals, within
/// ``agreement``), so one fix with a wrong date moves nothing. From then on it counts from the
/// second fix's time on a clock that never steps (uptime), so a later step of the system clock (NTP
/// or chrony setting it) changes nothing. Two more such fixes set it forward again; two agreeing
/// fixes more than ``behindTolerance`` behind it set it back, as long as they are not behind the
/// system clock (the clock was set by fixes whose dates were wrong).
///
/// A fix behind the system clock never sets it: a receiver with the GPS week-rollover fault reports
/// dates 19.6 years back, and a correct clock must not follow it there. A host whose clock agrees
/// with the receiver never notices this clock.
public struct ReceiverClock: Sendable {
    /// How far ahead of the clock a fix may be before the clock is set to it, in seconds.
    public static let aheadTolerance: TimeInterval = 1
    /// How far behind the clock a fix may be before the clock is set back to it, in seconds (only
    /// once the clock follows the receiver, and never behind the system clock).
    public static let behindTolerance: TimeInterval = 30
    /// How far two fixes' times may differ from the time between their arrivals for them to agree,
    /// in seconds.
    public static let agreement: TimeInterval = 2

    /// The time of the fix the clock was last set to, and the uptime at which it arrived.
    private var anchor: (time: Date, uptime: TimeInterval)?
    /// The last fix that disagreed with the clock, waiting for the next to agree with it.
    private var candidate: (time: Date, uptime: TimeInterval)?

    /// A clock that reads the system clock until fixes are ahead of it.
    public init() {}

    /// Whether the clock follows the receiver (else it reads the system clock).
    public var followsReceiver: Bool { anchor != nil }

    /// The time at `uptime`, when the system clock reads `system`.
    public func time(atUptime uptime: TimeInterval, system: Date) -> Date {
        guard let anchor else { return system }
        return anchor.time.addingTimeInterval(uptime - anchor.uptime)
    }

    /// Takes in the time of a fix that arrived at `uptime`, the system clock reading `system`.
    /// - Returns: `true` when the clock was set to it.
    public mutating func observe(fixTime: Date, uptime: TimeInterval, system: Date) -> Bool {
        let lead = fixTime.timeIntervalSince(time(atUptime: uptime, system: system))
        let ahead = lead > Self.aheadTolerance
        let wronglyAhead = anchor != nil && lead < -Self.behindTolerance && fixTime.timeIntervalSince(system) > -Self.aheadTolerance
        guard ahead || wronglyAhead else {
            candidate = nil
            return false
        }
        defer { candidate = (fixTime, uptime) }
        guard let candidate, abs(fixTime.timeIntervalSince(candidate.time) - (uptime - candidate.uptime)) <= Self.agreement else {
            return false
        }
        anchor = (fixTime, uptime)
        return true
    }
}
