import NIOConcurrencyHelpers

/// The OwnTracks accounts `/pub` has read, so a device's next request skips that read.
///
/// A cached account is only a guess: the write that stores a location confirms it in its own
/// transaction (``TrackStorage/ingestOwnTracksTakingCommands(_:fields:account:at:)``), and every other
/// `/pub` write first reads the account again. When the stored account differs, the request is
/// authenticated again from storage, so a rotated or removed token is refused as soon as it is
/// without the cache, on every instance.
final class OwnTracksAccountCache: Sendable {
    private let accounts = NIOLockedValueBox<[String: OwnTracksAccount]>([:])
    private let capacity: Int

    /// A cache of at most `capacity` devices; when full, it starts again empty.
    init(capacity: Int = 10_000) { self.capacity = capacity }

    /// The account last read for `device`, if any.
    subscript(device: String) -> OwnTracksAccount? { accounts.withLockedValue { $0[device] } }

    /// Keeps `account` for its device.
    func remember(_ account: OwnTracksAccount) {
        accounts.withLockedValue { accounts in
            if accounts.count >= capacity, accounts[account.profile.device] == nil { accounts.removeAll(keepingCapacity: true) }
            accounts[account.profile.device] = account
        }
    }

    /// Drops `device`'s account.
    func forget(_ device: String) {
        _ = accounts.withLockedValue { $0.removeValue(forKey: device) }
    }
}
