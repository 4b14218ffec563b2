import Foundation
import WhereaboutsCore

/// The writes of the ingest paths (the batch API, `/pub`, MQTT): tracks, events, regions, kept
/// messages, and the commands an answer takes. Each returns only once the write is durable.
public protocol TrackIngest: Sendable {
    /// Stores validated records; a (device, id) already held counts as a duplicate, which makes the
    /// stored row the best of both copies (`ResendRule`: the larger dwell, the finer position).
    func ingest(_ records: [LocationRecord], device: String, at date: Date) async throws -> IngestCounts
    /// Stores region events, duplicates by (device, id) ignored.
    func ingest(_ events: [ReceivedEvent], device: String, at date: Date) async throws -> IngestCounts
    /// Stores regions the device defined (OwnTracks waypoints), replacing any with the same id; of
    /// several with one id in `regions`, the last is kept.
    func saveRegions(_ regions: [WireRegion], device: String, at date: Date) async throws
    /// Keeps a message as it came (OwnTracks `card`, `lwt`, `status`); every call stores one more.
    func saveMessage(_ type: String, body: String, device: String, at date: Date) async throws
    /// The batch API's write: stores `records` as the `ingest` of records alone does, forgets the
    /// device's commands it `acknowledged` (carried out), then leases the commands still queued and
    /// not under lease to this answer for `lease` seconds from `date` and returns them oldest first,
    /// provided `tokenHash` is still the device's stored token digest (the one the request was
    /// authenticated with), all in one transaction. A token rotated or removed before it is refused;
    /// PostgreSQL also locks the device row, so one rotated or removed meanwhile waits for the write.
    ///
    /// A command goes out with one answer at a time: however many instances answer the device at
    /// once, only one of them sends it; it goes out again with a later answer once its lease has run
    /// out without an acknowledgement (a lost answer, a crash on either side), and is deleted only
    /// when the device acknowledges it. The device recognises a command it sees twice by its id.
    /// - Throws: ``CredentialChanged``, having written nothing, when the stored digest differs.
    func ingest(
        _ records: [LocationRecord], device: String, tokenHash: Data, acknowledging acknowledged: [String], at date: Date, lease: Double
    ) async throws -> (counts: IngestCounts, commands: [DeviceCommand])
    /// Takes the device's queued commands not under lease, oldest first, forgetting them: for
    /// OwnTracks answers, whose apps cannot acknowledge. Each goes out exactly once, across instances.
    func takeCommands(device: String, at date: Date) async throws -> [ServerCommand]
}
