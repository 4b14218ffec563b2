import Foundation

/// Our batch API: `POST {base}/v1/devices/{device}/locations` with `{"locations": [...]}`.
public struct WhereaboutsBatchEndpoint: UploadEndpoint {
    /// The server's base URL.
    public let base: URL
    /// The device identifier in the path.
    public let device: String
    public let maxBatchSize: Int
    public var name: String { "whereabouts" }

    /// Creates the endpoint; batches hold at most `maxBatchSize` records (the server takes 1000).
    public init(base: URL, device: String, maxBatchSize: Int = 500) {
        self.base = base
        self.device = device
        self.maxBatchSize = max(1, min(maxBatchSize, 1000))
    }

    public func request(for records: [LocationRecord], credential: Credential?) throws -> OutgoingRequest {
        try request(for: records, acknowledging: [], credential: credential)
    }

    public var acceptsAcknowledgements: Bool { true }

    /// `POST {base}/v1/devices/{device}/locations` with `{"locations": [...], "acknowledged": [command ids]}`.
    public func request(for records: [LocationRecord], acknowledging commands: [String], credential: Credential?) throws -> OutgoingRequest
    {
        let batch = LocationBatch(locations: records.map(WireLocation.init), acknowledged: commands)
        return post("locations", try JSONEncoder().encode(batch), credential)
    }

    public func interpret(_ reply: HTTPReply, for records: [LocationRecord]) -> DeliveryOutcome {
        batchOutcome(reply, ids: records.map(\.id))
    }

    public func interpretEvents(_ reply: HTTPReply, for events: [EventRecord]) -> DeliveryOutcome {
        batchOutcome(reply, ids: events.map(\.id))
    }

    public var acceptsEvents: Bool { true }

    /// `POST {base}/v1/devices/{device}/events` with `{"events": [...]}`.
    public func eventRequest(for events: [EventRecord], credential: Credential?) throws -> OutgoingRequest {
        post("events", try JSONEncoder().encode(EventBatch(events: events.map(WireEvent.init))), credential)
    }

    private func post(_ collection: String, _ body: Data, _ credential: Credential?) -> OutgoingRequest {
        var headers = ["Content-Type": "application/json"]
        headers["Authorization"] = credential?.authorization
        let url = base.appendingPathComponent("v1/devices").appendingPathComponent(device).appendingPathComponent(collection)
        return OutgoingRequest(method: "POST", url: url, headers: headers, body: body)
    }
}
