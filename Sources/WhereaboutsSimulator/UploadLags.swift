import Foundation
import WhereaboutsCore

/// How late the server learns what the phone recorded: for each item of each upload request, the
/// seconds from when the phone knew it to when the request carried it. What coalescing uploads
/// (``TrackerConfiguration/flushInterval``) costs in freshness.
public struct UploadLags: Sendable, Codable, Equatable {
    /// For each location record in each request, the seconds from its last moment (its time plus its
    /// dwell) to the request: a stay sent again as its dwell grows counts at each sending.
    public var locations: [Double] = []
    /// For each region event in each request, the seconds from the event to the request.
    public var events: [Double] = []

    /// The median and 95th percentile of some lags, seconds.
    public struct Spread: Sendable, Codable, Equatable {
        public let median: Double
        public let p95: Double

        /// The spread of `lags`; `nil` when there are none.
        init?(_ lags: [Double]) {
            guard let median = percentile(lags, 50), let p95 = percentile(lags, 95) else { return nil }
            self.median = median
            self.p95 = p95
        }
    }

    /// Creates empty lags.
    public init() {}

    /// Notes the items of `request`, a request of the Whereabouts batch API sent at `second` (epoch
    /// seconds). Other requests carry no records and are left out.
    mutating func note(_ request: OutgoingRequest, at second: Double) {
        func lag(_ timestamp: String, plus dwell: Double = 0) -> Double? {
            Timestamp.parse(timestamp).map { max(0, second - $0.timeIntervalSince1970 - dwell) }
        }
        let decoder = JSONDecoder()
        switch request.url.lastPathComponent {
        case "locations":
            guard let batch = try? decoder.decode(LocationBatch.self, from: request.body) else { return }
            locations += batch.locations.compactMap { lag($0.timestamp, plus: $0.dwell ?? 0) }
        case "events":
            guard let batch = try? decoder.decode(EventBatch.self, from: request.body) else { return }
            events += batch.events.compactMap { lag($0.timestamp) }
        default: return
        }
    }
}
