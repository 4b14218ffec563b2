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

    /// ``requestPermission(_:)``, answering which permission's OS dialog it asked for: `nil` when it
    /// showed none (the permission is granted or restricted, background is in its back-off, or only
    /// Settings can change it). A background request shows the foreground dialog while foreground is
    /// not granted.
    func requestPermissionDialog(_ kind: PermissionKind) throws(EngineError) -> PermissionKind? {
        try launch(.user)
        return performNotingDialog(.requestPermission(kind, service.authorization()))
    }

    /// ``locationActionStarted()``, answering which permission's OS dialog it asked for, or `nil`.
    func locationActionDialog() throws(EngineError) -> PermissionKind? {
        try launch(.user)
        return performNotingDialog(.locationAction(service.authorization()))
    }

    /// Performs `input`, answering the permission whose dialog the rules asked the OS to show for it.
    /// The session is a value, so a copy tells what the input asks for without changing anything.
    private func performNotingDialog(_ input: SessionInput) -> PermissionKind? {
        var probe = session
        let dialog = probe.handle(input, now: clock.now()).lazy.compactMap { effect -> PermissionKind? in
            guard case .requestAuthorization(let kind) = effect else { return nil }
            return kind
        }.first
        perform(input)
        return dialog
    }
}
