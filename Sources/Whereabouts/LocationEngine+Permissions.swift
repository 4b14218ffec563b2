import Foundation
import WhereaboutsCore

extension LocationEngine {
    /// The permission records (each `nil` until it first matters) as the app shows them.
    public var permissions: Permissions { session.permissions.permissions }

    /// What keeps the app from doing its job, most severe first: a denied, restricted, provisional or
    /// approximate permission, each with a code and a message for the user. Empty when all is well.
    public var permissionProblems: [PermissionProblem] { session.permissions.problems }

    /// Reads both permissions from the OS again and, when foreground is granted but background is
    /// not, asks for background unless the user refused it within the retry delay (2 h by default).
    /// This is what ``appDidBecomeActive()`` does; bridges call it for `checkPermissions`.
    @discardableResult
    public func checkPermissions() throws(EngineError) -> Permissions {
        try launch(.user)
        perform(.checkPermissions(service.authorization()))
        return permissions
    }

    /// The user is doing something that needs a position (creating a story, searching nearby): asks
    /// for foreground permission if it is missing, or opens Settings when the OS will not ask again.
    /// Returns the problem left, if any, for the app to show.
    @discardableResult
    public func locationActionStarted() throws(EngineError) -> PermissionProblem? {
        try launch(.user)
        perform(.locationAction(service.authorization()))
        return session.permissions.problem
    }

    /// Asks for a permission under the same rules: background only once foreground is granted and
    /// outside the back-off, Settings when the OS will not ask again. The answer arrives later as a
    /// new snapshot.
    @discardableResult
    public func requestPermission(_ kind: PermissionKind) throws(EngineError) -> Permissions {
        try launch(.user)
        perform(.requestPermission(kind, service.authorization()))
        return permissions
    }
}
