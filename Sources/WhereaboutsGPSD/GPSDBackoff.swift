/// How long ``GPSDLocationService`` waits before reconnecting to gpsd: ``initial`` seconds after the
/// first failure, multiplied by ``multiplier`` after each further failure in a row, never more than
/// ``maximum`` seconds. A connection that delivered data resets the sequence.
public struct GPSDBackoff: Sendable, Hashable {
    /// The first delay in seconds; at least 1 ms.
    public let initial: Double
    /// The longest delay in seconds; at least ``initial``.
    public let maximum: Double
    /// The factor between consecutive delays; at least 1.
    public let multiplier: Double

    /// Creates a back-off. Values below their minimum are raised to it (a non-finite value counts as
    /// the minimum), so any input gives a usable schedule.
    public init(initial: Double = 0.5, maximum: Double = 30, multiplier: Double = 2) {
        let first = initial.isFinite ? max(0.001, initial) : 0.001
        self.initial = first
        self.maximum = maximum.isFinite ? max(first, maximum) : first
        self.multiplier = multiplier.isFinite ? max(1, multiplier) : 1
    }

    /// 0.5 s, 1 s, 2 s, … up to 30 s.
    public static let standard = GPSDBackoff()

    /// The delay in seconds after `failures` failures in a row (1 for the first).
    public func delay(afterFailures failures: Int) -> Double {
        var delay = initial
        var step = 1
        while step < failures && delay < maximum && multiplier > 1 {
            delay *= multiplier
            step += 1
        }
        return min(delay, maximum)
    }
}
