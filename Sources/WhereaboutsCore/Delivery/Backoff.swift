import Foundation

/// Exponential back-off with jitter, capped, never sooner than the server asked.
public struct Backoff: Sendable, Equatable {
    /// The first delay in seconds.
    public var initial: TimeInterval
    /// The growth per failed attempt.
    public var multiplier: Double
    /// The longest delay in seconds.
    public var maximum: TimeInterval
    /// The share of each delay that is random: 0.5 draws from [d/2, d].
    public var jitter: Double

    /// Creates a policy.
    public init(initial: TimeInterval = 2, multiplier: Double = 2, maximum: TimeInterval = 600, jitter: Double = 0.5) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.jitter = min(1, max(0, jitter))
    }

    /// The delay before attempt `failures + 1`, given `unit`, a random number in [0, 1), and the
    /// server's `Retry-After` if any. A `Retry-After` beyond `maximum` is still honoured.
    public func delay(afterFailures failures: Int, retryAfter: TimeInterval?, unit: Double) -> TimeInterval {
        let exponent = Double(max(0, failures - 1))
        let full = min(maximum, initial * pow(multiplier, exponent))
        let jittered = full * (1 - jitter * min(max(unit, 0), 1))
        return max(jittered, retryAfter ?? 0)
    }
}
