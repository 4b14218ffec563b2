import Foundation

/// What a successful answer says about each record of the request.
public struct DeliveryOutcome: Sendable, Equatable {
    /// Stored or already held by the server.
    public var delivered: [UUID]
    /// Refused item by item although the request succeeded.
    public var rejected: [UUID: Rejection]
    /// Commands the server sent back.
    public var commands: [DeviceCommand]
    /// Why the answer could not be read as the server storing the items (a proxy's or captive portal's
    /// page answering 200, a count that does not match the request); `nil` when it could. Nothing is
    /// delivered then: the items go back to pending and are sent again after a back-off.
    public var unreadable: String?

    /// Creates an outcome.
    public init(delivered: [UUID], rejected: [UUID: Rejection] = [:], commands: [DeviceCommand] = [], unreadable: String? = nil) {
        self.delivered = delivered
        self.rejected = rejected
        self.commands = commands
        self.unreadable = unreadable
    }
}

extension DeliveryOutcome {
    /// Nothing delivered: `reply` is a 2xx but not `expected`, the answer the server gives when it
    /// stores the `count` items sent (a proxy's or captive portal's page, say).
    static func notStored(_ reply: HTTPReply, expected: String, count: Int) -> DeliveryOutcome {
        DeliveryOutcome(
            delivered: [],
            unreadable:
                "answered \(reply.status) with \(reply.bodyPrefix.isEmpty ? "an empty body" : reply.bodyPrefix), not \(expected) for the \(count) items sent; nothing was marked delivered: check that the URL reaches the server and no proxy answers for it"
        )
    }
}
