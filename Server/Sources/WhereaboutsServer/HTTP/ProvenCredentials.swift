import Foundation

/// Digests of credentials that proved valid lately, which ``LoginThrottleMiddleware`` never holds
/// back: at most ``capacity``, the least recently proved forgotten first. A credential leaves as soon
/// as it is refused with 401 (a rotated or revoked token).
actor ProvenCredentials {
    /// The most digests kept.
    let capacity: Int
    private var proved: [Data: UInt64] = [:]
    private var clock: UInt64 = 0

    init(capacity: Int = 10_000) { self.capacity = max(1, capacity) }

    /// Whether `digest` proved valid and was not refused since.
    func contains(_ digest: Data) -> Bool { proved[digest] != nil }

    /// Notes that `digest` proved valid; forgets the least recently proved half when full.
    func insert(_ digest: Data) {
        clock += 1
        proved[digest] = clock
        if proved.count > capacity {
            let keep = proved.sorted { $0.value > $1.value }.prefix(capacity / 2 + 1)
            proved = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
        }
    }

    /// Forgets `digest`: it was refused.
    func remove(_ digest: Data) { proved[digest] = nil }
}
