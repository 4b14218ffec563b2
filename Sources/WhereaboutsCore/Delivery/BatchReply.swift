import Foundation

/// The batch API's answer: how many were stored, how many the server already had, which items it
/// refused and why, and commands queued for the device.
public struct BatchReply: Sendable, Hashable, Codable {
    /// Newly stored.
    public var accepted: Int
    /// Already stored before (a resend); the device treats them as delivered.
    public var duplicate: Int
    /// Items refused, by index in the request.
    public var rejected: [ItemRejection]
    /// Commands for the device, each with its id: sent again until the device acknowledges it.
    public var commands: [DeviceCommand]

    /// Creates a reply.
    public init(accepted: Int, duplicate: Int, rejected: [ItemRejection], commands: [DeviceCommand]) {
        self.accepted = accepted
        self.duplicate = duplicate
        self.rejected = rejected
        self.commands = commands
    }

    /// Decodes leniently: missing arrays are empty.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        accepted = try c.decodeIfPresent(Int.self, forKey: .accepted) ?? 0
        duplicate = try c.decodeIfPresent(Int.self, forKey: .duplicate) ?? 0
        rejected = try c.decodeIfPresent([ItemRejection].self, forKey: .rejected) ?? []
        commands = try c.decodeIfPresent([DeviceCommand].self, forKey: .commands) ?? []
    }
}
