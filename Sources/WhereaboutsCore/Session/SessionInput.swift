import Foundation

/// Everything that can happen to a ``Session``: the app's calls, the location service's reports,
/// time passing and a server's commands. Each is handled with the time it happened at; inputs that
/// ask the OS's permission state carry the authorization the OS reports now.
public enum SessionInput: Sendable, Equatable {
    /// The app process started. With tracking on, tracking restarts in the saved mode.
    case launch(LaunchReason, PlatformAuthorization)
    /// The app turns tracking on, in `mode` or the configured one; refused with
    /// ``Refusal/Code/permissionDenied`` when only Settings can allow location.
    case start(TrackingMode?, PlatformAuthorization)
    /// The app turns tracking off.
    case stop
    /// The app changes the configured mode.
    case setMode(TrackingMode)
    /// The app sets the seconds between two coalesced uploads (`nil`: the mode's,
    /// ``TrackingMode/uploadInterval``); refused with ``Refusal/Code/invalidArgument`` outside
    /// 0 s ... 24 h.
    case setUploadInterval(TimeInterval?)
    /// The app came to the foreground: permissions are refreshed (background asked for when the rules
    /// allow) and pending records uploaded.
    case becameActive(PlatformAuthorization)
    /// The app went to the background.
    case enteredBackground
    /// The app asks for both permissions to be read again (background asked for when the rules allow).
    case checkPermissions(PlatformAuthorization)
    /// The user does something that needs a position: foreground is asked for, or Settings opened.
    case locationAction(PlatformAuthorization)
    /// The app asks for a permission under the same rules.
    case requestPermission(PermissionKind, PlatformAuthorization)
    /// The OS reported a new authorization (a dialog's answer, a change in Settings).
    case authorizationChanged(PlatformAuthorization)
    /// A position from the location service.
    case fix(Fix)
    /// A visit report from the location service.
    case visit(Visit)
    /// A motion-activity report from the location service.
    case activity(MotionActivity)
    /// The OS reports a crossing of a monitored region (or the state it found when monitoring started).
    case regionCrossing(id: String, state: RegionState)
    /// The OS could not monitor a region it was handed (`nil`: one it did not name): its crossings
    /// are judged on fixes until the slots are handed again.
    case regionMonitoringFailed(id: String?)
    /// Time has passed: the shell's wake-up at ``Session/nextDeadline``.
    case wake
    /// The app asks for one fix now, recorded.
    case requestFix
    /// The app asks for full accuracy for this many seconds (1 s … 24 h), then the configured mode.
    case startActiveTracking(duration: TimeInterval)
    /// The app adds regions, replacing those with the same ids.
    case addRegions([Region])
    /// The app removes regions by id.
    case removeRegions([String])
    /// The app deleted every stored record: the Tracker forgets the record it was extending.
    case recordsCleared
    /// The app makes `regions` the whole set: unchanged regions keep their state.
    case setRegions([Region])
    /// The OS gave the app a background task: with tracking on, one fix now, recorded (the shell then
    /// uploads); refused with ``Refusal/Code/trackingDisabled`` otherwise.
    case backgroundRefresh
    /// The app says where uploads go (`nil` forgets it).
    case configureUploads(UploadSettings?)
    /// The app gives the upload credential (`nil` signs out).
    case setAuthTokens(AuthTokens?)
    /// Commands a server sent, not yet carried out, oldest first.
    case serverCommands([DeviceCommand])
    /// A flush ended with this report. The commands it brought are carried out (each once: one still
    /// waiting for its acknowledgement is not carried out again), the acknowledged ones are settled,
    /// and after a failure the session wakes at the retry time and asks for a flush
    /// (``SessionEffect/retryUploads``); a flush that emptied the queue, or paused it for a wrong URL
    /// or device, forgets the retry.
    case uploaded(FlushReport)
}
