import Foundation
import WhereaboutsCore

/// How a run's reported events compare with the truth (`evaluation.md`, "Matching").
///
/// Reports marked `initial` are not scored, and neither are dwell reports: the truth has no dwell.
public struct EventMatching: Sendable, Equatable {
    /// A report may come this many seconds before the truth event.
    public static let early: Double = 60
    /// A report may come this many seconds after the truth event.
    public static let late: Double = 900

    /// Truth events that must be detected.
    public let required: Int
    /// Truth events from visits under 30 s.
    public let optional: Int
    /// Scored reports.
    public let reports: Int
    /// Required truth events that a report matched.
    public var matchedRequired: Int { matchedRequiredEvents.count }
    /// Reports that matched a truth event (required or optional).
    public let matchedReports: Int
    /// Each matched required truth event with its latency, in truth order: which events a strategy
    /// reported late.
    public let matchedRequiredEvents: [MatchedEvent]
    /// Report time minus truth time, clipped at 0, of each matched required event, in seconds.
    public var latencies: [Double] { matchedRequiredEvents.map(\.latency) }
    /// Required truth events no report matched.
    public let missed: [TruthEvent]
    /// Scored reports that matched no truth event.
    public let unmatched: [RegionEvent]

    /// Matches `events` against `truth`: each truth event, in time order, takes the earliest unmatched
    /// report of the same region and kind within [truth − 60 s, truth + 900 s]. The required events
    /// take theirs first, then the optional ones from what is left: an optional event (a graze
    /// shorter than 30 s) is "not required and not penalised", so it must not take the report of
    /// the real visit after it from a strategy that rightly ignored the graze.
    public init(events: [RegionEvent], truth: [TruthEvent]) {
        let scored = events.filter { !$0.initial && $0.kind != .dwell }
        var used = Array(repeating: false, count: scored.count)
        var matchedReports = 0
        var matchedRequiredEvents: [MatchedEvent] = []
        var missed: [TruthEvent] = []
        let inOrder = truth.sorted(by: { $0.time < $1.time })
        for event in inOrder.filter({ !$0.optional }) + inOrder.filter(\.optional) {
            let match = scored.indices.filter { i in
                let t = scored[i].timestamp.timeIntervalSince1970
                return !used[i] && scored[i].regionID == event.regionID && scored[i].kind == event.kind
                    && t >= event.time - Self.early && t <= event.time + Self.late
            }.min { scored[$0].timestamp < scored[$1].timestamp }
            guard let match else {
                if !event.optional { missed.append(event) }
                continue
            }
            used[match] = true
            matchedReports += 1
            if !event.optional {
                matchedRequiredEvents.append(
                    MatchedEvent(event: event, latency: max(0, scored[match].timestamp.timeIntervalSince1970 - event.time)))
            }
        }
        self.required = truth.filter { !$0.optional }.count
        self.optional = truth.count - required
        self.reports = scored.count
        self.matchedReports = matchedReports
        self.matchedRequiredEvents = matchedRequiredEvents
        self.missed = missed
        self.unmatched = scored.indices.filter { !used[$0] }.map { scored[$0] }
    }

    /// A required truth event a report matched, and how late the report came.
    public struct MatchedEvent: Sendable, Equatable {
        /// The truth event.
        public let event: TruthEvent
        /// Report time minus truth time, clipped at 0, in seconds.
        public let latency: Double
    }

    /// Matched required truth events over required truth events; 1 when none are required.
    public var recall: Double { required == 0 ? 1 : Double(matchedRequired) / Double(required) }
    /// Matched reports over reports; 1 when nothing was reported.
    public var precision: Double { reports == 0 ? 1 : Double(matchedReports) / Double(reports) }
}

/// The nearest-rank percentile `p` (0…100) of `values`, or `nil` when empty.
public func percentile(_ values: [Double], _ p: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(sorted.count - 1, max(0, rank - 1))]
}
