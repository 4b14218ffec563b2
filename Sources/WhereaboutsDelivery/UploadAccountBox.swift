import Foundation
import WhereaboutsCore

/// The ``UploadAccount`` an uploader reads before each request, in memory: the engine puts the
/// session's account here as it launches and whenever the app changes it; a credential provider
/// that renews tokens puts the renewed ones here too (after storing them).
public final class UploadAccountBox: @unchecked Sendable {
    private let lock = NSLock()
    private var account: UploadAccount

    /// Creates a box holding `account`.
    public init(_ account: UploadAccount = UploadAccount()) { self.account = account }

    /// The account now.
    public var current: UploadAccount { lock.withLock { account } }

    /// Changes the account in place.
    public func update(_ change: (inout UploadAccount) -> Void) { lock.withLock { change(&account) } }
}
