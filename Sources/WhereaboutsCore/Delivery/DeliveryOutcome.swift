import Foundation

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
