import Foundation

/// A wire format and place to send records: builds requests and reads successful answers. Pure; the
/// uploader classifies failures with ``UploadVerdict`` and the transport sends.
public protocol UploadEndpoint: Sendable {
    /// A short name for logs and reports.
    var name: String { get }
    /// The most records one request may carry (1 for one-document-per-request APIs).
    var maxBatchSize: Int { get }
    /// The request carrying `records`.
    func request(for records: [LocationRecord], credential: Credential?) throws -> OutgoingRequest
    /// Reads a 2xx answer to the request for `records`.
    func interpret(_ reply: HTTPReply, for records: [LocationRecord]) -> DeliveryOutcome
    /// Whether requests can carry acknowledgements of the server's commands (by id); when they
    /// cannot, a command is forgotten as soon as it is carried out.
    var acceptsAcknowledgements: Bool { get }
    /// The request carrying `records` (possibly none) and the ids of the commands carried out since
    /// the last acknowledged request; asked with acknowledgements only when ``acceptsAcknowledgements``.
    func request(for records: [LocationRecord], acknowledging commands: [String], credential: Credential?) throws -> OutgoingRequest
    /// Whether this endpoint takes region events; when it does not, they stay stored and pending.
    var acceptsEvents: Bool { get }
    /// The request carrying region events; asked only when ``acceptsEvents``.
    func eventRequest(for events: [EventRecord], credential: Credential?) throws -> OutgoingRequest
    /// Reads a 2xx answer to the request for `events`.
    func interpretEvents(_ reply: HTTPReply, for events: [EventRecord]) -> DeliveryOutcome
}

extension UploadEndpoint {
    public var acceptsEvents: Bool { false }

    public var acceptsAcknowledgements: Bool { false }

    public func request(for records: [LocationRecord], acknowledging commands: [String], credential: Credential?) throws -> OutgoingRequest {
        try request(for: records, credential: credential)
    }

    public func eventRequest(for events: [EventRecord], credential: Credential?) throws -> OutgoingRequest {
        throw ValidationError(
            field: "endpoint", value: name, problem: "takes no region events", fix: "ask for event requests only when acceptsEvents is true")
    }
    public func interpretEvents(_ reply: HTTPReply, for events: [EventRecord]) -> DeliveryOutcome {
        DeliveryOutcome(delivered: events.map(\.id))
    }
}

/// Reads our batch answer (`BatchReply`) for the items of a request, by index.
func batchOutcome(_ reply: HTTPReply, ids: [UUID]) -> DeliveryOutcome {
    guard let answer = try? JSONDecoder().decode(BatchReply.self, from: reply.body) else { return DeliveryOutcome(delivered: ids) }
    var rejected: [UUID: Rejection] = [:]
    for item in answer.rejected where ids.indices.contains(item.index) {
        rejected[ids[item.index]] = Rejection(status: reply.status, reason: item.reason)
    }
    return DeliveryOutcome(delivered: ids.filter { rejected[$0] == nil }, rejected: rejected, commands: answer.commands)
}

/// What a successful answer says about each record of the request.
public struct DeliveryOutcome: Sendable, Equatable {
    /// Stored or already held by the server.
    public var delivered: [UUID]
    /// Refused item by item although the request succeeded.
    public var rejected: [UUID: Rejection]
    /// Commands the server sent back.
    public var commands: [DeviceCommand]

    /// Creates an outcome.
    public init(delivered: [UUID], rejected: [UUID: Rejection] = [:], commands: [DeviceCommand] = []) {
        self.delivered = delivered
        self.rejected = rejected
        self.commands = commands
    }
}

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
    public func request(for records: [LocationRecord], acknowledging commands: [String], credential: Credential?) throws -> OutgoingRequest {
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
