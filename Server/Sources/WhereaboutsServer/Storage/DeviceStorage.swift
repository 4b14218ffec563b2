import Foundation
import WhereaboutsCore

/// The devices and who may speak for them: tokens, browser logins, queued commands, and the
/// deletions of retention and erasure.
public protocol DeviceStorage: Sendable {
    /// Adds a device with the SHA-256 of its token.
    /// - Throws: ``ServerError`` when the id is taken.
    func addDevice(id: String, tokenHash: Data, at date: Date) async throws
    /// The SHA-256 of a device's token, or `nil` for an unknown device.
    func tokenHash(device: String) async throws -> Data?
    /// Every device, with counts.
    func devices() async throws -> [DeviceInfo]
    /// Replaces the device's token hash and ends its logins; `false` for an unknown device.
    /// The old token is refused from the next request on, by every instance.
    func rotateToken(device: String, tokenHash: Data) async throws -> Bool
    /// Removes the device: its token, logins and queued commands. Its locations, events,
    /// regions and messages stay (for the admin's reads, `prune` and `device delete`); `nil` for an
    /// unknown device.
    func removeDevice(_ id: String) async throws -> DeletedRows?
    /// Deletes everything of the device: the device, locations, events, regions, messages, commands
    /// and logins, whether or not the device itself is still known.
    func deleteDevice(_ id: String) async throws -> DeletedRows
    /// Deletes locations and events with timestamps before `date`, and messages received before it:
    /// on PostgreSQL whole monthly partitions are dropped, and rows deleted only in the month `date`
    /// falls in.
    func prune(before date: Date) async throws -> DeletedRows

    // MARK: Commands

    /// Queues a command, with its id (new and time-ordered: commands go out in the order of their
    /// ids' times), for the device's upload answers.
    func queue(_ command: DeviceCommand, device: String, at date: Date) async throws

    // MARK: Logins

    /// Stores a new login.
    func saveLogin(_ login: BrowserLogin) async throws
    /// The login whose cookie hashes to `idHash`, if it exists and has not expired at `date`.
    func login(idHash: Data, at date: Date) async throws -> BrowserLogin?
    /// Ends a login (logout), and forgets every login expired at `date`.
    func endLogin(idHash: Data, at date: Date) async throws
}
