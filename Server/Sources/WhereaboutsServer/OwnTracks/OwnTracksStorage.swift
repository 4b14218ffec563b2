import Foundation
import WhereaboutsCore

/// What the OwnTracks paths (`/pub`, `/api/0/...`) keep beyond tracks: each device's OwnTracks
/// profile, every field of its OwnTracks locations, and its newest kept message of a type.
public protocol OwnTracksStorage: Sendable {
    /// The profile of every device, by device id; a device never configured has an empty one.
    func ownTracksProfiles() async throws -> [OwnTracksProfile]
    /// The profile of one device (empty when never configured), or `nil` for an unknown device: one
    /// keyed read, for the per-request path of `/pub`.
    func ownTracksProfile(device: String) async throws -> OwnTracksProfile?
    /// The profiles of the devices in friends group `group`, by device id.
    func ownTracksProfiles(group: String) async throws -> [OwnTracksProfile]
    /// The profile of the device, first by id, whose ``OwnTracksProfile/topic`` is `topic`, or `nil`
    /// when no device has it. Compares every device's topic: `/pub` asks only when a message names a
    /// topic other than its device's own.
    func ownTracksProfile(topic: String) async throws -> OwnTracksProfile?
    /// Replaces the device's profile; `false` for an unknown device.
    func saveOwnTracksProfile(_ profile: OwnTracksProfile) async throws -> Bool
    /// Keeps the OwnTracks fields of the location `record` (at `timestamp`). Saved before the location
    /// itself, so a location is never readable without its fields; fields whose location was never
    /// stored are never read, and replaced by the next save. Once the location is stored its fields
    /// stay: a resend (the same `_id`, or the same time and place) changes neither.
    func saveOwnTracksFields(_ fields: OwnTracksFields, record: UUID, timestamp: Date, device: String) async throws
    /// Locations with `from <= timestamp < to` and their OwnTracks fields: all of them oldest first,
    /// or with a `limit` the newest `limit`, newest first.
    func ownTracksLocations(device: String, from: Date, to: Date, limit: Int?) async throws -> [OwnTracksLocation]
    /// The time before which an OwnTracks location sent without `_id` keeps the name-based id earlier
    /// servers derived from its content, or `nil` for a database this server's version made
    /// (``OwnTracksParser/locationID(device:content:time:legacyBefore:)``). Set once, by the
    /// migration that brought time-ordered ids to a database an earlier server made
    /// (``OwnTracksLegacyIDs/limit(migratedAt:)``).
    func ownTracksLegacyIDsBefore() async throws -> Date?
    /// The newest message of `type` the device sent (``TrackIngest/saveMessage(_:body:device:at:)``).
    func lastMessage(_ type: String, device: String) async throws -> DeviceMessage?
    /// `/pub`'s write: stores an OwnTracks location of `account`'s device with its fields, the fields
    /// first as ``OwnTracksStorage/saveOwnTracksFields(_:record:timestamp:device:)`` keeps them, then
    /// takes the device's due commands as ``TrackIngest/takeCommands(device:at:)`` does, provided the device's stored account is still
    /// `account` (the one the request was authenticated with), all in one transaction. A token rotated
    /// or removed before it is refused; PostgreSQL also locks the device row, so one rotated or removed
    /// meanwhile waits for the write.
    /// - Throws: ``CredentialChanged``, having written nothing, when the stored account differs.
    func ingestOwnTracksTakingCommands(_ record: LocationRecord, fields: OwnTracksFields, account: OwnTracksAccount, at date: Date)
        async throws
        -> (counts: IngestCounts, commands: [ServerCommand])

    /// The device's token digest and OwnTracks profile, or `nil` for an unknown device, in one read:
    /// what `/pub` reads before it can check the token and open the message.
    func ownTracksAccount(device: String) async throws -> OwnTracksAccount?
}
