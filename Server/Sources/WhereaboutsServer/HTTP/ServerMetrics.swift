import CoreMetrics
import Foundation
import NIOConcurrencyHelpers
import Prometheus

/// The server's metrics, recorded through swift-metrics into a Prometheus registry of their own
/// (so several servers in one process never share counters) and rendered in Prometheus' text format
/// at `/metrics`: requests and their latency by `route`, `method` and `status`, locations and
/// events stored, read timeouts and refused connections.
final class ServerMetrics: Sendable {
    /// Where every metric of this server is kept.
    let registry: PrometheusCollectorRegistry
    /// The swift-metrics factory writing into ``registry``; also the process's metrics backend when
    /// `serve` bootstraps it.
    let factory: PrometheusMetricsFactory
    private let ingested, duplicates, rejected, events, timeouts, refusedConnections: CoreMetrics.Counter
    private let requests = NIOLockedValueBox([RequestKey: (CoreMetrics.Counter, CoreMetrics.Timer)]())

    private struct RequestKey: Hashable {
        let route, method, status: String
    }

    /// Latency buckets, from 1 ms to 10 s.
    static let latencyBuckets: [Duration] = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000].map {
        .microseconds(Int64($0 * 1000))
    }

    init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.latencyBuckets
        self.factory = factory
        func counter(_ name: String) -> CoreMetrics.Counter { CoreMetrics.Counter(label: name, dimensions: [], factory: factory) }
        ingested = counter("whereabouts_locations_ingested_total")
        duplicates = counter("whereabouts_locations_duplicate_total")
        rejected = counter("whereabouts_locations_rejected_total")
        events = counter("whereabouts_events_ingested_total")
        timeouts = counter("whereabouts_http_request_timeouts_total")
        refusedConnections = counter("whereabouts_http_connections_refused_total")
    }

    /// Locations stored for the first time, recognised as resent, and refused as invalid.
    func countIngest(accepted: Int, duplicate: Int, rejected: Int) {
        ingested.increment(by: accepted)
        duplicates.increment(by: duplicate)
        self.rejected.increment(by: rejected)
    }

    /// Region events stored.
    func countEvents(_ n: Int) { events.increment(by: n) }

    /// A request read too slowly: answered 408 or cut off.
    func countTimeout() { timeouts.increment() }

    /// A connection over the limit, answered 503.
    func countRefusedConnection() { refusedConnections.increment() }

    /// One answered request: `route` is the matched route's pattern (`/v1/devices/{device}/locations`),
    /// never the path itself, so device ids do not multiply the series.
    func observe(route: String, method: String, status: Int, duration: Duration) {
        let key = RequestKey(route: route, method: method, status: String(status))
        let (counter, timer) = requests.withLockedValue { cache in
            if let metrics = cache[key] { return metrics }
            let dimensions = [("route", key.route), ("method", key.method), ("status", key.status)]
            let metrics = (
                CoreMetrics.Counter(label: "whereabouts_http_requests_total", dimensions: dimensions, factory: factory),
                CoreMetrics.Timer(label: "whereabouts_http_request_duration_seconds", dimensions: dimensions, factory: factory)
            )
            cache[key] = metrics
            return metrics
        }
        counter.increment()
        timer.recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// The exposition text.
    func render() -> String { registry.emitToString() }
}
