import Foundation

/// A token bucket per key (a device, a client address): `rate` tokens per second on average, bursts up
/// to `burst`. Buckets that have filled up again are forgotten once there are many.
actor RateLimiter {
    private let rate: Double
    private let burst: Double
    private var buckets: [String: (tokens: Double, at: Date)] = [:]
    private var pruneAt = 10_000

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = max(1, burst)
    }

    /// Takes a token: `nil` when the request may go ahead, else the whole seconds to wait.
    func admit(_ key: String, now: Date) -> Int? {
        guard rate > 0 else { return nil }
        var tokens = self.tokens(key, now: now)
        defer {
            buckets[key] = (tokens, now)
            if buckets.count > pruneAt { prune(now: now) }
        }
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return wait(tokens)
    }

    /// Whether `key` has a token, without taking it: `nil` when it has, else the whole seconds until it will.
    func wait(_ key: String, now: Date) -> Int? {
        guard rate > 0 else { return nil }
        let tokens = self.tokens(key, now: now)
        return tokens >= 1 ? nil : wait(tokens)
    }

    /// Whether `key`'s bucket is full: it took no token lately (or has had time to refill).
    func isFull(_ key: String, now: Date) -> Bool { tokens(key, now: now) >= burst }

    private func tokens(_ key: String, now: Date) -> Double {
        guard let bucket = buckets[key] else { return burst }
        return min(burst, bucket.tokens + now.timeIntervalSince(bucket.at) * rate)
    }

    private func wait(_ tokens: Double) -> Int { max(1, Int(((1 - tokens) / rate).rounded(.up))) }

    private func prune(now: Date) {
        buckets = buckets.filter { $0.value.tokens + now.timeIntervalSince($0.value.at) * rate < burst }
        pruneAt = max(10_000, buckets.count * 2)
    }
}
