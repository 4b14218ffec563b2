import Foundation
import NIOConcurrencyHelpers

/// Counters and a latency histogram, rendered in Prometheus' text format at `/metrics`.
final class ServerMetrics: Sendable {
    private struct State {
        var ingested = 0
        var duplicates = 0
        var rejected = 0
        var events = 0
        var timeouts = 0
        var refusedConnections = 0
        var requests: [String: Int] = [:]
        var buckets = [Int](repeating: 0, count: ServerMetrics.bounds.count)
        var latencyCount = 0
        var latencySum = 0.0
    }

    static let bounds = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
    private let state = NIOLockedValueBox(State())

    func countIngest(accepted: Int, duplicate: Int, rejected: Int) {
        state.withLockedValue {
            $0.ingested += accepted
            $0.duplicates += duplicate
            $0.rejected += rejected
        }
    }

    func countEvents(_ n: Int) { state.withLockedValue { $0.events += n } }

    /// A request read too slowly: answered 408 or cut off.
    func countTimeout() { state.withLockedValue { $0.timeouts += 1 } }

    /// A connection over the limit, answered 503.
    func countRefusedConnection() { state.withLockedValue { $0.refusedConnections += 1 } }

    func observe(status: Int, seconds: Double) {
        state.withLockedValue { state in
            state.requests["\(status)", default: 0] += 1
            state.latencyCount += 1
            state.latencySum += seconds
            for (index, bound) in Self.bounds.enumerated() where seconds <= bound { state.buckets[index] += 1 }
        }
    }

    /// The exposition text.
    func render() -> String {
        let s = state.withLockedValue { $0 }
        var lines = [
            "# HELP whereabouts_locations_ingested_total Locations stored for the first time.",
            "# TYPE whereabouts_locations_ingested_total counter", "whereabouts_locations_ingested_total \(s.ingested)",
            "# HELP whereabouts_locations_duplicate_total Locations received again and recognised.",
            "# TYPE whereabouts_locations_duplicate_total counter", "whereabouts_locations_duplicate_total \(s.duplicates)",
            "# HELP whereabouts_locations_rejected_total Locations refused as invalid.",
            "# TYPE whereabouts_locations_rejected_total counter", "whereabouts_locations_rejected_total \(s.rejected)",
            "# HELP whereabouts_events_ingested_total Region events stored.",
            "# TYPE whereabouts_events_ingested_total counter", "whereabouts_events_ingested_total \(s.events)",
            "# HELP whereabouts_http_request_timeouts_total Requests not sent in time (header, body), answered 408 or cut off.",
            "# TYPE whereabouts_http_request_timeouts_total counter", "whereabouts_http_request_timeouts_total \(s.timeouts)",
            "# HELP whereabouts_http_connections_refused_total Connections over the limit, answered 503.",
            "# TYPE whereabouts_http_connections_refused_total counter", "whereabouts_http_connections_refused_total \(s.refusedConnections)",
            "# HELP whereabouts_http_requests_total Requests answered, by status.", "# TYPE whereabouts_http_requests_total counter",
        ]
        for (status, count) in s.requests.sorted(by: { $0.key < $1.key }) {
            lines.append("whereabouts_http_requests_total{status=\"\(status)\"} \(count)")
        }
        lines += ["# HELP whereabouts_http_request_duration_seconds Request latency.", "# TYPE whereabouts_http_request_duration_seconds histogram"]
        for (index, bound) in Self.bounds.enumerated() {
            lines.append("whereabouts_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(s.buckets[index])")
        }
        lines += [
            "whereabouts_http_request_duration_seconds_bucket{le=\"+Inf\"} \(s.latencyCount)",
            "whereabouts_http_request_duration_seconds_sum \(s.latencySum)",
            "whereabouts_http_request_duration_seconds_count \(s.latencyCount)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
