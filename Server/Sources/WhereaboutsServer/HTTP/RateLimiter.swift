import Foundation

/// A token bucket per device: `rate` requests per second on average, bursts up to `burst`.
actor RateLimiter {
    private let rate: Double
    private let burst: Double
    private var buckets: [String: (tokens: Double, at: Date)] = [:]

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = max(1, burst)
    }

    /// `nil` when the request may go ahead, else the whole seconds to wait.
    func admit(_ key: String, now: Date = Date()) -> Int? {
        guard rate > 0 else { return nil }
        var bucket = buckets[key] ?? (burst, now)
        bucket.tokens = min(burst, bucket.tokens + now.timeIntervalSince(bucket.at) * rate)
        bucket.at = now
        defer { buckets[key] = bucket }
        if bucket.tokens >= 1 {
            bucket.tokens -= 1
            return nil
        }
        return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
    }
}
