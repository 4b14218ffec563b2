import Foundation
import NIOConcurrencyHelpers

/// Every location stored, as it is stored, for the live views (`/ws/last`): each ingest path (the
/// batch API, `/pub`, MQTT) publishes what it committed, and each subscriber gets it in order.
/// A subscriber that reads too slowly loses the oldest updates, never the newest, nor memory.
public final class LocationFeed: Sendable {
    /// Locations of one device, stored by one write.
    public struct Update: Sendable {
        public let device: String
        public let locations: [OwnTracksLocation]
    }

    private let subscribers = NIOLockedValueBox([UUID: AsyncStream<Update>.Continuation]())
    /// How many updates a subscriber may fall behind before the oldest are dropped.
    static let backlog = 1000

    public init() {}

    /// The updates published from now on, until the stream's consumer stops iterating it.
    public func subscribe() -> AsyncStream<Update> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Update>.makeStream(bufferingPolicy: .bufferingNewest(Self.backlog))
        continuation.onTermination = { [subscribers] _ in _ = subscribers.withLockedValue { $0.removeValue(forKey: id) } }
        subscribers.withLockedValue { $0[id] = continuation }
        return stream
    }

    /// Hands `locations` of `device`, committed, to every subscriber.
    public func publish(device: String, _ locations: [OwnTracksLocation]) {
        guard !locations.isEmpty else { return }
        let update = Update(device: device, locations: locations)
        for continuation in subscribers.withLockedValue({ Array($0.values) }) { continuation.yield(update) }
    }
}
