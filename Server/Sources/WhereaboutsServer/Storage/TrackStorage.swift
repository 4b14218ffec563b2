import Foundation
import WhereaboutsCore

/// A device as the server knows it.
public struct DeviceInfo: Sendable, Equatable, Codable {
    /// The device id used in paths.
    public let id: String
    /// When it was added.
    public let createdAt: Date
    /// Locations stored.
    public let locations: Int
    /// The newest location's timestamp, if any.
    public let lastSeen: Date?
}

/// A message an OwnTracks app sent that the server keeps as it came: `card`, `lwt` or `status`.
public struct DeviceMessage: Sendable, Equatable, Codable {
    /// The OwnTracks `_type`.
    public let type: String
    /// The message as sorted-key JSON.
    public let body: String
    /// When the server stored it.
    public let receivedAt: Date
}

/// How a batch was taken.
public struct IngestCounts: Sendable, Equatable {
    /// Newly stored.
    public var accepted = 0
    /// Already stored (same device and id).
    public var duplicate = 0

    /// Creates counts.
    public init(accepted: Int = 0, duplicate: Int = 0) {
        self.accepted = accepted
        self.duplicate = duplicate
    }
}

/// Where the server keeps devices, tracks, events and queued commands. Every implementation passes
/// the same contract tests. A write returns only once it is durable (committed and synced).
public protocol TrackStorage: Sendable {
    /// A short name for logs and `/health` (`sqlite`, `postgres`).
    var kind: String { get }
    /// Creates the schema if needed (versioned migrations).
    func migrate() async throws
    /// Adds a device with the SHA-256 of its token.
    /// - Throws: ``ServerError`` when the id is taken.
    func addDevice(id: String, tokenHash: Data, at date: Date) async throws
    /// The SHA-256 of a device's token, or `nil` for an unknown device.
    func tokenHash(device: String) async throws -> Data?
    /// Every device, with counts.
    func devices() async throws -> [DeviceInfo]
    /// Stores validated records; a (device, id) already held counts as a duplicate, keeping the
    /// larger dwell.
    func ingest(_ records: [LocationRecord], device: String, at date: Date) async throws -> IngestCounts
    /// Stores region events, duplicates by (device, id) ignored.
    func ingest(_ events: [ReceivedEvent], device: String, at date: Date) async throws -> IngestCounts
    /// The newest location by timestamp.
    func last(device: String) async throws -> LocationRecord?
    /// Locations with `from <= timestamp < to`, sorted by timestamp, handed over in pages so a
    /// long history is never held in memory at once.
    func history(device: String, from: Date, to: Date, page: Int, _ body: ([LocationRecord]) async throws -> Void) async throws
    /// Events with `from <= timestamp < to`, sorted by timestamp.
    func events(device: String, from: Date, to: Date) async throws -> [ReceivedEvent]
    /// Stores regions the device defined (OwnTracks waypoints), replacing any with the same id; of
    /// several with one id in `regions`, the last is kept.
    func saveRegions(_ regions: [WireRegion], device: String, at date: Date) async throws
    /// The regions the device defined, by id.
    func regions(device: String) async throws -> [WireRegion]
    /// Keeps a message as it came (OwnTracks `card`, `lwt`, `status`); every call stores one more.
    func saveMessage(_ type: String, body: String, device: String, at date: Date) async throws
    /// The device's kept messages, oldest first.
    func messages(device: String) async throws -> [DeviceMessage]
    /// Queues a command, with a new id, for the device's upload answers.
    func queue(_ command: ServerCommand, device: String, at date: Date) async throws -> DeviceCommand
    /// Forgets the device's commands it `acknowledged` (carried out) and returns those still queued,
    /// oldest first: a command goes out with every batch answer until the device acknowledges it,
    /// so a lost answer or a crash on either side loses none.
    func commands(device: String, acknowledging acknowledged: [String]) async throws -> [DeviceCommand]
    /// Takes the device's queued commands, oldest first, forgetting them: for OwnTracks answers, whose
    /// apps cannot acknowledge.
    func takeCommands(device: String) async throws -> [ServerCommand]
    /// Checks the database answers.
    func ping() async throws
    /// Closes connections.
    func close() async throws
}
