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
    /// The endpoint one drain of the queue uses from its first claim to its last answer: this one,
    /// unless it reads the app's settings at each use (the bridge's), which gives the one the
    /// settings name now. A drain builds every request, and reads every answer, with the endpoint
    /// whose batch size and acknowledgements it was planned for, even when the app changes the
    /// settings meanwhile.
    func snapshot() -> any UploadEndpoint
}

extension UploadEndpoint {
    public func snapshot() -> any UploadEndpoint { self }

    public var acceptsEvents: Bool { false }

    public var acceptsAcknowledgements: Bool { false }

    public func request(for records: [LocationRecord], acknowledging commands: [String], credential: Credential?) throws -> OutgoingRequest
    {
        try request(for: records, credential: credential)
    }

    public func eventRequest(for events: [EventRecord], credential: Credential?) throws -> OutgoingRequest {
        throw ValidationError(
            field: "endpoint", value: name, problem: "takes no region events", fix: "ask for event requests only when acceptsEvents is true"
        )
    }
    /// Delivers nothing: an endpoint that takes events reads its own answers to them.
    public func interpretEvents(_ reply: HTTPReply, for events: [EventRecord]) -> DeliveryOutcome {
        .notStored(reply, expected: "\(name)'s answer to region events", count: events.count)
    }

    /// The one item of a request to an endpoint that sends one a request (``maxBatchSize`` 1).
    /// - Throws: `ValidationError` naming the count when `items` holds none or more than one, since
    ///   sending the first would let the answer settle items never sent.
    func single<Item>(_ items: [Item], _ what: String) throws -> Item {
        guard items.count == 1, let item = items.first else {
            throw ValidationError(
                field: what, value: "\(items.count) \(what)", problem: "\(name) sends exactly one a request",
                fix: "claim at most maxBatchSize (\(maxBatchSize)) and send no request without one")
        }
        return item
    }
}

/// Reads our batch answer (`BatchReply`) for the items of a request, by index. A 409 says the server
/// already holds the items. A 2xx counts as stored only when its body is a batch answer accounting
/// for every item (accepted, duplicate, or rejected at an index of its own within the request):
/// anything else, such as a proxy's page, delivers nothing (``DeliveryOutcome/unreadable``).
func batchOutcome(_ reply: HTTPReply, ids: [UUID]) -> DeliveryOutcome {
    if reply.status == 409 { return DeliveryOutcome(delivered: ids) }
    guard let answer = try? JSONDecoder().decode(BatchReply.self, from: reply.body),
        answer.accepted + answer.duplicate + answer.rejected.count == ids.count,
        Set(answer.rejected.map(\.index).filter(ids.indices.contains)).count == answer.rejected.count
    else {
        return .notStored(reply, expected: "a batch answer accounting", count: ids.count)
    }
    var rejected: [UUID: Rejection] = [:]
    for item in answer.rejected {
        rejected[ids[item.index]] = Rejection(status: reply.status, reason: item.reason)
    }
    return DeliveryOutcome(delivered: ids.filter { rejected[$0] == nil }, rejected: rejected, commands: answer.commands)
}
