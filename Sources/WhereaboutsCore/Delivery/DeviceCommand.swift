import Foundation

/// A server's command with the id the server gave it: `{"id": "…", "type": …}` on the wire.
///
/// The device keeps a command until it has carried it out, then acknowledges its id with a later
/// upload; the server sends it again until then. A command seen twice (a lost answer, a crash
/// before the acknowledgement) is recognised by its id and carried out once.
public struct DeviceCommand: Sendable, Hashable, Codable {
    /// The server's id for the command; unique per device.
    public let id: String
    /// What to do.
    public let command: ServerCommand

    /// The longest id a device keeps, in characters.
    public static let maxIDLength = 100

    /// Creates a command.
    public init(id: String, command: ServerCommand) {
        self.id = id
        self.command = command
    }

    /// A command from a server that gives no ids (OwnTracks): a fresh random id, so it is carried out
    /// once. It is never stored by a server, so nothing gains from a time-ordered one.
    public static func unidentified(_ command: ServerCommand) -> DeviceCommand {
        DeviceCommand(id: UUID().uuidString.lowercased(), command: command)
    }

    private enum CodingKeys: String, CodingKey { case id }

    /// Decodes the command and its `id`. A server that sends no id (an older one, OwnTracks) gets a
    /// fresh one: each such answer is a new command, carried out once.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let id = try c.decodeIfPresent(String.self, forKey: .id) else {
            self = .unidentified(try ServerCommand(from: decoder))
            return
        }
        guard !id.isEmpty, id.count <= Self.maxIDLength else {
            throw DecodingError.dataCorruptedError(
                forKey: .id, in: c,
                debugDescription: "command id \"\(id.prefix(40))\" is empty or longer than \(Self.maxIDLength) characters")
        }
        self.id = id
        command = try ServerCommand(from: decoder)
    }

    /// Encodes the command with its `id`.
    public func encode(to encoder: any Encoder) throws {
        try command.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
    }
}
