/// What a ``Session`` asks its shell to do.
///
/// The shell writes every ``store(_:)`` effect of one input in one transaction, before it performs
/// the others in order, so that nothing is reported or uploaded before it is stored.
public enum SessionEffect: Sendable, Equatable {
    /// What the Tracker asks for (location service, store, uploads).
    case track(TrackerEffect)
    /// Show the OS's permission dialog for this kind.
    case requestAuthorization(PermissionKind)
    /// Open the app's page in the Settings app: the OS will not show its dialog again.
    case openSettings
    /// A session value to store.
    case store(SessionWrite)
    /// Tell the app's developer why a request was not carried out (a log line).
    case notice(String)
    /// Refuse the app's request: the shell throws this after performing the other effects.
    case refuse(Refusal)
    /// Flush the uploads again: the back-off after a failed one has run out.
    case retryUploads
}
