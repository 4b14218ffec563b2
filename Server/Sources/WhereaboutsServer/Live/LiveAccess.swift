import Foundation
import HTTPTypes

/// What one `/ws/last` feed may read, checked again while it runs: the login it was opened with
/// must still hold (a rotated or removed token, a logout or an expired login ends the feed, as it
/// ends the login's HTTP requests), and the devices it sees follow `device set-user`.
actor LiveAccess {
    /// How long a check stands before the next update or `LAST` checks again.
    static let recheck: Duration = .seconds(1)

    private let check: @Sendable () async throws -> [String: OwnTracksProfile]
    private var visible: [String: OwnTracksProfile]?
    private var checkedAt: ContinuousClock.Instant

    /// Starts from `visible`, found with the login just now; `check` proves the login again and
    /// finds what it may see, throwing ``APIError`` when the login no longer holds.
    init(visible: [String: OwnTracksProfile], check: @escaping @Sendable () async throws -> [String: OwnTracksProfile]) {
        self.visible = visible
        self.check = check
        checkedAt = .now
    }

    /// The devices the feed may read by profile, or `nil` once its login no longer holds. A check
    /// that fails for another reason (the database is away) keeps what the last one found until
    /// the next try.
    func current() async -> [String: OwnTracksProfile]? {
        guard visible != nil, ContinuousClock.now - checkedAt >= Self.recheck else { return visible }
        do {
            visible = try await check()
            checkedAt = .now
        } catch is APIError {
            visible = nil
        } catch {
            return visible
        }
        return visible
    }
}
