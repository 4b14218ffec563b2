import Foundation

/// What the OwnTracks paths (`/pub`, `/api/0/...`) keep beyond tracks: each device's OwnTracks
/// profile, every field of its OwnTracks locations, and its newest kept message of a type.
public protocol OwnTracksStorage: Sendable {
    /// The profile of every device, by device id; a device never configured has an empty one.
    func ownTracksProfiles() async throws -> [OwnTracksProfile]
    /// Replaces the device's profile; `false` for an unknown device.
    func saveOwnTracksProfile(_ profile: OwnTracksProfile) async throws -> Bool
    /// Keeps the OwnTracks fields of the location `record` (at `timestamp`), replacing any kept for it.
    /// Saved before the location itself, so a location is never readable without its fields; fields
    /// whose location was never stored are never read.
    func saveOwnTracksFields(_ fields: OwnTracksFields, record: UUID, timestamp: Date, device: String) async throws
    /// Locations with `from <= timestamp < to` and their OwnTracks fields: all of them oldest first,
    /// or with a `limit` the newest `limit`, newest first.
    func ownTracksLocations(device: String, from: Date, to: Date, limit: Int?) async throws -> [OwnTracksLocation]
    /// The newest message of `type` the device sent (``TrackStorage/saveMessage(_:body:device:at:)``).
    func lastMessage(_ type: String, device: String) async throws -> DeviceMessage?
}
